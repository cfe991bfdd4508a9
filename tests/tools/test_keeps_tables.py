"""keeps.py's tables are constants written by tools/keeps_tables.py: they match the obvious build, and the file
holds exactly what the tool writes (a hand edit, or a tool change not run, fails here)."""
import os
import sys

from fivedice import keeps

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools"))
import keeps_tables  # noqa: E402


def test_the_tables_are_the_obvious_builds():
    keys, child, parent, pstart = keeps_tables.build()
    assert tuple(keeps.KEYS) == keys and keeps.CHILD == child and keeps.PARENT == parent and keeps.PSTART == pstart


def test_the_file_ends_with_the_tools_output():
    with open(keeps_tables.KEEPS) as f:
        src = f.read()
    assert src.endswith(keeps_tables.MARK + keeps_tables.text()[len(keeps_tables.MARK):])


def test_every_link_is_the_multiset_one_die_away():
    for j in range(5):
        for i in range(keeps.START[j + 1] - keeps.START[j]):
            k = keeps.KEYS[keeps.START[j] + i]
            for f in range(1, 7):
                c = keeps.CHILD[6 * (keeps.START[j] + i) + f - 1]
                assert keeps.KEYS[keeps.START[j + 1] + c] == k + (1 << 3 * (f - 1))
    for j in range(1, 6):
        for i in range(keeps.START[j + 1] - keeps.START[j]):
            k = keeps.KEYS[keeps.START[j] + i]
            for t in range(j):
                p = keeps.KEYS[keeps.START[j - 1] + keeps.PARENT[keeps.PSTART[j] + j * i + t]]
                assert keeps.count_of(p) == j - 1 and all(((k - p) >> 3 * f) & 7 <= (k >> 3 * f) & 7
                                                          for f in range(6)) and keeps.count_of(k - p) == 1
