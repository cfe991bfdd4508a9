"""The house style's width, kept by a test: no line over 100 characters in lib/ or firmware/, the
setting that pyproject.toml gives the formatter ([tool.ruff] line-length)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOMS = ("lib", "firmware")


def _width():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        m = re.search(r"\[tool\.ruff\][^\[]*?line-length\s*=\s*(\d+)", f.read())
    assert m, "pyproject.toml sets no [tool.ruff] line-length"
    return int(m.group(1))


def _sources():
    for room in ROOMS:
        for top, dirs, files in os.walk(os.path.join(ROOT, room)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            for name in files:
                if name.endswith(".py"):
                    yield os.path.join(top, name)


def long_lines(paths, width):
    """(path, line number, length) of every line longer than `width`."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if len(line.rstrip("\n")) > width:
                    out.append((os.path.relpath(path, ROOT), n, len(line.rstrip("\n"))))
    return out


def test_the_formatter_is_set_to_100_columns():
    assert _width() == 100


def test_no_line_in_lib_or_firmware_is_longer_than_the_formatters_width():
    paths = list(_sources())
    assert len(paths) > 50  # the walk found the rooms
    assert long_lines(paths, _width()) == []


def test_the_check_sees_a_long_line(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("a = 1\n" + "# " + "x" * 99 + "\n")
    assert [(n, k) for _, n, k in long_lines([str(p)], 100)] == [(2, 101)]
