"""The playable simulator: the handheld in a terminal, or a CPU-vs-CPU demo when stdin is not a terminal.

Keys: 1-5 hold, space ROLL, s shake, arrows up/down, enter OK, backspace/Esc/b BACK, q or Ctrl-C quit; every key read
is decoded and every press played through the debounced buttons (host_sim/keys.py).
The OLED is drawn at true 128x64 resolution with half blocks in 132x40 or larger, with Braille cells (2x4 pixels
each, 64x16) in smaller terminals down to 66x22; the NeoPixels as coloured cells.
"""
import os
import select
import sys
import time

from fivedice import cpu_levels
from fivedice.rng import Dice, SeededBytes
from host_sim.device import POLL_MS, SimDevice
from host_sim.keys import KeyDecoder, PressQueue
from host_sim.terminal import COMPACT_COLS, COMPACT_ROWS, FULL_COLS, layout, render

TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tables")  # make tables
LEGEND = "keys: 1-5 hold  space ROLL  s shake  \u2191/\u2193 move  enter OK  backspace/esc BACK  q quit"
SHORT_LEGEND = "1-5 hold  spc ROLL  s shake  \u2191\u2193  \u23ce OK  \u232b BACK  q quit"
KEYMAP = {
    "1": "hold1",
    "2": "hold2",
    "3": "hold3",
    "4": "hold4",
    "5": "hold5",
    " ": "roll",
    "r": "roll",
    "\r": "ok",
    "\n": "ok",
    "\x7f": "back",
    "\x08": "back",
    "b": "back",
    "esc": "back",  # a lone Escape (an arrow's escape sequence is its arrow: host_sim/keys.py)
    "up": "up",
    "down": "down",
    "k": "up",
    "j": "down",
}


