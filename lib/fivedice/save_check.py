"""What a save (and the host tools' input) must satisfy to be a game some play can reach.

Loaded only when a save is read (fivedice.game.decode) or a host tool checks a card; the app drops the
module again after a load (fivedice.app), so a board does not hold this code through the game.
"""
from fivedice.compat import const, popcount
from fivedice import scoring
from fivedice.scorecard import Card

ROLLS_PER_TURN = const(3)  # game.ROLLS_PER_TURN
_ALL_DICE = const(0x1F)


def card_problem(rs, c):
    """Why no game of rule set rs can reach card `c` (one plain sentence), or None if one can.

    Every box holds points some roll can score there; Yum's Low is below its High when both hold
    points; extra five-of-a-kind bonuses need the five box scored in full and each took a turn after it.
    The same check guards saves (decode) and the host tools' input (host_sim.oracle).
    """
    if c.filled & ~rs.all_mask:
        return "the card fills boxes the rule set does not have"
    for i in range(rs.n):
        v = c.pts[i]
        if not c.is_filled(i):
            if v:
                return "the card has points in an empty box (%s)" % rs.names[i]
        elif not possible(rs, i, v):
            return "the card has %d points in %s, which no roll can score" % (v, rs.names[i])
    if rs.high_box >= 0:
        hi = c.pts[rs.high_box]
        lo = c.pts[rs.low_box]
        if c.is_filled(rs.high_box) and c.is_filled(rs.low_box) and hi and lo and lo >= hi:
            return "low %d is not lower than high %d: no game reaches that card" % (lo, hi)
    if c.extra:
        fb = rs.five_box
        if not rs.extra_bonus or fb < 0 or not c.is_filled(fb) or c.pts[fb] != rs.pts[fb]:
            return "the card has extra bonuses without %s scored in full first" % (
                rs.names[fb] if fb >= 0 else "a five-of-a-kind box")
        most = popcount(c.filled) - 1  # each bonus is a turn after the five box, and fills a box
        if c.extra > most:
            return "the card has %d extra bonuses, but only %d boxes were filled after %s" % (
                c.extra, most, rs.names[fb])
    return None


def game_problem(g):
    """Why no play reaches game `g` (one plain sentence), or None: every card, and turn, seat, dice and end."""
    rs = g.rs
    n = rs.n
    if g.player >= g.players or g.rolls > ROLLS_PER_TURN or g.held > _ALL_DICE:
        return "impossible turn state"
    for i in range(5):
        f = g.dice[i]
        if f > 6 or (f == 0) != (g.rolls == 0):
            return "impossible dice"
    if g.rolls == 0 and g.held:
        return "dice held before the first roll"
    if g.rolls == ROLLS_PER_TURN and g.held == _ALL_DICE:
        return "a third roll with every die held"
    if g.turn > n:
        return "turn %d of a %d-box game" % (g.turn + 1, n)
    for p in range(g.players):
        c = g.cards[p]
        why = card_problem(rs, c)
        if why is not None:
            return "player %d: %s" % (p + 1, why)
        want = g.turn + (1 if p < g.player else 0)
        if popcount(c.filled) != want:
            return "player %d has %d boxes filled on turn %d" % (p + 1, popcount(c.filled), g.turn + 1)
    if g.over:
        if g.turn != n or g.player or g.rolls:
            return "the game is marked over before every card is full"
    elif g.turn >= n:
        return "every card is full but the game is not marked over"
    return None


_possible_cache = {}


def possible(rs, box, value):
    """True if some roll, on some card, can put `value` points in `box` (0 always can)."""
    key = rs.index * 16 + box
    vals = _possible_cache.get(key)
    if vals is None:
        vals = _possible_values(rs, box)
        _possible_cache[key] = vals
    return value in vals


def _possible_values(rs, box):
    # Enumerate every sorted roll on an empty card, and again on a card where the Joker applies.
    vals = {0}
    empty = Card(rs)
    jok = Card(rs)
    if rs.five_box >= 0:
        jok.fill(rs.five_box, 0)
        for f in range(1, 7):
            jok.fill(rs.upper_box[f], 0)
    d = bytearray(5)
    for a in range(1, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                for e in range(c, 7):
                    for f in range(e, 7):
                        d[0], d[1], d[2], d[3], d[4] = a, b, c, e, f
                        scoring.load(d)
                        vals.add(scoring.points(rs, empty, box))
                        vals.add(scoring.points(rs, jok, box))
    return vals
