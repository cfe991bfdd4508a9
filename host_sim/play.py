"""Scripted games for tests and bug reports: every script line is pressed on the simulated buttons.

    python -m host_sim play --rules yahtzee --players 2 --faces 3,3,3,3,3,1,... --script FILE [--screenshots DIR]

Actions: roll | hold N [N ...] | release N [N ...] | score BOX | shake | wait [MS] | press BUTTON ;
'#' starts a comment. Each action but `press` and `wait` waits for the dice to land (and the CPU to play).
`press BUTTON` is one raw press of hold1-hold5, roll, up, down, ok or back on whatever screen is showing, with
no waiting after it, so timing can be scripted: `press roll`, `wait 100`, `press roll` is a double tap (a
`wait` runs just its time and closes nothing: the dice may still be tumbling after it).
`wait` runs the device's clock (up to 30 minutes at once, skipping ahead while nothing moves), so a script can
wait across the screen dimming (30 s) and the device going to sleep (3 min); the next action then first presses
a button to wake it, as a person would (that press does nothing else). The final object says "power": on, dim
or asleep.
A refused action (against the rules, or a line that is not an action) prints
{"refused": "<line>", "reason": "..."} and changes nothing. At the end one JSON object gives each player's
seat ("human", "CPU easy": a --cpu seat plays the easy level), card, bonuses and totals, the ranking and
"refused_lines" (how many lines were refused).
Exit status: 0 every line was played, 1 some line was refused, 2 a bad argument (a plain message on stderr).
"""
import json
import os
import sys

from fivedice import app as A
from fivedice import game as G
from fivedice import rules
from fivedice.rng import Dice, ScriptedFaces, SeededBytes
from host_sim.cli import ArgParser, quoted, rule_set, whole
from host_sim.device import SimDevice


TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tables")  # as fivedice score's
MAX_WAIT_MS = 1800000  # 30 minutes of simulated time (past the longest sleep timer, 10 min)


SEAT_NAMES = ("human", "CPU easy", "CPU good", "CPU perfect")  # by seat kind (fivedice.settings)
CPU_RAN_OUT = "the scripted --faces ran out during a CPU turn; the script stops here"


class ScriptError(Exception):
    pass


def parse_faces(text):
    try:
        faces = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ScriptError("--faces must be a comma-separated list of faces 1-6")
    if not faces:
        raise ScriptError("--faces is empty: give faces 1-6 like --faces 3,3,1,2,6, or leave it out for random dice")
    if any(not 1 <= f <= 6 for f in faces):
        raise ScriptError("--faces must be a comma-separated list of faces 1-6")
    return faces


