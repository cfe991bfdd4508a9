"""The game-over screen reads the proficiency meter's costliest decision by the meter's own layout."""
from fivedice import game, proficiency
from fivedice.screens import over


def test_the_screen_reads_the_meters_costliest_decision_where_the_meter_writes_it():
    # over.py keeps them as consts of its own (no globals on a board): they must agree
    for name in ("_W_TURN", "_W_KIND", "_W_VALUE", "_W_BKIND", "_W_BVALUE"):
        assert getattr(over, name) == getattr(proficiency, name), name
    assert over._KEEP == game.KEEP
