"""The state model of the optimal strategy: a turn's state (filled, u, z) from a card, and after a score."""
# Shared by the table reader (fivedice.strategy_table), the coach's turn solve and the host solver.
# State of a solitaire game at the start of a turn: (filled, u, z)
#     filled  bitmask of used boxes (bit i = box i, as Card.filled); boxes 0..5 are the upper boxes
#     u       upper total capped at the bonus threshold (always 0 when the rule set has no upper bonus)
#     z       what else the rules need, as a small code:
#             rule sets with an extra five-of-a-kind bonus: 1 if the five box holds its full score, else 0
#             Yum: the value in High or Low while exactly one of them is filled (0 if scratched, else
#             value - 20, i.e. 1..10); 0 otherwise
#             others: 0
from fivedice import rules as _rules


def udim(rs):
    """How many u values a state can have (threshold + 1, or 1 without an upper bonus)."""
    return rs.upper_threshold + 1 if rs.upper_threshold else 1


def zdim(rs):
    """How many z codes the rule set needs (the state's z, above)."""
    if rs.extra_bonus and rs.five_box >= 0:
        return 2
    if rs.high_box >= 0:
        return 11
    return 1


def zreach(rs, filled):
    """Bitmask of the z codes a state with these filled boxes can have."""
    z = zdim(rs)
    if z == 2:
        return 3 if (filled >> rs.five_box) & 1 else 1
    if z == 11:
        h = (filled >> rs.high_box) & 1
        lo = (filled >> rs.low_box) & 1
        if h == lo:
            return 1
        return 0x7FF if lo else 0x7FD  # a High is at least 22: code 1 (21) cannot occur
    return 1


def u_of(rs, card):
    t = rs.upper_threshold
    if not t:
        return 0
    u = card.upper()
    return t if u > t else u


def z_of(rs, card):
    """The z code of a card (the state's z, above)."""
    z = zdim(rs)
    if z == 2:
        fb = rs.five_box
        return 1 if (card.filled >> fb) & 1 and card.pts[fb] == rs.pts[fb] else 0
    if z == 11:
        hb = rs.high_box
        lb = rs.low_box
        h = (card.filled >> hb) & 1
        lo = (card.filled >> lb) & 1
        if h == lo:
            return 0
        v = card.pts[hb] if h else card.pts[lb]
        return v - 20 if v else 0
    return 0


def z_after(rs, filled, box, pts, z):
    """z after scoring `pts` in `box` on a card with `filled` boxes and code z."""
    zd = zdim(rs)
    if zd == 2:
        if box == rs.five_box:
            return 1 if pts == rs.pts[box] else 0
        return z
    if zd == 11:
        if box == rs.high_box or box == rs.low_box:
            other = rs.low_box if box == rs.high_box else rs.high_box
            if (filled >> other) & 1:
                return 0
            return pts - 20 if pts else 0
        return z
    return z


def u_after(rs, u, box, pts):
    t = rs.upper_threshold
    if not t or rs.kinds[box] != _rules.UPPER:
        return u
    u += pts
    return t if u > t else u
