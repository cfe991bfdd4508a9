"""Take the README's screenshots: the simulated device driven through its buttons, saved with the
same PNG writer as `python -m host_sim play --screenshots` (make screenshots)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "lib"), ROOT]

from fivedice import app as A  # noqa: E402
from fivedice.rng import Dice, ScriptedFaces, SeededBytes  # noqa: E402
from host_sim.device import SimDevice  # noqa: E402
from host_sim.play import Player  # noqa: E402
from host_sim.screenshot import screenshot  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screenshots")
TABLES = os.path.join(ROOT, "tables")


def shot(dev, name):
    dev.settle()
    screenshot(os.path.join(OUT, name + ".png"), dev.board.display, dev.board.pixels)


def main():
    os.makedirs(OUT, exist_ok=True)
    dev = SimDevice(dice=ScriptedFaces([6, 6, 2, 6, 4] + [6, 3, 6] + [4, 4, 4, 4, 4] * 3), cpu_step_ms=60)
    shot(dev, "menu")
    pl = Player(dev)
    pl.setup(0, 2, cpu_seats=(2,))
    pl.do("roll")
    pl.do("hold 1 2 4")
    shot(dev, "turn")
    pl.do("roll")
    dev.tap(A.B_OK)
    shot(dev, "picker")
    dev.tap(A.B_BACK)
    pl.do("score sixes")
    dev.close()

    dev = SimDevice(dice=ScriptedFaces([4] * 10), cpu_step_ms=60)
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    pl.do("score yahtzee")
    pl.do("roll")
    dev.tap(A.B_OK)
    shot(dev, "joker")
    dev.close()

    # the coach: a hint, and proficiency on the game-over screen (needs tables/yahtzee.fdt)
    dev = SimDevice(dice=Dice(SeededBytes(5)), cpu_step_ms=20, tables=TABLES)
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    dev.tap(A.B_UP)
    shot(dev, "hint")
    dev.close()

    dev = SimDevice(dice=Dice(SeededBytes(21)), cpu_step_ms=20, tables=TABLES)
    app = dev.app
    app.nplayers = 3
    app.kinds[0] = 0
    app.kinds[1] = 3
    app.kinds[2] = 1
    app.new_game()
    # the human seat follows the hints except on the last roll of each turn, where it scores the first box offered
    while not app.game.over:
        g = app.game
        if app.kinds[g.player]:
            dev.step()
            continue
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_UP)
        if app.hint_kind == 1:
            for i in range(5):
                if (app.hint_value >> i) & 1 != (g.held >> i) & 1:
                    dev.tap(A.B_HOLD1 + i)
            dev.tap(A.B_ROLL)
            dev.settle()
        dev.tap(A.B_OK)
        app.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()
    for _ in range(100000):
        if app.game.over:
            break
        dev.step()
    shot(dev, "game_over")
    dev.tap(A.B_OK)
    shot(dev, "scorecard")
    dev.close()
    print("screenshots written to", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
