"""Published optimal-play anchors at the start state (full solves: about 5-15 s each on 2 cores), and each
solved rule set's compact table (FDT3) decoded state by state: lossless against the 16-bit fixed point."""
import pytest

from fivedice import rules
from host_sim.solver import core, tablefile
from test_solver import check_every_state

# Hasbro forced Joker 254.5877 and free-choice Joker 254.5896 (Verhoeff; Glenn), Scandinavian Yatzy
# 248.44 (Larsson & Sjöberg, corrected figure).
ANCHORS = [("yahtzee", 254.5877, 4), ("fiveok_forced", 254.5877, 4), ("fiveok_free", 254.5896, 4), ("yatzy", 248.44, 2)]
# the table size goals of issue #10 (bytes): Yahtzee / 5 of a Kind <= 640 KB, Yatzy <= 1.25 MB (Yum: make check-tables)
SIZE_GOAL = {"yahtzee": 640 * 1024, "fiveok_forced": 640 * 1024, "fiveok_free": 640 * 1024, "yatzy": 1250000}
DECODE_ALL = ("yahtzee", "fiveok_free")  # every state; yatzy (1.4 M states, ~20 s more): make check-tables


@pytest.mark.parametrize("rid,want,places", ANCHORS)
def test_start_state_value_matches_the_published_optimum_and_its_table_is_lossless_and_small(rid, want, places):
    md, E, _ = core.solve(rules.get(rid))
    assert round(core.start_value(md, E), places) == want
    data = tablefile.encode(md, E)
    assert len(data) <= SIZE_GOAL[rid]
    if rid in DECODE_ALL:
        check_every_state(md, E, data)
