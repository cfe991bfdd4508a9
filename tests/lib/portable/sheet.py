"""Helpers that let the rule tests read like the rule sheets (portable: CPython and MicroPython)."""
from array import array

from fivedice import rules, scoring
from fivedice.scorecard import Card


def card(rid, filled=None):
    rs = rules.get(rid)
    c = Card(rs)
    if filled:
        for name in filled:
            c.fill(rs.box(name), filled[name])
    return c


def choices(rid, dice, filled=None):
    """{box: points} for every box these dice may legally be scored in."""
    rs = rules.get(rid)
    c = card(rid, filled)
    out = array("h", [0] * rs.n)
    scoring.load(dice)
    m = scoring.preview(rs, c, out)
    return dict((rs.names[i], out[i]) for i in range(rs.n) if (m >> i) & 1)


def points(rid, dice, box, filled=None):
    rs = rules.get(rid)
    scoring.load(dice)
    return scoring.points(rs, card(rid, filled), rs.box(box))


def bonus(rid, dice, filled=None):
    rs = rules.get(rid)
    scoring.load(dice)
    return scoring.extra_bonus(rs, card(rid, filled))
