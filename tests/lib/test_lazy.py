"""The memory policy has one home: fivedice.lazy's table names what loads late and what is dropped,
per feature; every module it names exists, and no other module of lib/ or firmware/ forgets modules itself."""
import ast
import os
import sys

import pytest

from fivedice import lazy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOMES = {"fivedice": "lib", "fdfw": "firmware", "boards": "hardware", "": "firmware"}


def _sources():
    for top in ("lib", "firmware"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            if "vendor" in d.split(os.sep):
                continue
            for n in names:
                if n.endswith(".py") and n != "deploy.py":
                    yield os.path.join(d, n)


@pytest.mark.parametrize("feature", sorted(lazy._PARTS))
def test_every_module_the_table_names_exists(feature):
    for full in lazy._PARTS[feature].split():
        parts = full.split(".")
        home = os.path.join(ROOT, HOMES[parts[0]] if len(parts) > 1 or parts[0] == "boards" else "firmware")
        if parts[-1] == "*" or parts == ["boards"]:
            assert os.path.isfile(os.path.join(home, "boards", "__init__.py")), (feature, full)
        else:
            assert os.path.isfile(os.path.join(home, *parts[:-1], parts[-1] + ".py")), (feature, full)


def _sys_modules(node):
    return isinstance(node, ast.Attribute) and node.attr == "modules" and getattr(node.value, "id", "") == "sys"


def test_no_other_module_forgets_modules():
    """Deleting from sys.modules, delattr on a package and the old compat.unload live in fivedice.lazy only (the
    screen registry reads sys.modules to find a screen's class: that forgets nothing)."""
    for path in _sources():
        rel = os.path.relpath(path, ROOT)
        if rel == os.path.join("lib", "fivedice", "lazy.py"):
            continue
        tree = ast.parse(open(path).read(), rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and _sys_modules(t.value)
                                                    for t in node.targets):
                pytest.fail("%s:%d deletes from sys.modules" % (rel, node.lineno))
            if isinstance(node, ast.Attribute) and node.attr in ("pop", "popitem", "clear") and _sys_modules(node.value):
                pytest.fail("%s:%d empties sys.modules" % (rel, node.lineno))
            if isinstance(node, ast.Name) and node.id in ("unload", "delattr"):
                pytest.fail("%s:%d calls %s" % (rel, node.lineno, node.id))


def test_load_imports_the_feature_and_drop_forgets_it_and_its_package_entry():
    import fivedice.savefile as P

    lazy.drop("save_decode")
    mod = lazy.load("save_decode")
    assert sys.modules["fivedice.savefile.decode"] is mod and P.decode is mod
    assert lazy.load("save_decode") is mod  # loaded once
    lazy.drop("save_decode")
    assert "fivedice.savefile.decode" not in sys.modules and not hasattr(P, "decode")
    lazy.drop("save_decode")  # dropping what is not loaded does nothing
    assert lazy.load("save_decode") is not mod  # imported again
    lazy.drop("save_decode")


def test_a_name_counts_whole_not_as_part_of_a_longer_one():
    import fivedice.records  # noqa: F401
    import fivedice.screens.records  # noqa: F401

    lazy.drop("records")  # fivedice.records only
    assert "fivedice.records" not in sys.modules and "fivedice.screens.records" in sys.modules
    lazy.forget("fivedice.screens.records")
    assert "fivedice.screens.records" not in sys.modules


def test_a_package_named_with_a_star_goes_with_every_module_of_it(tmp_path, monkeypatch):
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / "__init__.py").write_text("")
    (tmp_path / "kit" / "part.py").write_text("X = 1\n")
    (tmp_path / "solo.py").write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(lazy._PARTS, "kit", "kit.part solo kit kit.*")
    assert lazy.load("kit").X == 1
    import solo  # noqa: F401

    lazy.drop("kit")
    assert [m for m in ("kit", "kit.part", "solo") if m in sys.modules] == []


def test_an_install_without_a_feature_drops_its_rows_of_the_table_and_only_those():
    """firmware/deploy.py writes fivedice/lazy.py through features.lazy_source for a board that leaves features
    out (a CircuitPython Pico: the records and the proficiency test): their rows go, the rest is the same code."""
    from fivedice import features

    for f, rows in features.LAZY.items():
        assert f in features.MODULES and all(r in lazy._PARTS for r in rows), (f, rows)
    with open(os.path.join(ROOT, "lib", "fivedice", "lazy.py")) as fh:
        text = fh.read()
    left = ("records", "proftest")
    g = {}
    exec(compile(features.lazy_source(text, left), "lazy.py", "exec"), g)
    gone = set(r for f in left for r in features.LAZY[f])
    assert set(g["_PARTS"]) == set(lazy._PARTS) - gone and gone
    assert all(g["_PARTS"][k] == lazy._PARTS[k] for k in g["_PARTS"])
    assert features.lazy_source(text, ()) == text