class Player:
    """Performs script actions on a SimDevice by pressing its buttons."""

    def __init__(self, dev, faces=None):
        self.dev = dev
        self.app = dev.app
        self.faces = faces

    # -- set-up through the menu, as a person would ---------------------------------
    def _menu_to(self, item):
        app = self.app
        idx = bytes(app.menu.items[: app.menu.n]).index(item)
        while app.screen.cursor != idx:
            self.dev.tap(A.B_DOWN)

    def setup(self, rules_i, players, cpu_seats=()):
        app = self.app
        self._menu_to(3)  # I_PLAYERS
        while app.settings.players != players:
            self.dev.tap(A.B_OK)
        self._menu_to(2)  # I_RULES
        while app.settings.rules_i != rules_i:
            self.dev.tap(A.B_OK)
        for p in range(players):
            want = 1 if p + 1 in cpu_seats else 0  # a scripted CPU seat plays "easy"
            self._menu_to(4 + p)
            while app.settings.seats[p] != want:
                self.dev.tap(A.B_OK)
        self._menu_to(1)  # I_NEW
        self.dev.tap(A.B_OK)
        if app.menu.confirm:
            self.dev.tap(A.B_OK)  # a game in progress: "New game? OK again"
        self.dev.settle()

    # -- actions -------------------------------------------------------------------
    def _to_turn(self):
        while self.app.mode in (A.M_PICK, A.M_CARD, A.M_HELP):
            self.dev.tap(A.B_BACK)

    def _unheld(self):
        g = self.app.session.game
        held = g.held if g.rolls else 0
        return 5 - bin(held).count("1")

    def _faces_left(self):
        if self.faces is not None and self.app.session.game.check_roll() == G.OK and self.faces.remaining() < self._unheld():
            return "the scripted --faces ran out (%d left, %d dice to roll)" % (self.faces.remaining(), self._unheld())
        return None

    def do(self, line):
        """Perform one action; returns None or the refusal reason."""
        words = line.split()
        verb, args = words[0].lower(), words[1:]
        app = self.app
        if verb == "press":
            if len(args) != 1 or args[0].lower() not in A.BUTTON_NAMES:
                raise ScriptError("press takes one button: " + ", ".join(A.BUTTON_NAMES))
            r = self.dev.press(A.BUTTON_NAMES.index(args[0].lower()))
            return G.REASONS[r] if r else None
        if verb == "wait":
            if len(args) > 1:
                raise ScriptError("wait takes one number of milliseconds")
            try:
                ms = int(args[0]) if args else 500
            except ValueError:
                raise ScriptError("wait needs a whole number of milliseconds, e.g. wait 500")
            if not 0 <= ms <= MAX_WAIT_MS:
                raise ScriptError("wait takes 0 to %d ms" % MAX_WAIT_MS)
            self.dev.run(ms, skip=True)
            return None
        if app.asleep() or self.dev.board.display.state == "off":
            self.dev.tap(A.B_OK)  # wake it: that press does nothing else
        if app.session.game is None or app.mode == A.M_MENU and not app.session.in_game():
            return G.REASONS[G.GAME_OVER]
        self._to_turn()
        g = app.session.game
        if g.over:
            return G.REASONS[G.GAME_OVER]
        if verb == "roll" or verb == "shake":
            if args:
                raise ScriptError("%s takes no arguments" % verb)
            why = self._faces_left()
            if why:
                return why
            if verb == "roll":
                r = self.dev.tap(A.B_ROLL)
            else:
                app.last_refusal = 0
                self.dev.board.tilt.shake(700)
                self.dev.run(400)
                r = app.last_refusal
            self.dev.settle()
            return G.REASONS[r] if r else None
        if verb in ("hold", "release"):
            if not args:
                raise ScriptError("%s needs die numbers 1-5" % verb)
            try:
                dice = [int(a) for a in args]
            except ValueError:
                raise ScriptError("dice are numbered 1 to 5")
            if any(not 1 <= d <= 5 for d in dice):
                return G.REASONS[G.BAD_DIE]
            want = 1 if verb == "hold" else 0
            for d in dice:
                i = d - 1
                if (g.held >> i) & 1 == want and g.rolls and g.rolls < 3:
                    continue  # already so
                r = self.dev.tap(A.B_HOLD1 + i)
                if r:
                    # a hold is refused for the turn's state (not rolled, no rolls left), so the
                    # line's first press is the refused one and nothing has changed
                    return G.REASONS[r]
                if (g.held >> i) & 1 != want:
                    self.dev.tap(A.B_HOLD1 + i)
            self.dev.settle()
            return None
        if verb == "score":
            if len(args) != 1:
                raise ScriptError("score needs one box name")
            try:
                box = g.rs.box(args[0])
            except ValueError:
                return G.REASONS[G.BAD_BOX]
            r = self.dev.tap(A.B_OK)
            if r:
                return G.REASONS[r]
            if app.mode != A.M_PICK:
                return G.REASONS[G.SCORE_BEFORE_ROLL]
            picks = bytes(app.screen.boxes[: app.screen.n])
            if box not in picks:
                self.dev.tap(A.B_BACK)
                return G.REASONS[g.check_score(box)]
            target = picks.index(box)
            while app.screen.cursor != target:
                self.dev.tap(A.B_DOWN)
            r = self.dev.tap(A.B_OK)
            self.dev.settle()
            return G.REASONS[r] if r else None
        raise ScriptError("unknown action %r (roll, hold, release, score, shake, wait, press)" % verb)


def result(app):
    g = app.session.game
    rs = g.rs
    out = {"rules": rs.id, "over": g.over, "players": []}
    for p, c in enumerate(g.cards):
        card = {rs.names[i]: c.pts[i] for i in range(rs.n) if c.is_filled(i)}
        out["players"].append(
            {
                "player": p + 1,
                "seat": SEAT_NAMES[app.settings.seats[p]],
                "card": card,
                "upper": c.upper(),
                "upper_bonus": c.upper_bonus(),
                "lower": c.lower(),
                "bonus": c.bonus(),
                "total": c.total(),
            }
        )
    rank = bytearray(4)
    n = g.ranking(rank)
    out["ranking"] = [{"player": rank[i] + 1, "place": g.place(rank[i]), "total": g.cards[rank[i]].total()} for i in range(n)]
    return out


