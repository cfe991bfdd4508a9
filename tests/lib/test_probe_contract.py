"""What the emulated Pico's probe reads of the App (../shared/pico/harness/probe.py, probe_x.py, run by
`../shared/pico/run`, and by the independent board runs that judge this project): each name must be
there, with the game in progress, or the board run stops at its first pass."""
import os
import re

from fivedice import app as A
from fivedice.rng import Dice, SeededBytes
from fivedice.screens import M_PICK
from host_sim.device import SimDevice

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(os.path.dirname(ROOT), "shared", "pico", "harness")
# what probe.py and probe_x.py read today (a checkout without ../shared checks these)
READS = ("cpu_turn draw fb game hint_kind hint_value in_game menu mode pw save_due screen settings thinking "
         "toast tumbling").split()


def _reads():
    names = set(READS)
    for f in ("probe.py", "probe_x.py"):
        p = os.path.join(HARNESS, f)
        if os.path.exists(p):
            with open(p) as fh:
                names.update(re.findall(r"\bapp\.(\w+)", fh.read()))
    return sorted(names)


def test_the_app_answers_every_name_the_probe_reads_in_a_game_and_in_the_picker():
    dev = SimDevice(dice=Dice(SeededBytes(1)), mute=True)
    app = dev.app
    for name in _reads():
        assert hasattr(app, name), name
    app.session.new_game()
    dev.settle()
    dev.tap(A.B_ROLL)
    dev.settle()
    g = app.game
    assert g is not None and g.rolls == 1 and app.in_game() and not app.cpu_turn()
    assert (app.tumbling, app.thinking) == (app.session.tumbling, app.session.thinking)
    assert (app.hint_kind, app.hint_value, app.save_due) == (
        app.session.hint_kind, app.session.hint_value, app.session.save_due)
    assert app.pw.state is not None and app.settings.players >= 1
    dev.tap(A.B_OK)  # the box picker: the probe reads the box under its cursor
    dev.settle()
    assert app.mode == M_PICK
    sc = app.screen
    assert sc.boxes[sc.cursor] >= 0
    dev.close()


def test_a_name_the_app_and_its_session_lack_is_still_an_attribute_error():
    dev = SimDevice(mute=True)
    assert not hasattr(dev.app, "no_such_thing")
    dev.close()
