"""What a new player or a builder trips over on a fresh clone, each driven as they meet it: scripted
presses with real timing, the hint in faces, the host tools' messages, the terminal simulator's keys and lines."""
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from fivedice import app as A
from host_sim import play

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_play(tmp_path, lines, faces=None, extra=()):
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    args = ["--script", str(script)] + list(extra)
    args += ["--faces", ",".join(map(str, faces))] if faces else ["--seed", "3"]
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = play.main(args)
    out = [json.loads(x) for x in buf.getvalue().splitlines()]
    return rc, out[:-1], out[-1]


# -- a double tap never costs a roll ---------------------------------------------------------------------------
def test_a_roll_press_while_the_dice_tumble_never_starts_another_roll(tmp_path):
    rc, refused, _ = run_play(tmp_path, ["press roll", "wait 100", "press roll", "wait 3000", "hold 1", "roll", "roll"])
    assert refused == [] and rc == 0


def test_six_quick_roll_taps_roll_once_and_the_turn_keeps_two_rolls(tmp_path):
    taps = ["press roll", "wait 100"] * 6
    rc, refused, _ = run_play(tmp_path, taps + ["wait 3000", "hold 1", "roll", "roll"])
    assert refused == [] and rc == 0


def test_a_roll_after_the_burst_has_paused_rolls_again(tmp_path):
    # a tap during the tumble is ignored; one 0.5 s after the dice landed is a roll of its own
    rc, refused, _ = run_play(tmp_path, ["press roll", "wait 100", "press roll", "wait 1000", "press roll", "wait 1000",
                                         "roll", "roll"])
    assert [r["refused"] for r in refused] == ["roll"] and rc == 1  # the fourth roll of the turn


def test_six_spaces_typed_0_1_s_apart_in_the_terminal_roll_once():
    """The issue's case as the terminal loop sees it: six spaces 0.1 s apart, each read, decoded and played
    through the debounced buttons (tests/host/test_sim_keys.py's timeline)."""
    from host_sim.device import SimDevice
    from test_sim_keys import _play

    dev = SimDevice(mute=True)
    try:
        dev.tap(A.B_OK)  # New game
        dev.settle()
        _play(dev, [(100 * i, b" ") for i in range(6)])
        assert dev.app.session.game.rolls == 1 and not dev.app.session.tumbling
        _play(dev, [(0, b"1"), (200, b" ")])  # a hold is possible, and the next roll is the second
        assert dev.app.session.game.rolls == 2 and dev.app.session.game.held == 1
    finally:
        dev.close()


def test_a_press_line_names_one_button():
    dev_lines = ["press", "press roll ok", "press spin"]
    for line in dev_lines:
        with pytest.raises(play.ScriptError, match="hold1, hold2, hold3, hold4, hold5, roll, up, down, ok, back"):
            from host_sim.device import SimDevice

            d = SimDevice(mute=True)
            try:
                play.Player(d).do(line)
            finally:
                d.close()


def test_press_back_and_ok_work_on_any_screen(tmp_path):
    # BACK from the dice to the menu, OK on "Resume game": raw presses, no screen forced
    rc, refused, _ = run_play(tmp_path, ["press back", "wait 200", "press ok", "wait 200", "roll"], faces=[6] * 5)
    assert refused == [] and rc == 0


WEB_TAPS = """
import fivedice_web as W
from fivedice import app as A
hh = W.Handheld(rand=lambda n: bytes(n))
app = hh.app
now = [1000]
def run(ms):
    for _ in range(ms // 10):  # the page's 10 ms passes
        now[0] += 10
        hh.step(now[0])
run(100)
hh.button(A.B_OK)  # New game
run(500)
print(app.mode == A.M_TURN, app.session.game.rolls)
for _ in range(6):  # six taps 0.1 s apart
    hh.button(A.B_ROLL)
    run(100)
run(2000)
print(app.session.game.rolls, app.session.tumbling)
"""


