"""A plain, slow expectimax over real Cards, the reference for the solver and the coach.

No state abstraction: a position is a whole Card (filled boxes, their points, extra bonuses) and
the value is the expected final Card.total() under optimal play, minus the points already on the
card (box points and extra bonuses; an upper bonus counts as still to come, like the tables).
Rerolls are enumerated as all 6**n ordered outcomes of the rerolled dice. Only for small sub-games.
"""
import itertools

from fivedice import scoring
from fivedice.scorecard import Card

ROLLS = sorted(set(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=5)))


def _submultisets(roll):
    return sorted(set(tuple(sorted(roll[i] for i in range(5) if (m >> i) & 1)) for m in range(32)))


SUBS = {r: _submultisets(r) for r in ROLLS}
KEEPS = sorted(set(k for r in ROLLS for k in SUBS[r]))
# keep -> {roll: number of ordered outcomes of the other dice giving that roll}
OUTCOMES = {}
for _k in KEEPS:
    d = {}
    for o in itertools.product(range(1, 7), repeat=5 - len(_k)):
        r = tuple(sorted(_k + o))
        d[r] = d.get(r, 0) + 1
    OUTCOMES[_k] = d


def _copy(card):
    c = Card(card.rs)
    c.filled = card.filled
    c.pts[:] = card.pts
    c.extra = card.extra
    return c


def _banked(card):
    return card.upper() + card.lower() + card.bonus()


class Brute:
    def __init__(self, rs):
        self.rs = rs
        self.memo = {}

    def future(self, card):
        """Expected points still to come from `card`'s next turn to the end (upper bonus included)."""
        if card.full():
            return card.upper_bonus()
        key = (card.filled, bytes(card.pts), card.extra)
        v = self.memo.get(key)
        if v is None:
            v = self.turn(card)[0]
            self.memo[key] = v
        return v

    def score_value(self, card, roll, box):
        """Points now (box + extra bonus) plus the future after scoring `box` with `roll`."""
        scoring.load(roll)
        pts = scoring.points(self.rs, card, box)
        x = scoring.extra_bonus(self.rs, card)
        c2 = _copy(card)
        if x:
            c2.extra += 1
        c2.fill(box, pts)
        return _banked(c2) - _banked(card) + self.future(c2)

    def final(self, card, roll):
        scoring.load(roll)
        lg = scoring.legal(self.rs, card)
        return max(self.score_value(card, roll, b) for b in range(self.rs.n) if (lg >> b) & 1)

    def turn(self, card):
        """(E at the turn start, K after roll 1 {keep: value}, K after roll 2, V3 {roll: value})."""
        v3 = {r: self.final(card, r) for r in ROLLS}
        k2 = {k: sum(n * v3[r] for r, n in OUTCOMES[k].items()) / 6 ** (5 - len(k)) for k in KEEPS}
        v2 = {r: max(k2[k] for k in SUBS[r]) for r in ROLLS}
        k1 = {k: sum(n * v2[r] for r, n in OUTCOMES[k].items()) / 6 ** (5 - len(k)) for k in KEEPS}
        v1 = {r: max(k1[k] for k in SUBS[r]) for r in ROLLS}
        e = sum(n * v1[r] for r, n in OUTCOMES[()].items()) / 7776
        return e, k1, k2, v3
