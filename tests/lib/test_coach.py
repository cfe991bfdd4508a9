"""The coach (CPython run) against the plain expectimax, and the CPU levels' stored pars."""
import io
import random

import pytest

from brute_expectimax import Brute
from fivedice import coach, cpu_levels, good_valuer, rules, strategy_table as st
from fivedice.proficiency import Proficiency
from fivedice.scorecard import Card
from host_sim.solver import fixtures, tablefile


def _coach(name):
    md, E = fixtures.solve(name)
    t = st.StrategyTable(io.BytesIO(tablefile.encode(md, E)), md.rs)
    return coach.Coach(md.rs, t), t


def _pt(c, wide):
    return wide / (c.scale * coach.WIDE)


@pytest.mark.parametrize("name", ["yahtzee3", "yum3", "yum_low25", "fiveok_free3", "yatzy3"])
def test_keep_and_box_values_match_brute_force(name):
    c, t = _coach(name)
    card = fixtures.card(name)
    e, k1, k2, v3 = Brute(card.rs).turn(card)
    tol = 2.0 / c.scale  # 16-bit table rounding plus integer rounding in the coach
    assert abs(c.turn_value(card) / c.scale - e) < tol
    rnd = random.Random(name)
    dice = bytearray(5)
    for _ in range(25):
        for i in range(5):
            dice[i] = rnd.randint(1, 6)
        if rnd.random() < 0.2:
            dice[:] = bytes([dice[0]] * 5)
        for mask in range(31):
            kept = tuple(sorted(dice[i] for i in range(5) if (mask >> i) & 1))
            assert abs(_pt(c, c.keep_value(dice, 1, mask)) - k1[kept]) < tol
            assert abs(_pt(c, c.keep_value(dice, 2, mask)) - k2[kept]) < tol
        roll = tuple(sorted(dice))
        # the hint after the third roll is a box whose value is the brute-force best
        assert c.hint(card, dice, 3, 0) == coach.SCORE
        assert abs(_pt(c, c.best) - v3[roll]) < tol
        b = c.value
        assert abs(Brute(card.rs).score_value(card, roll, b) - v3[roll]) < tol
        # after the first roll: best of keeping (any 0..4 dice... or all) and scoring now
        a = c.hint(card, dice, 1, 0)
        best1 = max(k1[k] for k in {tuple(sorted(dice[i] for i in range(5) if (m >> i) & 1)) for m in range(32)})
        assert abs(_pt(c, c.best) - best1) < tol
        if a == coach.KEEP:
            kept = tuple(sorted(dice[i] for i in range(5) if (c.value >> i) & 1))
            assert abs(k1[kept] - best1) < tol


def test_losses_are_zero_for_the_hint_and_positive_for_a_blunder():
    c, t = _coach("yahtzee3")
    card = fixtures.card("yahtzee3")
    dice = bytearray([4, 4, 4, 2, 6])
    a = c.hint(card, dice, 1, 0)
    assert a == coach.KEEP and c.keep_loss(card, dice, 1, c.value) == 0
    # throwing the three fours back when fours (bonus in reach) and full house are open is a blunder
    assert c.to_points_x100(c.keep_loss(card, dice, 1, 0b11000)) > 300
    assert c.hint(card, dice, 3, 0) == coach.SCORE
    assert c.score_loss(card, dice, 3, c.value) == 0
    assert c.score_loss(card, dice, 3, card.rs.box("chance")) > 0


def test_proficiency_of_the_perfect_player_is_zero():
    c, t = _coach("yahtzee3")
    from fivedice.game import Game
    from fivedice.rng import Dice, SeededBytes

    for seed in range(1, 6):
        g = Game(c.rs, 1, Dice(SeededBytes(seed)))
        card = fixtures.card("yahtzee3")
        g.cards[0].filled, g.cards[0].pts[:] = card.filled, card.pts
        p = cpu_levels.TablePlayer(c.rs, t, cpu_levels.PERFECT)
        prof = Proficiency(coach.Coach(c.rs, t))
        while not g.over:
            a = p.decide(g)
            if a == cpu_levels.SCORE:
                assert prof.before_score(g, p.box) == 0
                assert g.score(p.box) == 0
            else:
                for i in range(5):
                    (g.hold if (p.keep >> i) & 1 else g.release)(i)
                if g.rolls:
                    assert prof.before_roll(g) == 0
                assert g.roll() == 0
        assert prof.loss == 0 and prof.decisions >= 3 and prof.mistakes == 0


