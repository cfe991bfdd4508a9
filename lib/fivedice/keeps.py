"""The 462 dice multisets (0 to 5 dice) in one fixed order, shared by the host solver and the device
coach."""
# A multiset is packed as face counts, 3 bits per face: key = c1 | c2 << 3 | ... | c6 << 15. Level j
# holds the multisets of j dice, sorted by key; a multiset's index is its position inside its level
# (always < 256, so the link tables below are bytes). Level 5 is the 252 sorted rolls: "roll index"
# everywhere in fivedice.coach and the solver means this order.
#
#     START[j]          first global index of level j (START[6] = 462)
#     KEYS[START[j]+i]  key of multiset i of level j
#     CHILD[6*(START[j]+i)+f-1]  index in level j+1 of multiset i of level j plus one die f (j < 5)
#     PARENT[PSTART[j]+j*i+t]    index in level j-1 of multiset i of level j minus its t-th distinct
#                                face (t < j; padded by repeating the first, so max() is unchanged)
#
# Built once at import with a few KB of allocation; the lookups allocate nothing.
from fivedice.compat import const, zeros

N_ROLLS = const(252)
N_KEEPS = const(462)

START = (0, 1, 7, 28, 84, 210, 462)


def _build():
    keys = zeros("l", 462)
    # enumerate count vectors by dice number, then sort each level by key
    levels = [[] for _ in range(6)]
    for c1 in range(6):
        for c2 in range(6 - c1):
            for c3 in range(6 - c1 - c2):
                for c4 in range(6 - c1 - c2 - c3):
                    for c5 in range(6 - c1 - c2 - c3 - c4):
                        for c6 in range(6 - c1 - c2 - c3 - c4 - c5):
                            n = c1 + c2 + c3 + c4 + c5 + c6
                            levels[n].append(c1 | c2 << 3 | c3 << 6 | c4 << 9 | c5 << 12 | c6 << 15)
    for j in range(6):
        lv = levels[j]
        lv.sort()
        for i in range(len(lv)):
            keys[START[j] + i] = lv[i]
    return keys


KEYS = _build()


def find(key, level):
    """Index inside `level` of the multiset with packed `key`, or -1 (binary search; no allocation).
    """
    lo = START[level]
    hi = START[level + 1] - 1
    base = lo
    while lo <= hi:
        mid = (lo + hi) >> 1
        k = KEYS[mid]
        if k == key:
            return mid - base
        if k < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def _links():
    # Adding one die f keeps a level's key order, so for each face one merge walk along the next
    # level finds every child, with no search; the parents are the children's links read backwards.
    keys = KEYS  # a local: faster than a global in these loops
    child = bytearray(6 * 210)
    for j in range(5):
        n0 = START[j]
        n1 = START[j + 1]
        for f in range(6):
            d = 1 << 3 * f
            p = n1
            for i in range(n0, n1):
                k = keys[i] + d
                while keys[p] < k:
                    p += 1
                child[6 * i + f] = p - n1
    pstart = [0] * 7
    total = 0
    for j in range(1, 6):
        pstart[j] = total
        total += j * (START[j + 1] - START[j])
    parent = bytearray(total)
    seen = bytearray(252)  # parents found so far, per multiset of the level: faces in rising order
    for j in range(1, 6):
        base = pstart[j]
        n = START[j + 1] - START[j]
        for c in range(n):
            seen[c] = 0
        for f in range(6):
            for p in range(START[j - 1], START[j]):
                c = child[6 * p + f]
                parent[base + j * c + seen[c]] = p - START[j - 1]
                seen[c] += 1
        for c in range(n):  # padded by repeating the first
            for t in range(seen[c], j):
                parent[base + j * c + t] = parent[base + j * c]
    return bytes(child), bytes(parent), tuple(pstart)


CHILD, PARENT, PSTART = _links()


def key_of(dice, mask):
    """Packed key of the dice whose bit is set in `mask` (mask 31 = all five); faces 1..6."""
    k = 0
    for i in range(5):
        if (mask >> i) & 1:
            k += 1 << 3 * (dice[i] - 1)
    return k


def count_of(key):
    """How many dice the packed key holds."""
    n = 0
    while key:
        n += key & 7
        key >>= 3
    return n


def roll_dice(index, out):
    """Write the sorted faces of roll `index` (0..251) into out[0..4]."""
    k = KEYS[START[5] + index]
    p = 0
    for f in range(1, 7):
        c = (k >> 3 * (f - 1)) & 7
        while c:
            out[p] = f
            p += 1
            c -= 1