class FileStore:
    """Saves the game to a file, like the board's flash (host_sim keeps it in ~/.fivedice.sav)."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def write(self, data):
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.path)

    def set_aside(self):
        """Keep an unreadable save beside the slot, untouched, before anything new is written."""
        bad = self.path + ".bad"
        if os.path.exists(self.path) and not os.path.exists(bad):
            os.replace(self.path, bad)

    # The records (high scores and stats, fivedice.records) in their own file beside the save:
    # ~/.fivedice.rec for ~/.fivedice.sav. Written to a .tmp and renamed over (atomic on a PC's file system).
    def _rec(self):
        return (self.path[:-4] if self.path.endswith(".sav") else self.path) + ".rec"

    def read_records(self):
        try:
            with open(self._rec(), "rb") as f:
                return f.read(4096)
        except FileNotFoundError:
            return None

    def write_records(self, data):
        tmp = self._rec() + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self._rec())

    def set_aside_records(self):
        """Keep records that would not decode as .rec.bad (the newest bad copy), so new ones start clean."""
        if os.path.exists(self._rec()):
            os.replace(self._rec(), self._rec() + ".bad")


POWER_NOTES = {"on": "", "dim": "  [screen dimmed]", "off": "  [screen off]",
               "asleep": "  [asleep: any key wakes it]"}
SHORT_NOTES = {"on": "", "dim": "  [dimmed]", "off": "  [off]", "asleep": "  [asleep]"}
ASLEEP_LINE = "asleep: any key wakes it    q quit"  # the compact line while asleep: no other key does more
DIM_SGR = "\x1b[2m"  # the terminal's faint text: the OLED at low contrast


def _status(dev, legend=LEGEND, width=FULL_COLS):
    """The line under the device: the keys, the tone playing, the power state; never wider than `width`
    (the narrowest terminal of its layout), the tone left out first."""
    state = dev.power_state
    if legend is SHORT_LEGEND and state == "asleep":
        return ASLEEP_LINE
    note = (SHORT_NOTES if legend is SHORT_LEGEND else POWER_NOTES)[state]
    bz = dev.board.buzzer
    tone = ""
    if dev.app.snd is not None and dev.app.snd.playing and bz.tones:
        tone = "  \u266a %d Hz" % bz.tones[-1][0]
    line = legend + tone + note
    return line if len(line) <= width else legend + note


def _term_size(fd):
    try:
        return os.get_terminal_size(fd)
    except OSError:
        return os.terminal_size((80, 24))


def screen(dev, mode, cols=0, rows=0):
    """The text drawn for one frame in a layout() mode (full, compact, or small: just a note)."""
    board = dev.board
    if mode == "small":
        return "terminal %dx%d is too small: fivedice needs %dx%d (80x24 is fine). q quits." % (
            cols, rows, COMPACT_COLS, COMPACT_ROWS)
    compact = mode == "compact"
    pad = getattr(dev, "keypad", None)  # the MacroPad: its lit keys 3 x 4 instead of the pixel strip
    if pad is not None:
        status = (_status(dev, SHORT_LEGEND, COMPACT_COLS).replace(SHORT_LEGEND, pad.SHORT_LEGEND) if compact
                  else _status(dev, pad.LEGEND))
        text = render(board.display, None, None, compact=compact) + "\n\n" + pad.render_keypad(
            board.pixels, dev.keypad_profile) + "\n" + status
    else:
        status = _status(dev, SHORT_LEGEND, COMPACT_COLS) if compact else _status(dev)
        text = render(board.display, board.pixels, status, compact=compact)
    if board.display.state == "dim":  # the frame drawn faint (an off panel is drawn dark by its raw())
        text = "\n".join(DIM_SGR + line + "\x1b[0m" for line in text.split("\n"))
    return text


QUIT_KEYS = ("q", "Q", "\x03")
DEFAULT_SAVE = os.path.join(os.path.expanduser("~"), ".fivedice.sav")
MAX_STEPS = 40  # a loop pass runs at most 200 ms of simulated time (if drawing stalled, the sim skips ahead)


def take_keys(keys, dev, queue):
    """Act on decoded keys in order: buttons join the press queue, s shakes, on the MacroPad the knob turns.
    Returns True at a quit key (q, Ctrl-C); the keys after it are dropped."""
    for key in keys:
        if key in QUIT_KEYS:
            return True
        if getattr(dev, "keypad", None) is not None and key in dev.keypad.KNOB:
            dev.keypad.turn(dev, queue, dev.keypad.KNOB[key])
            continue
        if key in ("s", "S"):
            dev.board.tilt.shake(700)
        name = KEYMAP.get(key)
        if name:
            queue.push(name)
    return False


def run_steps(dev, queue, n):
    """n main-loop passes of the device, the press queue played into its buttons before each."""
    for _ in range(n):
        queue.update(dev.clock.now)
        dev.step()


def drain(dev, queue, limit_ms=5000):
    """Play out the presses still queued (at a quit, so keys typed before q count)."""
    t = 0
    while queue.busy() and t < limit_ms:
        run_steps(dev, queue, 1)
        t += POLL_MS


def make_device(board="handheld", **kw):
    """A SimDevice of the handheld, or of the MacroPad (its 12 lit keys and its knob: host_sim.macropad)."""
    if board != "macropad":
        return SimDevice(**kw)
    from host_sim import macropad

    prof = macropad.profile()
    dev = SimDevice(n_pixels=prof.PIXEL_COUNT, pixel_colors=macropad.pixel_colors(prof), **kw)
    dev.keypad = macropad
    dev.keypad_profile = prof
    dev.shake = macropad.KnobSpin()  # no tilt switch: the knob spins the dice
    return dev


def choose(app, rules_i=None, players=None):
    """--rules / --players: the menu's rule set and players, so the next new game is played with them."""
    if rules_i is not None:
        app.settings.set("rules_i", rules_i)
    if players is not None:
        app.settings.set("players", players)
    if rules_i is not None or players is not None:
        app.enter(app.mode)  # the menu's lines again (its seat lines follow the players)


