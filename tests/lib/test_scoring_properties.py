"""Property tests: the allocation-free engine agrees with the naive reference on every input."""
import itertools
from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

import reference_scorer as ref
from fivedice import game, rules, save_check, scoring
from fivedice.rng import Dice, SeededBytes
from fivedice.scorecard import Card

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def engine_choices(rs, dice, filled):
    c = Card(rs)
    for name, v in filled.items():
        c.fill(rs.box(name), v)
    out = array("h", [0] * rs.n)
    scoring.load(dice)
    m = scoring.preview(rs, c, out)
    return {rs.names[i]: out[i] for i in range(rs.n) if m >> i & 1}, scoring.extra_bonus(rs, c)


def test_every_ordered_roll_on_an_empty_card_matches_the_reference():
    for rs in rules.ALL:
        for d in ALL_ROLLS:
            assert engine_choices(rs, d, {}) == ref.choices(rs.id, list(d), {}), (rs.id, d)


def test_box_order_matches_the_published_contract():
    for rs in rules.ALL:
        assert list(rs.names) == ref.BOXES[rs.id]


@st.composite
def situations(draw):
    rs = draw(st.sampled_from(rules.ALL))
    dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
    names = draw(st.lists(st.sampled_from(rs.names), unique=True, max_size=rs.n - 1))
    filled = {}
    for name in names:
        # a value some roll can give that box (0 always can)
        vals = sorted(v for v in range(51) if save_check.possible(rs, rs.box(name), v))
        filled[name] = draw(st.sampled_from(vals))
    return rs, dice, filled


@settings(max_examples=3000, deadline=None)
@given(situations())
def test_any_card_and_roll_matches_the_reference(s):
    rs, dice, filled = s
    assert engine_choices(rs, dice, filled) == ref.choices(rs.id, dice, filled)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from([r for r in rules.ALL if r.joker != rules.JOKER_NONE]), st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_joker_situations_match_the_reference(rs, dice):
    dice = [dice[0]] * 5  # five of a kind
    upper = rs.names[dice[0] - 1]
    for five in (0, 50):
        for filled in ({}, {upper: 5 * dice[0] - dice[0]}, {upper: 0, "chance": 20, "three_kind": 0}):
            f = dict(filled)
            f[rs.names[rs.five_box]] = five
            assert engine_choices(rs, dice, f) == ref.choices(rs.id, dice, f)


def test_thousands_of_random_complete_games_total_up_like_the_reference():
    src = Dice(SeededBytes(2024))
    pick = SeededBytes(77)
    games = 0
    for seed in range(400):
        for rs in rules.ALL:
            g = game.Game(rs, 1 + seed % 4, src)
            shadow = [dict() for _ in range(g.players)]
            extra = [0] * g.players
            while not g.over:
                assert g.roll() == game.OK
                for _ in range(pick(1)[0] % 3):
                    g.toggle(pick(1)[0] % 5)
                    if g.roll() != game.OK:
                        break
                p = g.player
                want, bonus = ref.choices(rs.id, list(g.dice), shadow[p])
                legal = sorted(want)
                box = legal[pick(1)[0] % len(legal)]
                assert g.score(rs.box(box)) == game.OK
                shadow[p][box] = want[box]
                extra[p] += bonus
            for p, c in enumerate(g.cards):
                t = ref.totals(rs.id, shadow[p], extra[p])
                assert (c.upper(), c.upper_bonus(), c.lower(), c.bonus(), c.total()) == tuple(t.values())
            games += 1
    assert games == 2400