def _faces_ran_out(e, faces):
    """True when e is ScriptedFaces running dry inside the app (a CPU seat rolled past the list)."""
    return isinstance(e, RuntimeError) and faces is not None and faces.remaining() == 0


def main(argv, prog="fivedice play"):
    ap = ArgParser(prog=prog, description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="yahtzee", help="rule set id: " + ", ".join(rules.IDS))
    ap.add_argument("--players", type=whole, default=1)
    ap.add_argument("--cpu", default="", help="seats played by the CPU at level easy, e.g. 2,3 (the final JSON "
                    "names each player's seat)")
    ap.add_argument("--faces", help="faces consumed one per rolled die, in die order")
    ap.add_argument("--seed", type=whole, help="repeatable dice instead of os.urandom (ignored with --faces)")
    ap.add_argument("--script", required=True, help="file of actions, or - for stdin")
    ap.add_argument("--screenshots", help="write a PNG of the OLED and pixels after every action into DIR")
    ap.add_argument("--tables", metavar="DIR", help="the strategy tables (DIR/<rules>.fdt), as `fivedice score "
                    "--tables`: par on the dice screen and a hint on `press up` (default: the checkout's tables/, "
                    "`make tables`; a rule set without its table plays on without them)")
    a = ap.parse_args(argv)  # a malformed command line: one plain line and exit 2 (cli.ArgParser)
    try:
        rs = rule_set(a.rules)
        if not 1 <= a.players <= 4:
            raise ScriptError("--players must be 1 to 4")
        try:
            cpu = [int(x) for x in a.cpu.split(",") if x.strip()]
        except ValueError:
            raise ScriptError("--cpu must be seat numbers separated by commas, e.g. 2,3")
        if any(not 1 <= s <= a.players for s in cpu):
            raise ScriptError("--cpu seats must be between 1 and --players")
        faces = ScriptedFaces(parse_faces(a.faces)) if a.faces is not None else None  # --faces "" is an error
        if a.tables is not None and not os.path.isdir(a.tables):
            raise ScriptError("--tables %s is not a folder" % quoted(a.tables))
        if a.script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(a.script, encoding="utf-8") as f:
                lines = f.read().splitlines()
        shots = a.screenshots
        if shots:
            from host_sim.screenshot import screenshot

            os.makedirs(shots, exist_ok=True)
    except UnicodeDecodeError:
        print("play: the script is not UTF-8 text", file=sys.stderr)
        return 2
    except OSError as e:
        print("play: %s: %s" % (e.filename or "", e.strerror or e), file=sys.stderr)
        return 2
    except (ValueError, ScriptError) as e:
        print("play: %s" % e, file=sys.stderr)
        return 2
    source = faces if faces is not None else (Dice(SeededBytes(a.seed)) if a.seed is not None else Dice())
    dev = SimDevice(dice=source, cpu_step_ms=200, mute=False, tables=a.tables if a.tables is not None else TABLES)
    refused = 0
    try:
        pl = Player(dev, faces)
        n = 0
        try:
            pl.setup(rs.index, a.players, cpu)
        except RuntimeError as e:
            if not _faces_ran_out(e, faces):
                raise
            print(json.dumps({"refused": "(start)", "reason": CPU_RAN_OUT}))
            refused += 1
            lines = ()
        if shots:
            screenshot(os.path.join(shots, "%03d-start.png" % n), dev.board.display, dev.board.pixels)
        for raw in lines:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            n += 1
            stop = False
            try:
                why = pl.do(line)
                if line.split()[0].lower() not in ("press", "wait"):
                    dev.settle()  # (press and wait are timing: the next line comes at once)
            except ScriptError as e:
                why = str(e)
            except RuntimeError as e:
                if not _faces_ran_out(e, faces):
                    raise
                why, stop = CPU_RAN_OUT, True
            if why:
                print(json.dumps({"refused": line, "reason": why}))
                refused += 1
            if stop:
                break
            if shots:
                slug = "".join(ch if ch.isalnum() else "-" for ch in line)[:40]
                screenshot(os.path.join(shots, "%03d-%s.png" % (n, slug)), dev.board.display, dev.board.pixels)
        out = result(dev.app)
        out["refused_lines"] = refused
        out["power"] = dev.power_state
        print(json.dumps(out))
    finally:
        dev.close()
    return 1 if refused else 0