def interactive(save_path, tables=TABLES, rules_i=None, players=None, seed=None, board="handheld"):
    """Play in the terminal. The layout follows the terminal's size, checked at start and on every SIGWINCH
    (the screen is cleared and redrawn). Ctrl-C quits like q: the terminal's signal keys are turned off while
    the game runs, so Ctrl-C arrives as a key (and `make`, in the same process group, sees no SIGINT)."""
    import signal
    import termios
    import tty

    dev = make_device(board, store=FileStore(save_path), tables=tables,
                      dice=Dice(SeededBytes(seed)) if seed is not None else None)
    choose(dev.app, rules_i, players)
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    flags = {"resized": True, "quit": False}

    def on_winch(signum, frame):
        flags["resized"] = True

    def on_int(signum, frame):  # a SIGINT from elsewhere (kill -INT) also quits cleanly
        flags["quit"] = True

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    old_int = signal.signal(signal.SIGINT, on_int)
    decoder = KeyDecoder()
    queue = PressQueue(dev.board.buttons.buttons)
    quiet = 0.0
    out = sys.stdout
    out.write("\x1b[?25l")
    last = time.monotonic()
    drawn = lit = -1
    mode, cols, rows = "full", 0, 0
    try:
        tty.setcbreak(fd)
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~termios.ISIG  # Ctrl-C, Ctrl-Z, Ctrl-\ arrive as keys
        termios.tcsetattr(fd, termios.TCSADRAIN, attrs)
        while not flags["quit"]:
            if flags["resized"]:
                flags["resized"] = False
                cols, rows = _term_size(fd)
                mode = layout(cols, rows)
                out.write("\x1b[2J")
                drawn = -1
            r, _, _ = select.select([fd], [], [], 0.005)
            if r:
                data = os.read(fd, 4096)  # everything that arrived: a burst, a paste, a split escape sequence
                if not data or take_keys(decoder.feed(data), dev, queue):
                    break
                quiet = time.monotonic()
            elif decoder.waiting and time.monotonic() - quiet > 0.05:
                if take_keys(decoder.flush(), dev, queue):  # a lone ESC, or a sequence that never finished
                    break
            now = time.monotonic()
            steps = int((now - last) * 1000) // POLL_MS
            if steps:
                if steps > MAX_STEPS:
                    steps, last = MAX_STEPS, now
                else:
                    last += steps * POLL_MS / 1000.0  # keep the remainder: simulated time keeps up with real
                run_steps(dev, queue, steps)
            shown = (dev.board.display.frames, dev.power_state)
            if shown != drawn or dev.board.pixels.transmits != lit:
                drawn, lit = shown, dev.board.pixels.transmits
                out.write("\x1b[H" + screen(dev, mode, cols, rows).replace("\n", "\x1b[K\n") + "\x1b[K\x1b[J")
                out.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        signal.signal(signal.SIGWINCH, old_winch)
        signal.signal(signal.SIGINT, old_int)
        out.write("\x1b[?25h\n")
        out.flush()
        drain(dev, queue)  # presses typed before the quit key still land
        dev.app.session.flush_save()  # however the loop ended (q, Ctrl-C, a SIGINT from elsewhere)
        out.write(quit_line(dev.app, save_path) + "\n")
        out.flush()
        dev.close()
    return 0


def quit_line(app, save_path):
    """The one line left under the last frame at a quit: what was saved where, and how to go on."""
    home = os.path.expanduser("~")
    where = "~" + save_path[len(home):] if save_path.startswith(home + os.sep) else save_path
    again = "make sim" if save_path == DEFAULT_SAVE else "fivedice sim --save " + where
    if app.session.save_bad:
        return "fivedice: the save could not be read (kept as %s.bad); a new game saves afresh" % where
    try:
        with open(save_path, "rb") as f:
            saved = f.read() == app.session.save_bytes()
    except FileNotFoundError:
        if app.session.game is None:
            return "fivedice: no game started, nothing to save"
        saved = False
    except OSError:
        saved = False
    if not saved:
        return "fivedice: could not save to %s: the game is not kept" % where
    if app.session.in_game():
        return "fivedice: game saved in %s; `%s` resumes it (Resume game)" % (where, again)
    return "fivedice: settings saved in %s; `%s` to play again" % (where, again)


