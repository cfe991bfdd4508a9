"""The device's best three choices (Coach.choices, what the hint shows) are the advise op's first three, with the
same expected final totals: the advise op is pinned against the plain expectimax (tests/host/test_oracle_advise.py)."""
import os

from fivedice.coach import Coach, KEEP, TOP_LEN
from fivedice.compat import zeros
from fivedice.strategy_table import StrategyTable
from host_sim.solver import fixtures

from test_oracle_advise import DATA, ask, banked, positions, request


def test_the_devices_best_three_are_the_advise_ops_first_three():
    card = fixtures.card("yacht3")
    rs = card.rs
    c = Coach(rs, StrategyTable(open(os.path.join(DATA, "yacht.fdt"), "rb"), rs))
    top = zeros("l", TOP_LEN)
    banked_ = banked(card)
    for dice, rolls_left in positions(7, 30):
        a = ask(DATA, request(card, dice, rolls_left))
        n = c.choices(card, bytearray(dice), 3 - rolls_left, 0, top)
        assert n == top[12] == min(3, len(a["choices"]))
        assert top[6] == c.best  # the first is the hint's choice (its value; its mask may be a twin keep)
        for i in range(n):
            want = a["choices"][i]
            got = round(banked_ + top[6 + i] / (c.scale * 7776.0), 2)
            assert abs(got - want["expect"]) < 0.006
            # the same choice, unless two choices tie within the last digit (then either order is right)
            tied = [w for w in a["choices"] if abs(w["expect"] - got) < 0.006]
            if top[i] == KEEP:
                faces = sorted(dice[j] for j in range(5) if (top[3 + i] >> j) & 1)
                assert {"keep": faces, "expect": want["expect"]} in tied or len(tied) > 1 and any(
                    w.get("keep") == faces for w in tied)
            else:
                assert any(w.get("box") == rs.names[top[3 + i]] for w in tied)
        assert n < 3 or top[6] >= top[7] >= top[8]
