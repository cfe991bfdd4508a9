"""Build the dice-multiset tables of lib/fivedice/keeps.py (KEYS, CHILD, PARENT, PSTART) the obvious way.

Run: python tools/keeps_tables.py   (rewrites the link tables at the end of lib/fivedice/keeps.py; commit it)
The board imports CHILD, PARENT and PSTART as constants: built at import they cost a CircuitPython Pico 0.36 s
of its boot (issue 34). KEYS is still built there (0.3 ms on the unix port): as a 462-int constant tuple the
proxy's CircuitPython margin fell from 29 to 23 KB. tests/test_keeps_tables.py checks keeps.py against build().
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEEPS = os.path.join(ROOT, "lib", "fivedice", "keeps.py")
MARK = "# -- the tables, written by tools/keeps_tables.py (do not edit by hand)\n"
START = (0, 1, 7, 28, 84, 210, 462)


def build():
    """(KEYS, CHILD, PARENT, PSTART) as keeps.py documents them."""
    levels = [[] for _ in range(6)]
    for c1 in range(6):
        for c2 in range(6 - c1):
            for c3 in range(6 - c1 - c2):
                for c4 in range(6 - c1 - c2 - c3):
                    for c5 in range(6 - c1 - c2 - c3 - c4):
                        for c6 in range(6 - c1 - c2 - c3 - c4 - c5):
                            n = c1 + c2 + c3 + c4 + c5 + c6
                            levels[n].append(c1 | c2 << 3 | c3 << 6 | c4 << 9 | c5 << 12 | c6 << 15)
    keys = []
    for lv in levels:
        keys += sorted(lv)
    index = [{k: i for i, k in enumerate(sorted(lv))} for lv in levels]
    child = bytearray()
    for j in range(5):
        for k in keys[START[j]:START[j + 1]]:
            child += bytes(index[j + 1][k + (1 << 3 * (f - 1))] for f in range(1, 7))
    pstart = [0] * 7
    parent = bytearray()
    for j in range(1, 6):
        pstart[j] = len(parent)
        for k in keys[START[j]:START[j + 1]]:
            ps = [index[j - 1][k - (1 << 3 * (f - 1))] for f in range(1, 7) if (k >> 3 * (f - 1)) & 7]
            parent += bytes(ps + [ps[0]] * (j - len(ps)))
    return tuple(keys), bytes(child), bytes(parent), tuple(pstart)


def text():
    """The link tables as keeps.py's last lines."""
    keys, child, parent, pstart = build()
    out = [MARK.rstrip()]
    for name, b in (("CHILD", child), ("PARENT", parent)):
        # pieces of at most 506 bytes: CircuitPython compiling the .py lexes a literal in one block
        out.append(name + ' = b"".join((')
        for i in range(0, len(b), 22):
            end = "," if (i + 22) % 506 == 0 or i + 22 >= len(b) else ""
            out.append('    b"' + "".join("\\x%02x" % c for c in b[i:i + 22]) + '"' + end)
        out.append("))")
    out.append("PSTART = " + repr(pstart))
    return "\n".join(out) + "\n"


def main():
    src = open(KEEPS).read()
    head = src[:src.index(MARK)] if MARK in src else src
    with open(KEEPS, "w") as f:
        f.write(head + text())
    print("wrote the tables of", os.path.relpath(KEEPS, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