def demo(rules_i=0, players=2, seed=None, out=sys.stdout, tables=TABLES):
    """A CPU-vs-CPU game played to the end on the simulated device; prints the final screens and the scorecard.

    The seats play the levels in turn from the best this rule set has (perfect with its table, else good)."""
    dice = Dice(SeededBytes(seed)) if seed is not None else Dice()
    dev = SimDevice(dice=dice, cpu_step_ms=5, mute=True, tables=tables)
    app = dev.app
    try:
        app.settings.rules_i = rules_i
        app.settings.players = players
        best = app.seats.levels(app.settings.rules_i)
        for p in range(4):
            app.settings.seats[p] = best - p % best
        app.session.new_game()
        out.write("demo: %s, %s\n" % (app.session.game.rs.title, ", ".join(
            "P%d %s" % (p + 1, cpu_levels.NAMES[app.settings.seats[p]]) for p in range(players))))
        for _ in range(200000):
            if app.session.game.over:
                break
            dev.step()
        dev.settle()
        px = dev.board.pixels if out.isatty() else None  # colour cells only where colours show
        out.write(render(dev.board.display, px) + "\n")
        out.write(scorecard_text(app.session.game) + "\n")
    finally:
        dev.close()
    return 0 if app.session.game.over else 1


def scorecard_text(g):
    rs = g.rs
    cols = "".join("%6s" % ("P%d" % (p + 1)) for p in range(g.players))
    lines = ["%-16s%s" % (rs.title, cols)]
    for i, name in enumerate(rs.names):
        lines.append("%-16s%s" % (name, "".join("%6d" % c.pts[i] for c in g.cards)))
    for label, fn in (("upper", "upper"), ("upper bonus", "upper_bonus"), ("lower", "lower"), ("bonus", "bonus"), ("TOTAL", "total")):
        lines.append("%-16s%s" % (label, "".join("%6d" % getattr(c, fn)() for c in g.cards)))
    rank = bytearray(4)
    n = g.ranking(rank)
    lines.append("ranking: " + ", ".join("%d. P%d (%d)" % (g.place(rank[i]), rank[i] + 1, g.cards[rank[i]].total()) for i in range(n)))
    return "\n".join(lines)


def main(argv):
    from fivedice import rules
    from host_sim.cli import ArgParser, rule_set, whole

    ap = ArgParser(prog="fivedice sim", description="play fivedice in the terminal (a CPU-vs-CPU demo when stdin "
                   "is not a terminal). --rules, --players and --seed set the game: the demo's, or in the terminal "
                   "the next new game's (the menu's rule set and players, the dice)")
    ap.add_argument("--demo", action="store_true", help="play a CPU-vs-CPU demo game and print the scorecard")
    ap.add_argument("--rules", help="rule set id: %s (default: yahtzee for the demo, the menu's in "
                    "the terminal)" % ", ".join(rules.IDS))
    ap.add_argument("--players", type=whole, help="1 to 4 (default: 2 for the demo, the menu's in the terminal)")
    ap.add_argument("--seed", type=whole, help="repeatable dice instead of os.urandom")
    ap.add_argument("--save", default=DEFAULT_SAVE, help="the save file (default: %(default)s)")
    ap.add_argument("--board", choices=("handheld", "macropad"), default="handheld",
                    help="macropad: the Adafruit MacroPad's 12 lit keys and its knob (left/right arrows turn it)")
    a = ap.parse_args(argv)
    try:
        rs = rule_set(a.rules) if a.rules is not None else None
    except ValueError as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    if a.players is not None and not 1 <= a.players <= 4:
        print("sim: --players must be 1 to 4", file=sys.stderr)
        return 2
    if a.demo or not sys.stdin.isatty():
        if not a.demo:
            print("stdin is not a terminal: playing a CPU-vs-CPU demo game.")
        return demo(rs.index if rs is not None else 0, a.players or 2, a.seed)
    return interactive(a.save, rules_i=rs.index if rs is not None else None, players=a.players, seed=a.seed,
                       board=a.board)