def test_quick_taps_on_the_web_page_roll_once():
    """The page runs the same library: six taps on its ROLL button 0.1 s apart roll once (MicroPython unix port)."""
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(ROOT, "lib"), os.path.join(ROOT, "web"), ".frozen"]))
    r = subprocess.run([mp, "-X", "heapsize=4M", "-c", WEB_TAPS], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    assert r.stdout.split() == ["True", "0", "1", "False"]


# -- the hint in faces -----------------------------------------------------------------------------------------
DATA = os.path.join(ROOT, "tests", "data")  # a complete yacht.fdt
YACHT = 5


def _hinted(dice, keep):
    """The dice screen of a solo Yacht game with `dice` rolled and the coach's keep `keep` (bit i = die i) shown
    as the hint's best choice."""
    from fivedice.rng import ScriptedFaces
    from host_sim.device import SimDevice

    dev = SimDevice(dice=ScriptedFaces(list(dice) * 3), mute=True, tables=DATA)
    play.Player(dev).setup(YACHT, 1)
    dev.tap(A.B_ROLL)
    dev.settle()
    app = dev.app
    app.session.hint_kind, app.session.hint_value = 1, keep  # coach.KEEP
    top = app.session.top3  # coach.choices' layout: one choice, that keep
    top[0], top[3], top[6], top[12] = 1, keep, 0, 1
    app.draw()
    return dev


@pytest.mark.parametrize("dice,keep,text", [
    ((5, 3, 5, 3, 1), 0b00101, b"keep 5 5"),
    ((5, 2, 4, 6, 3), 0b10111, b"keep 2 3 4 5"),
    ((6, 6, 1, 6, 2), 0b01011, b"keep 6 6 6"),
])
def test_the_hint_names_the_faces_to_keep_with_marks_under_those_dice(dice, keep, text):
    from oled_text import pixel, shows

    dev = _hinted(dice, keep)
    try:
        assert shows(dev, text, 1, 35, ink=0)  # the best choice, inverted, first under the dice
        for i in range(5):  # a mark under each kept die, none under the others
            assert pixel(dev, 4 + i * 25 + 10, 31) == (keep >> i) & 1
    finally:
        dev.close()


def test_the_coachs_own_keep_hint_reads_as_faces():
    from fivedice import coach
    from fivedice.rng import ScriptedFaces
    from host_sim.device import SimDevice
    from oled_text import shows

    dev = SimDevice(dice=ScriptedFaces([5, 3, 5, 3, 1] * 3), mute=True, tables=DATA)
    try:
        play.Player(dev).setup(YACHT, 1)
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_UP)
        app, g = dev.app, dev.app.session.game
        assert app.session.hint_kind == coach.KEEP and app.session.hint_value
        faces = sorted(g.dice[i] for i in range(5) if (app.session.hint_value >> i) & 1)
        assert shows(dev, b"keep " + b" ".join(b"%d" % f for f in faces), 1, 35, ink=0)
    finally:
        dev.close()


