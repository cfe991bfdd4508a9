"""The dice multisets' tables (fivedice.keeps) against their definitions: each level sorted by key,
one die added (CHILD) or taken (PARENT) lands on the multiset with that key."""
from fivedice import keeps as k


def test_each_level_holds_its_multisets_once_sorted_by_key():
    assert k.START == (0, 1, 7, 28, 84, 210, 462)
    for j in range(6):
        level = [k.KEYS[i] for i in range(k.START[j], k.START[j + 1])]
        assert level == sorted(set(level))
        for key in level:
            assert k.count_of(key) == j


def test_child_is_the_multiset_with_one_die_more():
    for j in range(5):
        for i in range(k.START[j + 1] - k.START[j]):
            key = k.KEYS[k.START[j] + i]
            for f in range(1, 7):
                c = k.CHILD[6 * (k.START[j] + i) + f - 1]
                assert k.KEYS[k.START[j + 1] + c] == key + (1 << 3 * (f - 1)), (j, i, f)


def test_parent_takes_each_distinct_face_in_turn_and_pads_with_the_first():
    for j in range(1, 6):
        for i in range(k.START[j + 1] - k.START[j]):
            key = k.KEYS[k.START[j] + i]
            want = []
            for f in range(1, 7):
                if (key >> 3 * (f - 1)) & 7:
                    want.append(k.find(key - (1 << 3 * (f - 1)), j - 1))
            want += [want[0]] * (j - len(want))
            got = [k.PARENT[k.PSTART[j] + j * i + t] for t in range(j)]
            assert got == want, (j, i)
