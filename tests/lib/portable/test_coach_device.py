"""Coach, strategy-table reader, CPU levels and proficiency on the committed sub-game tables.

Runs under CPython (pytest) and the MicroPython unix port (tests/support/mp_runner.py). The reference is
the numpy solver's table: the coach recomputes each state's value from its successors and must
land on the stored value; hints must be the argmax of values computed here from the table.
"""
from coachfix import card, table
from fivedice import coach, cpu_levels, scoring
from fivedice.game import Game
from fivedice.proficiency import Proficiency
from fivedice.rng import Dice, SeededBytes
from fivedice.scorecard import Card


def _random_play(name, games, check):
    t = table(name)
    c = coach.Coach(t.rs, t)
    dice = Dice(SeededBytes(len(name) * 7 + games))
    d = bytearray(5)
    n = 0
    for _ in range(games):
        cd = card(name)
        while not cd.full():
            check(t, c, cd)
            n += 1
            for i in range(5):
                d[i] = dice.face()
            scoring.load(d)
            lg = scoring.legal(t.rs, cd)
            b = dice.face() % t.rs.n
            while not (lg >> b) & 1:
                b = (b + 1) % t.rs.n
            p = scoring.points(t.rs, cd, b)
            if scoring.extra_bonus(t.rs, cd):
                cd.extra += 1
            cd.fill(b, p)
    return n


def _turn_matches(t, c, cd):
    want = t.card_value(cd)
    assert want >= 0, "state not in the table"
    got = c.turn_value(cd)
    assert -1 <= got - want <= 1, (cd.filled, got, want)


def test_coach_recomputes_the_stored_value_of_every_state_met():
    assert _random_play("yahtzee3", 4, _turn_matches) >= 12
    assert _random_play("yum3", 4, _turn_matches) >= 12
    assert _random_play("yum_low25", 2, _turn_matches) >= 2


def test_coach_recomputes_yacht_values_over_whole_games():
    assert _random_play("yacht", 1, _turn_matches) == 12


def _copy(cd):
    c2 = Card(cd.rs)
    c2.filled = cd.filled
    for i in range(cd.rs.n):
        c2.pts[i] = cd.pts[i]
    c2.extra = cd.extra
    return c2


def _box_values(t, cd, d):
    # (points + extra bonus) * scale + E(next state), for each legal box, straight from the table
    rs = t.rs
    scoring.load(d)
    lg = scoring.legal(rs, cd)
    x = scoring.extra_bonus(rs, cd)
    out = {}
    for b in range(rs.n):
        if (lg >> b) & 1:
            scoring.load(d)
            p = scoring.points(rs, cd, b)
            c2 = _copy(cd)
            c2.fill(b, p)
            out[b] = (p + x) * t.scale + t.card_value(c2)
    return out


def _hints_are_best(t, c, cd):
    d = bytearray(5)
    src = Dice(SeededBytes(cd.filled + 1))
    for k in range(6):
        for i in range(5):
            d[i] = src.face()
        if k == 0:
            for i in range(5):
                d[i] = d[0]  # five of a kind: Joker / extra bonus paths
        vals = _box_values(t, cd, d)
        best = max(vals.values())
        assert c.hint(cd, d, 3, 0) == coach.SCORE
        assert vals[c.value] == best
        assert c.score_loss(cd, d, 3, c.value) == 0
        for b in vals:
            assert c.score_loss(cd, d, 3, b) == (best - vals[b]) * coach.WIDE
        for rolls in (1, 2):
            a = c.hint(cd, d, rolls, 0)
            top = c.best
            for m in range(31):
                assert c.keep_value(d, rolls, m) <= top
                assert c.keep_loss(cd, d, rolls, m) == top - c.keep_value(d, rolls, m)
            if a == coach.KEEP:
                assert c.keep_value(d, rolls, c.value) == top and c.value != 31
            else:
                assert vals[c.value] * coach.WIDE == top


def test_hints_are_the_best_action_by_the_table():
    assert _random_play("yahtzee3", 2, _hints_are_best) >= 6
    assert _random_play("yum3", 1, _hints_are_best) >= 3


def _play(g, p, prof=None):
    while not g.over:
        a = p.decide(g)
        if a == cpu_levels.SCORE:
            if prof:
                prof.before_score(g, p.box)
            assert g.score(p.box) == 0
        else:
            for i in range(5):
                if (p.keep >> i) & 1:
                    g.hold(i)
                else:
                    g.release(i)
            if prof and g.rolls:
                prof.before_roll(g)
            assert g.roll() == 0
    return g.cards[0].total()


def test_every_cpu_level_finishes_yacht_games_and_perfect_loses_nothing():
    t = table("yacht")
    rs = t.rs
    for level in range(cpu_levels.EASY, cpu_levels.EASY + cpu_levels.available_levels(True)):
        p = cpu_levels.make(rs, level, t)
        g = Game(rs, 1, Dice(SeededBytes(5 + level)))
        prof = Proficiency(coach.Coach(rs, t))
        total = _play(g, p, prof)
        assert total > 0 and prof.decisions >= 12
        if level == cpu_levels.PERFECT:
            assert prof.loss == 0 and prof.mistakes == 0
    assert cpu_levels.available_levels(False) == 2


def test_proficiency_records_each_keep_at_its_coach_loss():
    t = table("yahtzee3")
    g = Game(t.rs, 1, Dice(SeededBytes(3)))
    card("yahtzee3", g.cards[0])
    c = coach.Coach(t.rs, t)
    prof = Proficiency(c)
    g.roll()
    for i in range(1, 5):
        g.hold(i)
    want = (c.keep_loss(g.cards[0], g.dice, 1, g.held) + coach.WIDE // 2) // coach.WIDE
    assert prof.before_roll(g) == want and prof.loss == want and prof.decisions == 1
    assert prof.per_decision_x100() == prof.loss_x100()
    g.release(1)
    g.release(2)
    g.roll()
    want2 = (c.keep_loss(g.cards[0], g.dice, 2, g.held) + coach.WIDE // 2) // coach.WIDE
    assert prof.before_roll(g) == want2 and prof.loss == want + want2 and prof.decisions == 2