def test_proficiency_totals_are_the_sum_of_decisions():
    c, t = _coach("yum3")
    from fivedice.game import Game
    from fivedice.rng import Dice, SeededBytes

    rnd = random.Random(3)
    g = Game(c.rs, 1, Dice(SeededBytes(7)))
    card = fixtures.card("yum3")
    g.cards[0].filled, g.cards[0].pts[:] = card.filled, card.pts
    prof = Proficiency(c)
    losses = []
    while not g.over:
        g.roll()
        while g.rolls < 3 and rnd.random() < 0.6:
            for i in range(5):
                (g.hold if rnd.random() < 0.5 else g.release)(i)
            if g.held == 31:
                g.release(0)
            losses.append(prof.before_roll(g))
            g.roll()
        lg = g.legal()
        box = rnd.choice([b for b in range(c.rs.n) if (lg >> b) & 1])
        losses.append(prof.before_score(g, box))
        g.score(box)
    assert prof.decisions == len(losses) and prof.loss == sum(losses)
    assert prof.loss > 0 and prof.mistakes > 0  # random play loses points
    assert prof.loss_x100() == (prof.loss * 100 * 2 + c.scale) // (2 * c.scale)


@pytest.mark.parametrize("rs", rules.ALL, ids=lambda r: r.id)
def test_stored_pars_are_what_compute_pars_gives(rs):
    assert good_valuer.PARS[rs.index] == good_valuer.compute_pars(rs)


def test_levels_degrade_without_a_table():
    assert cpu_levels.available_levels(True) == 3 and cpu_levels.available_levels(False) == 2
    with pytest.raises(ValueError):
        cpu_levels.make(rules.get("yahtzee"), cpu_levels.PERFECT, None)


def test_players_take_prepare_like_cpu_cpu():
    yz, ya = rules.get("yahtzee"), rules.get("yacht")
    good = cpu_levels.make(yz, cpu_levels.GOOD)
    good.prepare(yz)
    c0 = good.coach
    good.prepare(ya)
    assert good.coach is c0 and good.coach.rs is ya  # the same buffers, now for Yacht
    c, t = _coach("yahtzee3")
    perfect = cpu_levels.make(c.rs, cpu_levels.PERFECT, t)
    perfect.prepare(c.rs)
    with pytest.raises(ValueError):
        perfect.prepare(ya)


def test_a_retargeted_coach_gives_the_same_hints_as_a_new_one():
    dice = bytearray(b"\x02\x03\x03\x05\x06")
    c = coach.Coach(rules.get("yum"), good_valuer.HeuristicValuer(rules.get("yum")))
    for rid in ("yatzy", "yacht", "yahtzee", "yum"):
        rs = rules.get(rid)
        c.retarget(rs, good_valuer.HeuristicValuer(rs))
        fresh = coach.Coach(rs, good_valuer.HeuristicValuer(rs))
        card = Card(rs)
        card.fill(0, 2)
        for rolls in (1, 2, 3):
            assert c.hint(card, dice, rolls, 0) == fresh.hint(card, dice, rolls, 0)
            assert (c.value, c.best) == (fresh.value, fresh.best)
        assert c.turn_value(card) == fresh.turn_value(card)


