"""The save format's one package (fivedice.savefile): a record written before it was gathered there resumes and
is written back byte for byte; the owners of state report message codes and import no view."""
import ast
import os
import sys

from fivedice import app as A
from fivedice import savefile
from fivedice.savefile import decode as save_decode
from fivedice.rng import Dice, SeededBytes
from host_sim.device import SimDevice
from host_sim.sim import FileStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Written by the code before the package (at 2e640cc): Yacht, two humans, dim 1, sleep 2, muted; turn 2, the
# first player's first roll with die 3 held; "choice" and "yacht" filled on the cards.
OLD = bytes.fromhex("a805ca40404141d5020502000104010106010202000400000000000000000000001600000800000000000000000000000000"
                    "aab91400842b8c70")


def test_a_record_written_before_the_package_resumes_and_is_written_back_the_same(tmp_path):
    path = tmp_path / "fivedice.sav"
    path.write_bytes(OLD)
    dev = SimDevice(dice=Dice(SeededBytes(3)), store=FileStore(str(path)))
    app = dev.app
    g = app.session.game
    assert not app.session.save_bad and g is not None and g.rs.id == "yacht" and g.players == 2
    assert (g.turn, g.player, g.rolls, g.held) == (1, 0, 1, 0b100)
    s = app.settings
    assert (s.rules_i, s.players, s.dim_i, s.sleep_i, s.muted) == (5, 2, 1, 2, True)
    assert app.session.save_bytes() == OLD and savefile.encode_game(g) == OLD[save_decode.SAVE_HEAD:-save_decode.CRC_BYTES]
    assert "fivedice.savefile.decode" not in sys.modules  # the reader is dropped once the save is read...
    assert not hasattr(sys.modules["fivedice.savefile"], "decode")  # ...and its package keeps no reference
    dev.tap(A.B_OK)  # Resume game
    assert app.mode == A.M_TURN
    dev.close()


def test_the_reader_states_the_layout_the_writer_keeps_private():
    from fivedice.savefile import decode

    names = ("SAVE_MAGIC", "SAVE_HEAD", "SEATED", "GAME_MAGIC", "GAME_VERSION", "GAME_HEAD", "CRC_BYTES")
    assert [getattr(savefile, "_" + n) for n in names] == [getattr(decode, n) for n in names]  # (CPython)


def test_a_record_without_a_game_holds_the_menus_settings_only():
    class S:
        rules_i, players, dim_i, sleep_i, muted, seats = 3, 4, 2, 1, False, bytearray(b"\x00\x03\x02\x01")

    rec = savefile.record(S, None, None)
    assert rec[:7] == bytes((0xA8, 3, 4 | 2 << 3 | 1 << 5, 0, 3, 2, 1)) and len(rec) == 11
    from fivedice.savefile import decode

    assert decode.crc_ok(rec) and not decode.crc_ok(rec[:-1] + bytes((rec[-1] ^ 1,)))


def _imports(path):
    names = set()
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module)
            names.update(node.module + "." + a.name for a in node.names)
    return names


def test_the_owners_of_state_report_message_codes_and_import_no_view():
    lib = os.path.join(ROOT, "lib", "fivedice")
    for name in ("session.py", "seats.py", "records.py", "settings.py", "game.py", "messages.py",
                 "savefile/__init__.py", "savefile/decode.py"):
        got = _imports(os.path.join(lib, name))
        assert not any("oled_view" in n for n in got), name
