"""The oracle's advise op: every choice with its expected final total, checked against the plain expectimax.

Tables come from the project's solver (host_sim/solver: sub-games solved here, the whole Yahtzee table from
`make tables`, the whole Yacht table of tests/data); the values to compare come from
tests/support/brute_expectimax.py, which knows nothing of tables, states or fixed point.
"""
import json
import os
import random
import subprocess
import sys

import pytest

from brute_expectimax import Brute
from fivedice import rules, scoring
from fivedice.scorecard import Card
from host_sim import oracle
from host_sim.solver import fixtures

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
FULL = os.path.join(ROOT, "tables")  # make tables (make test builds yahtzee.fdt first)


def ask(tables, req):
    old = oracle.TABLES
    oracle.TABLES = tables
    try:
        return oracle.answer(json.dumps(req))
    finally:
        oracle.TABLES = old


def request(card, dice=None, rolls_left=None):
    rs = card.rs
    req = {"op": "advise", "rules": rs.id, "card": {rs.names[b]: card.pts[b] for b in range(rs.n) if card.is_filled(b)},
           "bonus": card.bonus()}
    if dice is not None:
        req["dice"] = list(dice)
        req["rolls_left"] = rolls_left
    return req


def banked(card):
    return card.upper() + card.lower() + card.bonus()


def brute_choices(brute, card, dice, rolls_left):
    """{choice key: expected final total} for every choice, from the plain expectimax."""
    _, k1, k2, _ = brute.turn(card)
    rs = card.rs
    out = {}
    if rolls_left:
        kv = k1 if rolls_left == 2 else k2
        for m in range(31):
            keep = tuple(sorted(dice[i] for i in range(5) if (m >> i) & 1))
            out[("keep", keep)] = banked(card) + kv[keep]
    scoring.load(dice)
    lg = scoring.legal(rs, card)
    for b in range(rs.n):
        if (lg >> b) & 1:
            out[("box", rs.names[b])] = banked(card) + brute.score_value(card, tuple(sorted(dice)), b)
    return out


def key(choice):
    return ("keep", tuple(choice["keep"])) if "keep" in choice else ("box", choice["box"])


def check_against_brute(tables, card, positions):
    """Every choice's expect within the table's rounding of the brute force, the order exact but for near
    ties, par the best choice, and the box points those of scoring."""
    rs = card.rs
    scale = 128 if rs.extra_bonus else 256  # tablefile.choose_scale: the Hasbro family 128, the rest 256
    tol = 1.0 / scale + 0.005  # a keep's value rounds twice (the next state, the best sub-keep); two decimals
    brute = Brute(rs)
    for dice, rolls_left in positions:
        a = ask(tables, request(card, dice, rolls_left))
        assert "error" not in a, a
        want = brute_choices(brute, card, dice, rolls_left)
        got = {key(c): c["expect"] for c in a["choices"]}
        assert set(got) == set(want), (dice, rolls_left)
        assert len(got) == len(a["choices"])  # every keep once (5, 5 held two ways is one keep)
        for k, v in want.items():
            assert abs(got[k] - v) <= tol, (rs.id, dice, rolls_left, k, got[k], v)
        vals = [want[key(c)] for c in a["choices"]]
        for i in range(len(vals) - 1):
            assert vals[i] >= vals[i + 1] - 2 * tol, (dice, rolls_left, a["choices"][i], a["choices"][i + 1])
        assert a["par"] == a["choices"][0]["expect"]
        assert abs(a["par"] - max(want.values())) <= tol
        scoring.load(dice)
        for c in a["choices"]:
            if "box" in c:
                assert c["points"] == scoring.points(rs, card, rs.box(c["box"]))
            else:
                assert c["keep"] == sorted(c["keep"]) and len(c["keep"]) < 5


def positions(seed, n=6):
    r = random.Random(seed)
    out = [((5, 5, 5, 5, 5), 0), ((1, 2, 3, 4, 5), 2), ((6, 6, 6, 2, 2), 1)]
    for i in range(n):
        out.append((tuple(r.randint(1, 6) for _ in range(5)), i % 3))
    return out


@pytest.mark.parametrize("name", sorted(fixtures.SUBGAMES))
def test_every_choice_matches_the_plain_expectimax_on_a_solved_subgame(tmp_path, name):
    card = fixtures.card(name)
    (tmp_path / (card.rs.id + ".fdt")).write_bytes(fixtures.encode(name))
    check_against_brute(str(tmp_path), card, positions(name))


