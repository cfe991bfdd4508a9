"""The game-over screen keeps its own consts for what other modules own: the meter's layout, KEEP, a character."""
from fivedice import font, game, proficiency
from fivedice.screens import over


def test_the_screens_consts_agree_with_the_modules_that_own_them():
    # consts of its own: no globals on a board, but they must agree (the costliest decision is read
    # where the meter writes it)
    for name in ("_W_TURN", "_W_KIND", "_W_VALUE", "_W_BKIND", "_W_BVALUE"):
        assert getattr(over, name) == getattr(proficiency, name), name
    assert over._KEEP == game.KEEP
    assert over._CH == font.ADVANCE