def _reference_turn(c, card):
    """The turn solve the plain way, from the coach's next-state values (c._env): V3 by trying every open box on
    every roll (scoring on an empty card, Yum's High/Low on the card, Joker rolls by the legal boxes), each keep's
    value as the sum over all 6**(5-j) ordered rerolls, each roll's best sub-keep over all 32 dice subsets."""
    from itertools import product
    from fivedice import keeps, scoring

    rs = c.rs
    empty = Card(rs)
    d = bytearray(5)
    v3 = []
    for r in range(252):
        keeps.roll_dice(r, d)
        scoring.load(d)
        if d[0] == d[4] and rs.five_box >= 0 and (card.filled >> rs.five_box) & 1 and (
                rs.joker != rules.JOKER_NONE or rs.extra_bonus):
            v3.append(c._score_best(card))
            continue
        best = -1
        for b in range(rs.n):
            if not (card.filled >> b) & 1:
                p = scoring.points(rs, card if b == c._hlbox else empty, b)
                best = max(best, p * c.scale + c._env[b * coach._SLOTS + c._slot(b, p)])
        v3.append(best)

    def keep_values(top):  # top[r] in table units -> {keep index: wide value}
        out = {}
        for j in range(6):
            for i in range(keeps.START[j], keeps.START[j + 1]):
                key = keeps.KEYS[i]
                s = 0
                for faces in product(range(1, 7), repeat=5 - j):
                    k = key
                    for f in faces:
                        k += 1 << 3 * (f - 1)
                    s += top[keeps.find(k, 5)]
                out[i] = s * 6 ** j
        return out

    def best_subkeeps(kv):
        v = []
        for r in range(252):
            keeps.roll_dice(r, d)
            best = max(kv[keeps.START[bin(m).count("1")] + keeps.find(keeps.key_of(d, m), bin(m).count("1"))]
                       for m in range(32))
            v.append((best + coach.WIDE // 2) // coach.WIDE)
        return v

    k2 = keep_values(v3)
    k1 = keep_values(best_subkeeps(k2))
    return k2, k1


@pytest.mark.parametrize("name", ["yacht", "yahtzee3", "yum3", "yum_low25", "fiveok_free3", "yatzy3"])
def test_turn_solve_integers_equal_the_plain_reference(name):
    c, t = _coach(name)
    card = fixtures.card(name) if name != "yacht" else Card(rules.get("yacht"))
    c.prepare(card)
    k2, k1 = _reference_turn(c, card)
    assert [c.k2[i] for i in range(462)] == [k2[i] for i in range(462)]
    assert [c.k1[i] for i in range(462)] == [k1[i] for i in range(462)]


def test_every_rule_set_fits_the_coachs_grouped_points_buffers():
    c = None
    for rid in rules.IDS:
        rs = rules.get(rid)
        if c is None:
            c = coach.Coach(rs, good_valuer.HeuristicValuer(rs))
        else:
            c.retarget(rs, good_valuer.HeuristicValuer(rs))  # raises ValueError when a buffer is too small
        n = sum(c._gend[g] - (c._gend[g - 1] if g else 0) for g in range(c._gfirst[rs.n]))
        assert n == c._gend[c._gfirst[rs.n] - 1] <= coach._MAXNZ and c._gfirst[rs.n] <= coach._MAXG


def test_the_coach_buffers_are_sized_from_the_keeps_and_the_rule_sets():
    from fivedice import coach_buffers as b
    from fivedice import keeps

    assert b.L5 == keeps.START[5] and len(b.new_work()[0]) == keeps.START[6] == 462  # level 5: the 252 rolls
    assert b.MAX_BOXES == max(rs.n for rs in rules.ALL)


def test_points_x100_round_half_up_without_a_long_int():
    """to_points_x100 is round(wide * 100 / d) half up, and no step of it passes 2**30 for wide values a game
    can hold (a long int on a 32-bit board allocates: the heap_lock proofs run on a 64-bit port)."""
    big = []

    class Watched(int):  # every product or sum the function makes, checked against the board's small ints
        def _w(self, v):
            big.append(abs(v) >= 1 << 30)
            return Watched(v)

        def __mul__(self, o):
            return self._w(int(self) * int(o))

        def __add__(self, o):
            return self._w(int(self) + int(o))

        def __sub__(self, o):
            return self._w(int(self) - int(o))

        def __floordiv__(self, o):
            return self._w(int(self) // int(o))

        __radd__ = __add__
        __rmul__ = __mul__

    rng = random.Random(7)
    for scale in (64, 128, 256):
        c = coach.Coach.__new__(coach.Coach)
        c.scale = scale
        d = scale * coach.WIDE
        for wide in [0, 1, d // 2 - 1, d // 2, -d // 2, 65535 * coach.WIDE, (150 * 256 + 65535) * coach.WIDE] + [
                rng.randrange(-(1 << 29), 1 << 30) for _ in range(2000)]:
            assert c.to_points_x100(wide) == (wide * 100 + d // 2) // d
            assert c.to_points_x100(Watched(wide)) == (wide * 100 + d // 2) // d
    assert big and not any(big)


@pytest.mark.parametrize("name", ["yahtzee3", "yum_low25", "yatzy3"])
def test_choices_and_the_pickers_values_match_each_choice_valued_alone(name):
    """Issue 34: choices() leaves out a keep no better than a full top's third before offering it,
    and score_values() values every legal box at once: the same best three (first offered wins a
    tie, one mask a keep) and the same values as keep_value / score_value one at a time."""
    from fivedice import scoring

    c, t = _coach(name)
    card = fixtures.card(name)
    rnd = random.Random(name + "top")
    dice = bytearray(5)
    top = [0] * coach.TOP_LEN
    out = [-1] * rules.MAX_BOXES
    for _ in range(40):
        for i in range(5):
            dice[i] = rnd.randint(1, 6)
        rolls = rnd.randint(1, 3)
        n = c.choices(card, dice, rolls, 0, top)
        scoring.load(dice)
        lg = scoring.legal(card.rs, card)
        cands = [(c.score_value(card, dice, b), coach.SCORE, b) for b in range(card.rs.n) if (lg >> b) & 1]
        if rolls < 3:
            seen = set()
            for m in range(31):
                key = tuple(sorted(dice[i] for i in range(5) if (m >> i) & 1))
                if key not in seen:
                    seen.add(key)
                    cands.append((c.keep_value(dice, rolls, m), coach.KEEP, m))
        # stable: boxes first, then masks in increasing order; higher value first
        ref = sorted(cands, key=lambda e: -e[0])[:3]
        assert n == len(ref)
        assert [(top[6 + i], top[i], top[3 + i]) for i in range(n)] == ref
        c.score_values(card, dice, out)
        for b in range(card.rs.n):
            if (lg >> b) & 1:
                assert out[b] == c.score_value(card, dice, b)
