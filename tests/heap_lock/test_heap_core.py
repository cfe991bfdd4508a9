"""Zero-allocation proofs on the MicroPython unix port: scoring, preview, rolling, totals, turn actions.

Everything is built and warmed before micropython.heap_lock(); any allocation inside the locked
region raises MemoryError, which the test turns into a failure after unlocking.
"""
from array import array

import micropython

from heaplock import assert_no_alloc
from fivedice import game, rules, scoring
from fivedice.rng import Dice, SeededBytes
from fivedice.scorecard import Card

OUT = array("h", [0] * rules.MAX_BOXES)
ROLLS = bytearray(252 * 5)
RESULT = array("i", [0, 0])
_n = 0
for a in range(1, 7):
    for b in range(a, 7):
        for c in range(b, 7):
            for d in range(c, 7):
                for e in range(d, 7):
                    ROLLS[_n * 5 : _n * 5 + 5] = bytes((a, b, c, d, e))
                    _n += 1


def _cards():
    cards = []
    for rs in rules.ALL:
        empty = Card(rs)
        joker = Card(rs)
        if rs.five_box >= 0:
            joker.fill(rs.five_box, 50)
            joker.fill(rs.upper_box[3], 9)
        else:
            joker.fill(0, 3)
            joker.fill(rs.n - 1, 0)
        cards.append((rs, empty, joker))
    return cards


CARDS = _cards()
DICE = bytearray(5)


def _score_everything():
    acc = 0
    for i in range(252):
        for j in range(5):
            DICE[j] = ROLLS[i * 5 + j]
        scoring.load(DICE)
        for entry in CARDS:
            rs = entry[0]
            for k in (1, 2):
                card = entry[k]
                acc += scoring.preview(rs, card, OUT)
                acc += scoring.extra_bonus(rs, card)
                for box in range(rs.n):
                    acc += scoring.points(rs, card, box)
                acc += card.total() + card.upper_bonus()
    RESULT[0] = acc


def test_scoring_preview_bonus_and_totals_allocate_nothing():
    assert_no_alloc(_score_everything)
    assert RESULT[0] > 0


G = game.Game(rules.YAHTZEE, 2, Dice(SeededBytes(99)))


def _turns():
    g = G
    for _ in range(6):
        if g.over:
            g.reset()
        g.source.top_up()
        micropython.heap_lock()
        try:
            g.roll()
            g.toggle(0)
            g.hold(2)
            g.roll()
            g.release(2)
            g.roll()
            m = g.preview(OUT)
            g.bonus_now()
            box = 0
            while not (m >> box) & 1:
                box += 1
            RESULT[1] = g.score(box)
        finally:
            micropython.heap_unlock()


def test_rolling_holding_previewing_and_scoring_allocate_nothing():
    err = None
    try:
        _turns()
    except MemoryError as e:
        err = e
    assert err is None, "a turn allocated under heap_lock"
    assert RESULT[1] == game.OK


def _allocates():
    RESULT[0] = len([RESULT[1]] * 3)


def test_the_lock_catches_an_allocation():
    # control for tests/heap_lock/heaplock.py, which every proof here uses: it must fail a function that
    # allocates, or the proofs prove nothing
    try:
        assert_no_alloc(_allocates)
    except AssertionError:
        return
    raise AssertionError("heap_lock did not catch a list allocation")
