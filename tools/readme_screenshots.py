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
from host_sim.screenshot import GifRecorder, screenshot  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screenshots")
TABLES = os.path.join(ROOT, "tables")


def shot(dev, name):
    dev.settle()
    screenshot(os.path.join(OUT, name + ".png"), dev.board.display, dev.board.pixels)


# The game-over picture: P1 a human who takes the hints' holds but then scores the box the picker
# selects first (the most points now) instead of the hinted box, P2 the perfect CPU, P3 the easy CPU. The seed is
# picked so the ranking is the usual one (perfect first), not a lucky easy CPU.
GAME_OVER_SEED = 1  # 189, 268, 217: the perfect CPU first, the easy CPU beats the greedy human


def coached_game(seed):
    """Play the three-seat game above to its end; returns the device on the game-over screen."""
    dev = SimDevice(dice=Dice(SeededBytes(seed)), cpu_step_ms=20, tables=TABLES)
    app = dev.app
    app.settings.players = 3
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3
    app.settings.seats[2] = 1
    app.session.new_game()
    while not app.session.game.over:
        g = app.session.game
        if app.settings.seats[g.player]:
            dev.step()
            continue
        dev.tap(A.B_ROLL)
        dev.settle()
        while g.rolls_left():
            dev.tap(A.B_UP)
            if app.session.hint_kind != 1:  # the hint says score now
                break
            for i in range(5):
                if (app.session.hint_value >> i) & 1 != (g.held >> i) & 1:
                    dev.tap(A.B_HOLD1 + i)
            dev.tap(A.B_ROLL)
            dev.settle()
        dev.tap(A.B_OK)  # the picker (it opens on the coach's choice); the human takes the most points now
        p = app.screen
        want = max(range(p.n), key=lambda i: (p.points[p.boxes[i]], -i))
        while p.cursor != want:
            dev.tap(A.B_DOWN)
        dev.tap(A.B_OK)
        dev.settle()
    for _ in range(100000):
        if app.session.game.over:
            break
        dev.step()
    return dev


def game_gif(path, seed=5):
    """docs/screenshots/game.gif: one turn of a one-player game from the device's real frames: roll, ask
    for a hint, hold what it says, roll again, until the hint says which box to score; then score it from
    the picker. Returns (frames, ms)."""
    dev = SimDevice(dice=Dice(SeededBytes(seed)), cpu_step_ms=20, tables=TABLES)
    app = dev.app
    Player(dev).setup(0, 1)
    dev.settle()
    rec = GifRecorder(dev)
    g = app.session.game
    rec.pause(900)
    while True:
        dev.tap(A.B_ROLL)
        dev.settle()
        rec.pause(900)
        dev.tap(A.B_UP)
        rec.pause(1600)
        if app.session.hint_kind != 1 or not g.rolls_left():  # the hint says which box to score
            break
        for i in range(5):
            if (app.session.hint_value >> i) & 1 != (g.held >> i) & 1:
                dev.tap(A.B_HOLD1 + i)
                rec.pause(250)
        rec.pause(700)
    dev.tap(A.B_OK)  # the picker (the coach's choice first); move to the box the hint named
    if app.session.hint_kind == 2:
        for _ in range(app.screen.n):
            if app.screen.boxes[app.screen.cursor] == app.session.hint_value:
                break
            dev.tap(A.B_DOWN)
            rec.pause(200)
    rec.pause(1400)
    dev.tap(A.B_OK)
    dev.settle()
    rec.pause(600)
    out = rec.save(path)
    dev.close()
    return out


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
    dev.tap(A.B_OK)
    shot(dev, "picker_values")
    dev.close()

    # the proficiency test: a position, the answer to it, and a finished test (with a records store)
    import tempfile

    from host_sim.sim import FileStore
    from fivedice.screens import menu as M

    with tempfile.TemporaryDirectory() as tmp:
        dev = SimDevice(dice=Dice(SeededBytes(5)), cpu_step_ms=20, tables=TABLES,
                        store=FileStore(os.path.join(tmp, "fivedice.sav")))
        app = dev.app
        app.menu.build(app)
        while app.menu.items[app.menu.cursor] != M.I_PROF:
            dev.tap(A.B_DOWN)
        dev.tap(A.B_OK)
        s = app.screen
        shot(dev, "proftest")
        for i in range(25):
            # hold the pairs and more of a kind (a plausible player), or score the box the picker opens on
            pairs = [d for d in range(5) if s.t.dice.count(s.t.dice[d]) >= 2]
            if s.t.rolls < 3 and i % 4 and len(pairs) < 5:
                for d in pairs:
                    dev.tap(A.B_HOLD1 + d)
                dev.tap(A.B_ROLL)
            else:
                dev.tap(A.B_OK)
                dev.tap(A.B_OK)
            assert s.phase == 3, "the screenshot script's answer was refused"
            if i == 1:
                shot(dev, "proftest_answer")
            dev.tap(A.B_OK)
        assert s.phase == 4
        shot(dev, "proftest_done")
        dev.close()

    dev = coached_game(GAME_OVER_SEED)
    shot(dev, "game_over")
    dev.tap(A.B_OK)
    shot(dev, "scorecard")
    dev.close()
    n, ms = game_gif(os.path.join(OUT, "game.gif"))
    print("game.gif: %d frames, %.1f s, %d KB" % (n, ms / 1000, os.path.getsize(os.path.join(OUT, "game.gif")) // 1024))
    print("screenshots written to", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
