"""The solver against a plain expectimax on real Cards, its score tables against scoring, and the table file."""
import io
import os
import random

import numpy as np
import pytest

from brute_expectimax import Brute
from fivedice import rules, scoring, strategy_table as st
from fivedice.scorecard import Card
from host_sim.solver import core, fixtures, tablefile


def _state_value(md, E, card):
    return float(E[md.flat(card.filled, st.u_of(md.rs, card), st.z_of(md.rs, card))])


@pytest.mark.parametrize("name", sorted(fixtures.SUBGAMES))
def test_subgame_matches_brute_force_in_every_state(name):
    card = fixtures.card(name)
    md, E = fixtures.solve(name)
    brute = Brute(card.rs)
    want = brute.future(card)
    assert abs(core.start_value(md, E, card) - want) < 1e-9
    # every card the brute force met on the way (one and two boxes left) must agree too
    assert len(brute.memo) > 5
    for (filled, pts, extra), v in brute.memo.items():
        c = Card(card.rs)
        c.filled = filled
        c.pts[:] = pts
        c.extra = extra
        assert abs(_state_value(md, E, c) - v) < 1e-9, (name, bin(filled), list(pts))


def test_one_box_left_with_bonus_already_made():
    # only chance open, upper bonus already earned: E = bonus + expected chance under optimal rerolls
    rs = rules.get("yahtzee")
    c = Card(rs)
    for b in range(rs.n):
        if rs.names[b] != "chance":
            c.fill(b, (0, 0, 9, 16, 20, 24)[b] if b < 6 else 0)
    md, E = core.solve(rs, base=c.filled, workers=1)[:2]
    assert c.upper() >= 63
    assert abs(core.start_value(md, E, c) - Brute(rs).future(c)) < 1e-9
    assert core.start_value(md, E, c) > 35 + 23


@pytest.mark.parametrize("rid", ["yahtzee", "fiveok_forced", "fiveok_free"])
def test_joker_tables_match_scoring_on_real_cards(rid):
    rs = rules.get(rid)
    md = core.Model(rs)
    rnd = random.Random(rid)
    fives = [[f] * 5 for f in range(1, 7)]
    masks = [m for m in range(1 << rs.n) if (m >> rs.five_box) & 1 and m != rs.all_mask]
    for m in rnd.sample(masks, 300):
        for z in md.zlist(m):
            c = Card(rs)
            for b in range(rs.n):
                if (m >> b) & 1:
                    c.fill(b, rs.pts[b] if (b == rs.five_box and z) else 0)
            for f in range(6):
                scoring.load(fives[f])
                lg = scoring.legal(rs, c)
                for b in range(rs.n):
                    want = scoring.points(rs, c, b) if (lg >> b) & 1 else -1
                    assert md.JP[m, z, f, b] == want
                assert md.JX[m, z, f] == scoring.extra_bonus(rs, c)


def test_plain_rolls_score_as_on_an_empty_card_and_every_open_box_is_legal():
    # the solver's base table assumes this for every roll but the Joker rolls and Yum's High/Low
    rnd = random.Random(5)
    for rs in rules.ALL:
        md = core.Model(rs)
        special = set(core.FIVE_ROWS.tolist()) if md.JP is not None else set()
        for _ in range(40):
            m = rnd.randrange(rs.all_mask)
            c = Card(rs)
            for b in range(rs.n):
                if (m >> b) & 1 and b not in (rs.high_box, rs.low_box):
                    c.fill(b, 0)
            for r in range(252):
                if r in special:
                    continue
                scoring.load(core.DICE[r].tolist())
                assert scoring.legal(rs, c) == rs.all_mask & ~c.filled
                for b in range(rs.n):
                    if b not in (rs.high_box, rs.low_box):
                        assert scoring.points(rs, c, b) == md.pts0[r, b]


def test_yum_high_low_tables_match_scoring():
    rs = rules.get("yum")
    md = core.Model(rs)
    for box, other, table in ((rs.high_box, rs.low_box, md.PH), (rs.low_box, rs.high_box, md.PL)):
        for z in range(11):
            c = Card(rs)
            c.fill(other, 20 + z if z else 0)
            assert st.z_of(rs, c) == z
            for r in range(252):
                scoring.load(core.DICE[r].tolist())
                assert table[1 + z, r] == scoring.points(rs, c, box)


