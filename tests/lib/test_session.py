"""The game in progress (fivedice.session.Session): what it reports to the router, the screens it does
not import, and its dicts kept under a step of MicroPython's dict growth (docs/memory.md)."""
import ast
import os

from fivedice import app as A
from fivedice import session

LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "lib")
# the sizes a MicroPython dict grows through (py/map.c): a dict of n entries takes the first >= n
SIZES = (17, 23, 29, 37, 47, 59)


def _slots(n):
    return next(s for s in SIZES if s >= n)


def test_the_router_reads_the_codes_the_session_reports():
    # both keep them private (const: no name in a module's dict), so they are stated twice
    assert (A._TURN, A._OVER, A._OVER_RECORDS) == (session._TURN, session._OVER, session._OVER_RECORDS)
    codes = {session._TURN, session._OVER, session._OVER_RECORDS, session._RESUMED}
    assert len(codes) == 4 and 0 not in codes


def test_the_session_imports_no_screen_nor_the_view():
    with open(os.path.join(LIB, "fivedice", "session.py")) as f:
        tree = ast.parse(f.read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.add(node.module)
            names.update(node.module + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    assert names and not [n for n in names if "screens" in n or "oled_view" in n], names


def test_the_session_class_and_module_dicts_stay_a_size_down():
    # on MicroPython a class's dict holds __module__, __qualname__ and its functions; a module's its
    # globals (private consts excluded), __name__ and __file__
    funcs = [k for k, v in vars(session.Session).items() if callable(v)]
    assert _slots(len(funcs) + 2) <= 29, funcs
    glob = [k for k in vars(session) if not k.startswith("__") and not (k[0] == "_" and k[1:2].isupper())]
    assert _slots(len(glob) + 2) <= 17, glob