def test_the_whole_yahtzee_table_gives_the_same_advice_late_in_a_game():
    check_against_brute(FULL, fixtures.card("yahtzee3"), positions(3, 9))


def test_the_whole_yacht_table_gives_the_same_advice_late_in_a_game():
    check_against_brute(DATA, fixtures.card("yacht3"), positions(4, 9))


def test_par_at_the_start_of_a_yahtzee_game_is_254_59_forced_joker():
    card = Card(rules.get("yahtzee"))
    assert ask(FULL, request(card)) == {"par": 254.59, "choices": []}


def test_the_first_rolls_pars_average_to_the_start_par():
    # E(start) = the mean over the 7,776 ordered first rolls of each roll's par (2 rolls left)
    from fivedice import keeps

    card = Card(rules.get("yahtzee"))
    d = bytearray(5)
    total = 0.0
    for r in range(252):
        keeps.roll_dice(r, d)
        n = 120
        for f in range(1, 7):
            c = d.count(f)
            for i in range(2, c + 1):
                n //= i
        total += n * ask(FULL, request(card, d, 2))["par"]
    assert abs(total / 7776 - 254.5877) < 2.0 / 128


def test_joker_roll_offers_only_the_boxes_the_forced_joker_allows():
    # Yahtzee scored 50, fives open: five 5s must go in fives (+100 bonus); a keep is still offered
    rs = rules.get("yahtzee")
    card = fixtures.card("yahtzee3")  # fours, full house and chance open; yahtzee 50
    a = ask(FULL, request(card, (4, 4, 4, 4, 4), 0))
    assert [c["box"] for c in a["choices"]] == ["fours"]
    assert a["choices"][0]["points"] == 20
    # the 100 bonus and the fours are in the expected total: 183 on the card + 20 + 100 + the rest
    assert a["par"] > banked(card) + 120
    assert rs.names[rs.five_box] == "yahtzee"


def test_refusals_are_one_plain_line(tmp_path):
    yum = Card(rules.get("yum"))
    a = ask(str(tmp_path), request(yum, (1, 2, 3, 4, 5), 0))
    assert a["error"].startswith("no strategy table for yum")
    y = Card(rules.get("yahtzee"))
    for rl in (3, -1, "2", None, True):
        a = ask(FULL, request(y, (1, 2, 3, 4, 5), rl))
        assert "rolls_left" in a["error"], rl
    a = ask(FULL, dict(request(y), rolls_left=1))
    assert "needs \"dice\"" in a["error"]
    a = ask(FULL, request(y, (1, 2, 3, 4, 7), 1))
    assert "dice" in a["error"]
    full = fixtures.card("yacht3")
    for b in range(full.rs.n):
        if not full.is_filled(b):
            full.fill(b, 0)
    a = ask(DATA, request(full, (1, 2, 3, 4, 5), 0))
    assert "game is over" in a["error"]
    (tmp_path / "yahtzee.fdt").write_bytes(b"FDT3" + b"\0" * 60)
    a = ask(str(tmp_path), request(y, (1, 2, 3, 4, 5), 0))
    assert a["error"].startswith("strategy table") and "unusable" in a["error"]


def test_a_subgame_table_refuses_a_card_outside_it(tmp_path):
    (tmp_path / "yacht.fdt").write_bytes(fixtures.encode("yacht3"))
    a = ask(str(tmp_path), request(Card(rules.get("yacht")), (1, 2, 3, 4, 5), 0))
    assert "sub-game" in a["error"]


def test_fivedice_score_takes_a_tables_folder():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    req = request(fixtures.card("yacht3"), (6, 6, 6, 6, 2), 1)
    r = subprocess.run([sys.executable, "-m", "host_sim", "score", "--tables", DATA], input=json.dumps(req) + "\n",
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)
    assert a["choices"][0] == {"box": "yacht", "points": 50, "expect": a["par"]} or a["choices"][0]["keep"] == [6, 6, 6, 6]
    r = subprocess.run([sys.executable, "-m", "host_sim", "score", "--tables"], input="", capture_output=True,
                       text=True, env=env, cwd=ROOT)
    assert r.returncode == 2 and "--tables DIR" in r.stderr
