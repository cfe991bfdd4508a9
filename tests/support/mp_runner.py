"""Run test modules under the MicroPython unix port (or CPython) without pytest.

Usage: micropython tests/support/mp_runner.py tests/lib/portable/test_x.py [...]
Each module's top-level callables named test_* run in file order. A test may raise
SkipTest for a feature the port lacks. Prints one line per failure and closes with
'N passed, N failed' (and ', N skipped'); exits 1 on any failure or if nothing ran.
"""
import sys


class SkipTest(Exception):
    pass


def _modname(path):
    name = path.split("/")[-1]
    if name.endswith(".py"):
        name = name[:-3]
    return name


def main(paths):
    passed = failed = skipped = 0
    for path in paths:
        d = "/".join(path.split("/")[:-1]) or "."
        if d not in sys.path:
            sys.path.insert(0, d)
        name = _modname(path)
        mod = __import__(name)
        names = [n for n in dir(mod) if n.startswith("test_")]
        # dir() order is hash order on MicroPython; sort for a stable run.
        names.sort()
        for n in names:
            fn = getattr(mod, n)
            if not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except SkipTest:
                skipped += 1
            except Exception as e:  # report and go on
                failed += 1
                print("FAIL", name + "." + n, type(e).__name__, e)
                try:
                    sys.print_exception(e)
                except AttributeError:
                    import traceback

                    traceback.print_exc()
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print(line)
    if failed or passed == 0:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