# -- the host tools: one plain line for a bad command line ------------------------------------------------------
def fivedice(args, stdin="", cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    return subprocess.run([sys.executable, "-m", "host_sim"] + args, input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


@pytest.mark.parametrize("args,says", [
    (["solve", "poker"], "fivedice solve: unknown rule set 'poker'"),
    (["solve", "--out", "{file}", "yacht"], "fivedice solve: --out {file} is a file, not a folder"),
    (["solve", "--out", "{file}/tables", "yacht"], "fivedice solve: --out {file}/tables: cannot make the folder"),
    (["solve", "--workers", "x"], "fivedice solve: --workers: must be a whole number, not 'x'"),
    (["play", "--players", "abc", "--script", "-"], "fivedice play: --players: must be a whole number, not 'abc'"),
    (["play", "--seed", "x", "--script", "-"], "fivedice play: --seed: must be a whole number, not 'x'"),
    (["play", "--script"], "fivedice play: --script: expected one argument"),
    (["sim", "--players", "two"], "fivedice sim: --players: must be a whole number, not 'two'"),
    (["screenshot"], "fivedice screenshot: DIR is missing; usage: fivedice screenshot DIR --script FILE"),
    (["screenshot", "--script", "s.txt"], "fivedice screenshot: DIR comes first; usage: fivedice screenshot DIR"),
    (["screenshot", "{dir}"], "fivedice screenshot: the following arguments are required: --script"),
])
def test_a_bad_command_line_gets_one_plain_line_and_exit_2(tmp_path, args, says):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    fill = {"file": str(blocker), "dir": str(tmp_path / "shots")}
    r = fivedice([a.format(**fill) for a in args], cwd=str(tmp_path))
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and r.stdout == "" and len(lines) == 1, r.stderr
    assert lines[0].startswith(says.format(**fill)), lines[0]
    assert blocker.read_text() == ""


@pytest.mark.parametrize("args", [
    ["play", "--rules", "{long}", "--script", "-"],
    ["play", "--players", "{long}", "--script", "-"],
    ["play", "--seed", "{long}", "--script", "-"],
    ["screenshot", "{dir}", "--rules", "{long}", "--script", "-"],
    ["sim", "--rules", "{long}"],
    ["sim", "--players", "{long}"],
    ["sim", "--seed", "{long}"],
])
def test_a_long_bad_value_is_quoted_at_most_as_the_oracle_quotes_it(tmp_path, args):
    from host_sim import oracle

    fill = {"long": "x" * 100000, "dir": str(tmp_path / "shots")}
    r = fivedice([a.format(**fill) for a in args], cwd=str(tmp_path))
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr[:300]
    assert "x" * oracle.SHOW not in lines[0] and "x" * (oracle.SHOW - 3) in lines[0]
    assert "(100000 characters)" in lines[0] and len(lines[0]) < 400


def test_a_solve_into_a_folder_that_cannot_be_written_says_so_before_solving(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(str(ro), os.W_OK):
            pytest.skip("running as root: every folder is writable")
        r = fivedice(["solve", "--out", str(ro), "yacht"])
    finally:
        ro.chmod(0o700)
    assert r.returncode == 2 and r.stderr.splitlines() == ["fivedice solve: --out %s: the folder cannot be written" % ro]


def test_score_names_the_column_on_the_line_sent_not_line_2():
    r = fivedice(["score"], stdin="{\n")
    assert r.returncode == 1
    assert json.loads(r.stdout) == {"error": "not JSON: Expecting property name enclosed in double quotes at column 2"}
    r = fivedice(["score"], stdin='{"rules": "yacht", "dice": [1,2,3,4,5],, }\r\n')
    assert json.loads(r.stdout)["error"] == "not JSON: Expecting property name enclosed in double quotes at column 40"


# -- the terminal simulator --------------------------------------------------------------------------------------
def _sim_dev(tmp_path=None):
    from host_sim import sim
    from host_sim.device import SimDevice

    store = sim.FileStore(str(tmp_path / "fivedice.sav")) if tmp_path is not None else None
    return SimDevice(store=store)


def _lines(dev, mode):
    import re

    from host_sim import sim

    return re.sub(r"\x1b\[[0-9;]*m", "", sim.screen(dev, mode)).split("\n")


def test_the_screen_fits_its_layouts_narrowest_terminal_in_every_power_state_and_with_a_tone():
    from host_sim.terminal import COMPACT_COLS, FULL_COLS

    dev = _sim_dev()
    try:
        dev.tap(A.B_OK)  # New game
        dev.settle()
        dev.board.buttons.buttons["roll"].press()
        for _ in range(6):  # the roll cue playing: a tone on the line
            dev.step()
        assert dev.app.snd.playing
        states = {}
        for wait in (0, 20000, 40000, 200000):  # on, on, dimmed (30 s), asleep (3 min)
            dev.run(wait, skip=True)
            states[dev.power_state] = 1
            for mode, cols in (("compact", COMPACT_COLS), ("full", FULL_COLS)):
                assert max(len(s) for s in _lines(dev, mode)) <= cols, (dev.power_state, mode)
            if dev.power_state == "on" and wait == 0:
                assert "\u266a" in _lines(dev, "compact")[-1]
        assert set(states) == {"on", "dim", "asleep"}
        assert _lines(dev, "compact")[-1] == "asleep: any key wakes it    q quit"
        assert _lines(dev, "full")[-1].endswith("q quit  [asleep: any key wakes it]")
    finally:
        dev.board.buttons.buttons["roll"].release()
        dev.close()


def _keys(dev, keys, ms=1500):
    """Keys as the terminal loop takes them (sim.take_keys into the press queue), then ms of device time."""
    from host_sim import sim
    from host_sim.device import POLL_MS
    from host_sim.keys import KeyDecoder, PressQueue

    decoder = KeyDecoder()
    queue = PressQueue(dev.board.buttons.buttons)
    for data in keys:
        found = decoder.feed(data)
        if decoder.waiting:
            found += decoder.flush()  # nothing more came: a lone ESC is the Escape key
        assert not sim.take_keys(found, dev, queue)
        sim.run_steps(dev, queue, 60 // POLL_MS)
    sim.run_steps(dev, queue, ms // POLL_MS)


def test_escape_is_back_on_the_dice_and_cancels_new_game_ok_again_but_an_arrow_is_its_arrow():
    dev = _sim_dev()
    app = dev.app
    try:
        _keys(dev, [b"\r", b" "])  # New game, roll
        assert app.mode == A.M_TURN and app.session.game.rolls == 1
        _keys(dev, [b"\x1b"])
        assert app.mode == A.M_MENU and app.session.in_game()
        _keys(dev, [b"\x1b[B", b"\r"])  # Down (an arrow's escape sequence), OK on "New game": asks again
        assert app.menu.confirm and app.screen.cursor == 1
        _keys(dev, [b"\x1b"])
        assert not app.menu.confirm and app.session.game.rolls == 1  # the game in progress kept
        _keys(dev, [b"\x1b[A", b"\x1b"])  # up to Resume, then Esc: BACK from the menu resumes
        assert app.mode == A.M_TURN and app.session.game.rolls == 1
    finally:
        dev.close()


@pytest.mark.parametrize("line", ["Records", "How to score", "Self-test"])
def test_back_from_a_menu_screen_puts_the_cursor_on_the_line_you_left(tmp_path, line):
    from oled_text import shows

    dev = _sim_dev(tmp_path)
    app = dev.app
    try:
        names = {"Records": 11, "How to score": 9, "Self-test": 10}  # menu.I_RECORDS, I_HELP, I_TEST
        want = bytes(app.menu.items[: app.menu.n]).index(bytes((names[line],)))
        while app.screen.cursor != want:
            dev.tap(A.B_DOWN)
        dev.tap(A.B_OK)
        assert app.mode != A.M_MENU
        for _ in range(3):  # the self-test leaves on a held BACK: three presses do
            if app.mode == A.M_MENU:
                break
            dev.tap(A.B_BACK)
        if app.mode != A.M_MENU:
            btn = dev.board.buttons.buttons["back"]
            btn.press()
            dev.run(3000)
            btn.release()
            dev.run(200)
        dev.settle()
        assert app.mode == A.M_MENU and app.screen.cursor == want
        assert shows(dev, line.encode(), 2, 10 + (want - app.screen.top) * 8, ink=0)  # the cursor bar's line
    finally:
        dev.close()


def test_quitting_says_in_one_line_what_was_saved_and_how_to_resume(tmp_path):
    from test_sim_terminal import BRAILLE_ROW, _drain, _exit_status, _read_until, _spawn

    pid, fd, save = _spawn(tmp_path, 80, 24)
    try:
        _read_until(fd, BRAILLE_ROW)
        os.write(fd, b"\r")  # New game
        import time

        time.sleep(0.6)
        os.write(fd, b" ")
        time.sleep(1.0)
        os.write(fd, b"q")
        out = _drain(fd, 3.0)
        status = _exit_status(pid)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    last = out.decode("utf-8", "replace").replace("\r", "").rstrip("\n").split("\n")[-1]
    assert last == "fivedice: game saved in %s; `fivedice sim --save %s` resumes it (Resume game)" % (save, save)


def test_the_quit_line_for_a_first_start_with_nothing_played(tmp_path):
    from host_sim import sim

    dev = _sim_dev(tmp_path)
    try:
        assert sim.quit_line(dev.app, str(tmp_path / "fivedice.sav")) == "fivedice: no game started, nothing to save"
    finally:
        dev.close()


def test_a_cpu_seats_turn_names_its_level_beside_the_star():
    from fivedice.rng import Dice, SeededBytes
    from host_sim.device import SimDevice
    from oled_text import shows

    dev = SimDevice(dice=Dice(SeededBytes(2)), cpu_step_ms=1000, mute=True)
    try:
        app = dev.app
        app.settings.players = 2
        for level, name in ((1, b"CPU easy plays"), (2, b"CPU good plays")):  # fivedice.settings EASY, GOOD
            app.settings.seats[0], app.settings.seats[1] = level, 0  # seat 1 the CPU, as the menu sets it
            app.session.new_game()
            dev.run(400)  # its turn under way
            assert app.mode == A.M_TURN and app.session.game.player == 0 and app.session.cpu_turn()
            assert shows(dev, b"P1*", 0, 0) and shows(dev, name, 0, 56)
    finally:
        dev.close()


def test_play_names_each_seat_and_the_level_a_cpu_seat_plays(tmp_path):
    rc, refused, final = run_play(tmp_path, ["roll", "score chance"], extra=["--players", "2", "--cpu", "2"])
    assert [p["seat"] for p in final["players"]] == ["human", "CPU easy"]


# -- make sim installs only what the simulator needs -------------------------------------------------------------
def _sim_requirements():
    out = []
    for line in open(os.path.join(ROOT, "requirements-sim.txt"), encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def test_the_simulators_requirements_are_pinned_and_included_in_the_full_list():
    reqs = _sim_requirements()
    assert reqs and all("==" in r for r in reqs)
    full = open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8").read().split("\n")
    assert "-r requirements-sim.txt" in full
    names = {r.split("==")[0].lower() for r in reqs}
    assert not names & {l.split("==")[0].strip().lower() for l in full if "==" in l}  # each pinned once


def test_the_simulators_requirements_alone_run_make_sims_demo_and_the_host_tools(tmp_path):
    """A venv holding only requirements-sim.txt's packages (linked from this venv, the same pinned versions) plays
    `make sim`'s demo and runs play, score and screenshot: the list make sim installs is enough."""
    import importlib.metadata as md
    import sysconfig

    site = tmp_path / "site"
    site.mkdir()
    purelib = sysconfig.get_paths()["purelib"]
    for req in _sim_requirements():
        dist = md.distribution(req.split("==")[0])
        assert dist.version == req.split("==")[1], req
        for f in dist.files:
            top = str(f).split("/")[0]
            if top in ("..", "__pycache__") or top.endswith(".pth"):
                continue
            src = os.path.join(str(dist.locate_file("")), top)
            if os.path.exists(src) and not (site / top).exists():
                (site / top).symlink_to(src)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = str(venv / "bin" / "python")
    vsite = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(vsite, "sim.pth"), "w") as f:
        f.write(str(site) + "\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    assert purelib not in subprocess.run([py, "-c", "import sys; print(sys.path)"], capture_output=True, text=True,
                                         env=env).stdout

    def run(args, stdin=""):
        return subprocess.run([py, "-m", "host_sim"] + args, input=stdin, capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=600)

    r = run(["sim", "--seed", "4"])  # stdin not a terminal: the CPU demo, as `make sim < /dev/null`
    assert r.returncode == 0 and "ranking:" in r.stdout, r.stderr
    script = tmp_path / "s.txt"
    script.write_text("roll\nscore chance\n")
    r = run(["screenshot", str(tmp_path / "shots"), "--script", str(script), "--faces", "1,2,3,4,6"])
    assert r.returncode == 0 and len(os.listdir(str(tmp_path / "shots"))) == 3, r.stderr
    r = run(["score"], '{"rules": "yacht", "dice": [5,5,5,5,5]}\n')
    assert r.returncode == 0 and json.loads(r.stdout)["choices"]["yacht"] == 50
    r = run(["solve", "--out", str(tmp_path / "t"), "yacht"])
    assert r.returncode == 0 and (tmp_path / "t" / "yacht.fdt").exists(), r.stderr
