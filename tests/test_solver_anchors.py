"""Published optimal-play anchors at the start state (full solves: about 5-15 s each on 2 cores)."""
import pytest

from fivedice import rules
from host_sim.solver import core

# Hasbro forced Joker 254.5877 and free-choice Joker 254.5896 (Verhoeff; Glenn), Scandinavian Yatzy
# 248.44 (Larsson & Sjöberg, corrected figure).
ANCHORS = [("yahtzee", 254.5877, 4), ("fiveok_forced", 254.5877, 4), ("fiveok_free", 254.5896, 4), ("yatzy", 248.44, 2)]


@pytest.mark.parametrize("rid,want,places", ANCHORS)
def test_start_state_value_matches_the_published_optimum(rid, want, places):
    md, E, _ = core.solve(rules.get(rid))
    assert round(core.start_value(md, E), places) == want