def test_state_model_follows_real_cards():
    # z_after / u_after agree with z_of / u_of on the card after a fill, for random plays
    rnd = random.Random(9)
    for rs in rules.ALL:
        for _ in range(30):
            c = Card(rs)
            while not c.full():
                dice = [rnd.randint(1, 6) for _ in range(5)]
                if rnd.random() < 0.2:
                    dice = [dice[0]] * 5
                scoring.load(dice)
                lg = scoring.legal(rs, c)
                b = rnd.choice([i for i in range(rs.n) if (lg >> i) & 1])
                p = scoring.points(rs, c, b)
                u, z, f = st.u_of(rs, c), st.z_of(rs, c), c.filled
                c.fill(b, p)
                assert st.u_after(rs, u, b, p) == st.u_of(rs, c)
                assert st.z_after(rs, f, b, p, z) == st.z_of(rs, c)
                assert (st.zreach(rs, c.filled) >> st.z_of(rs, c)) & 1


def test_yahtzee_has_536448_reachable_states():
    assert core.Model(rules.get("yahtzee")).state_count() == 536448


def _all_states(md):
    for p in range(bin(md.base).count("1"), md.rs.n + 1):
        ms, us, zs = md.layer_states(p)
        for m, u, z in zip(ms.tolist(), us.tolist(), zs.tolist()):
            yield m, u, z


def check_every_state(md, E, data, order=1):
    """Decode every stored state from table bytes `data` and compare with the solver's value rounded to the
    table's 16-bit fixed point: the compact format is lossless. order 1: file order; -1: each row backwards;
    2: states shuffled (every lookup misses the cached row). Returns the number of states."""
    t = st.StrategyTable(io.BytesIO(data), md.rs)
    ms, us, zs = [], [], []
    for p in range(bin(md.base).count("1"), md.rs.n + 1):
        m, u, z = md.layer_states(p)
        ms.append(m)
        us.append(u)
        zs.append(z)
    ms = np.concatenate(ms)
    us = np.concatenate(us)
    zs = np.concatenate(zs)
    want = np.rint(E[md.flat(ms, us, zs)] * t.scale).astype(np.int64)
    idx = np.arange(len(ms))
    if order == -1:
        idx = idx[::-1]
    elif order == 2:
        idx = np.random.default_rng(10).permutation(len(ms))
    value = t.value
    got = np.fromiter((value(m, u, z) for m, u, z in zip(ms[idx].tolist(), us[idx].tolist(), zs[idx].tolist())),
                      dtype=np.int64, count=len(idx))
    bad = np.flatnonzero(got != want[idx])
    assert len(bad) == 0, "%d of %d states differ, first %r" % (len(bad), len(idx), (ms[idx][bad[0]], us[idx][bad[0]], zs[idx][bad[0]]))
    assert len(ms) == t.states
    return len(ms)


@pytest.mark.parametrize("name", ["yacht", "yahtzee3", "yum3", "yum_low25", "fiveok_free3", "yatzy3", "yacht3"])
def test_table_decodes_every_stored_state_to_the_solvers_rounded_value(name):
    md, E = fixtures.solve(name)
    data = tablefile.encode(md, E)
    for order in (1, -1, 2):
        check_every_state(md, E, data, order)
    t = st.StrategyTable(io.BytesIO(data), md.rs)
    t.verify_all()
    assert len(data) == t._end + 4 * t.blocks  # header, data, a CRC per block


def test_reader_says_when_a_state_is_not_stored():
    md, E = fixtures.solve("yahtzee3")
    t = st.StrategyTable(io.BytesIO(tablefile.encode(md, E)), md.rs)
    assert t.value(0, 0, 0) == -1  # outside the sub-game
    m = md.base
    assert t.value(m, 62, 1) >= 0
    assert t.value(m, 62, 2) == -1  # no such z code
    assert t.value(md.base & ~(1 << md.rs.five_box), 0, 1) == -1


def test_reader_refuses_a_table_for_another_rule_set():
    md, E = fixtures.solve("yacht")
    data = tablefile.encode(md, E)
    with pytest.raises(ValueError):
        st.StrategyTable(io.BytesIO(data), rules.get("yahtzee"))
    with pytest.raises(st.TableError):
        st.StrategyTable(io.BytesIO(b"nope" + data[4:]), rules.get("yacht"))


@pytest.mark.parametrize("name", fixtures.DEVICE_FIXTURES)
def test_committed_device_fixture_tables_are_current(name):
    with open(os.path.join(fixtures.DATA, name + ".fdt"), "rb") as f:
        assert f.read() == fixtures.encode(name), "run: python -m host_sim.solver.fixtures"


def test_yacht_table_value_at_start_matches_the_solver():
    md, E = fixtures.solve("yacht")
    t = st.StrategyTable(io.BytesIO(tablefile.encode(md, E)), md.rs)
    assert abs(t.value(0, 0, 0) / t.scale - core.start_value(md, E)) <= 0.5 / t.scale
