"""`fivedice sim --board macropad`: the simulator's MacroPad (host_sim/macropad.py): its 12 keys drawn 3 x 4 in
their colours, and its knob: up/down in the menus, the shake on the dice screen."""
from fivedice.app import M_MENU, M_PICK, M_TURN
from fivedice.rng import Dice, SeededBytes
from host_sim.keys import PressQueue
from host_sim.sim import make_device, run_steps, screen, take_keys


def _play(dev, queue, keys, ms=600):
    take_keys(keys, dev, queue)
    run_steps(dev, queue, ms // 5)


def test_the_macropad_sim_plays_with_its_keys_and_knob():
    dev = make_device("macropad", dice=Dice(SeededBytes(3)))
    queue = PressQueue(dev.board.buttons.buttons)
    app = dev.app
    assert app.mode == M_MENU and len(dev.board.pixels) == 12
    _play(dev, queue, ["right"])  # the knob: down a line in the menu
    assert app.screen.cursor == 1
    _play(dev, queue, ["left", "\r"])  # up again, push: New game
    assert app.mode == M_TURN and app.session.game is not None and app.session.game.rolls == 0
    _play(dev, queue, ["right", "right"], ms=100)  # a spin on the dice screen: the dice tumble...
    assert app.session.tumbling
    _play(dev, queue, [], ms=1500)  # ...and land when it stops
    assert not app.session.tumbling and app.session.game.rolls == 1
    _play(dev, queue, ["1"])
    assert app.session.game.held == 1
    colors = dev.board.pixels.colors()
    assert sum(colors[0]) > 2 * max(sum(c) for c in colors[1:5]) > 0  # held bright, free dim
    assert colors[5] != (0, 0, 0) and colors[10] == colors[11] == (0, 0, 0)  # ROLL lit, unused keys dark
    _play(dev, queue, ["\r"])  # OK: the box picker, where the knob moves the cursor
    assert app.mode == M_PICK
    at = app.screen.cursor
    _play(dev, queue, ["]"])
    assert app.screen.cursor != at
    text = screen(dev, "full", 132, 40)
    for label in ("ROLL", "hint", "card", "OK", "BACK", "knob"):
        assert label in text, label
    compact = screen(dev, "compact", 80, 24)
    assert len(compact.split("\n")) <= 24
    dev.close()
