"""Run a board entry point on the MicroPython unix port over the project's fake hardware and play a
whole two-player game: a human seat that asks for a hint after every roll, against the perfect CPU
(a strategy table in ./tables), the human's score going into the records with initials at the end. The
heap proxy of issue #7.

    micropython -X heapsize=N game_drive.py cp|mp [GAMES]
cp runs firmware/code.py (CircuitPython) over tests/firmware/fakes/cp, mp runs firmware/main.py
(MicroPython) over tests/firmware/fakes/mp. Run from a folder laid out like the board's flash
(code.py or main.py, board_config.py, lib/..., tables/), with MICROPYPATH listing that folder's lib,
the folder, the runtime's fakes and tests/firmware/fakes (tests/bench/board_heap.py builds it).
Prints one JSON line:
status "done" when the game reached its end, or "MemoryError" / "reset" (a MemoryError the board answers
with a reset) with the pass it failed at, or "unfinished" (out of passes, or nothing pressed for 5,000 passes), the
live heap (gc.mem_alloc() after a collection) at each turn's start.
After a reset the run ends with the drive's state in drive.json; every run leaves CircuitPython's nvm in nvm.img
(the folder is the board's flash); started again in the same folder after a reset, the driver boots from them
and plays on (tests/bench/board_heap.py run(boots=N)).
"""
import gc
import json
import sys

import drive  # tests/firmware/fakes/drive.py: steps the entry point's loop (the driver's own, as this file is)

_BOOT = None  # the drive's state at the last reset, if this run is the board's next boot
try:
    with open("drive.json") as _f:
        _BOOT = json.load(_f)
except OSError:
    pass
# What the fakes themselves hold: on a board these modules are C (or, for adafruit_pixelbuf, built into
# CircuitPython on an RP2040), so their bytes are reported apart from the game's. So are the objects that
# stand for hardware and cost a board no heap: the OLED's own display RAM (a chip on the bus) and the pin
# objects (CircuitPython's board.GPn are constants in flash; the fake makes each on first use).
gc.collect()
_before_fakes = gc.mem_alloc()  # the interpreter's own (and this driver's), before any fake
_CP = not (len(sys.argv) > 1 and sys.argv[1] == "mp")
_C_STANDINS = {"cp": ("fakehw", "microcontroller", "board", "busio", "digitalio", "pwmio", "neopixel_write", "rotaryio",
                      "keypad", "supervisor", "adafruit_pixelbuf", "displayio", "bitmaptools", "analogio",
                      "watchdog", "faketime"),
               "mp": ("fakehw", "machine", "neopixel", "faketime")}
for _m in _C_STANDINS["cp" if _CP else "mp"]:
    try:
        __import__(_m)
    except ImportError:
        pass
import fakehw  # noqa: E402

fakehw.reset()
if _BOOT is not None and _BOOT.get("last_reset") == "watchdog":
    fakehw.last_reset[0] = "watchdog"  # this boot follows a watchdog reset
try:  # FIVEDICE_DRIVE_BOARD=macropad: the MacroPad (its SH1106 on SPI, its keys), else the Pico
    import os  # noqa: E402

    _MACROPAD = _CP and os.getenv("FIVEDICE_DRIVE_BOARD") == "macropad"
except ImportError:
    _MACROPAD = False
if _MACROPAD:
    oled = fakehw.macropad_boot()
    oled.commands = None  # its command log is the fake's, not the board's: not kept
else:
    oled = fakehw.FakeSSD1306()
    fakehw.devices[0x3C] = oled
if _CP:
    import board  # noqa: E402

    for _g in range(30):
        getattr(board, "GP%d" % _g) if not _MACROPAD else None
    for _g in ("KEY%d" % k for k in range(1, 13)) if _MACROPAD else ():
        getattr(board, _g)
    for _g in ("ENCODER_SWITCH", "ENCODER_A", "ENCODER_B", "NEOPIXEL", "SPEAKER", "SPEAKER_ENABLE", "SCK", "MOSI",
               "OLED_CS", "OLED_DC", "OLED_RESET") if _MACROPAD else ():
        getattr(board, _g)
    del _g
if _BOOT is not None and _CP:  # the nvm as the last boot left it
    import microcontroller  # noqa: E402

    with open("nvm.img", "rb") as _f:
        _f.readinto(microcontroller.nvm.data)
gc.collect()
FAKE_BYTES = gc.mem_alloc() - _before_fakes

# Pico profile GPIOs (hardware/boards/pico.py); the MacroPad's keys (hardware/boards/macropad.py)
ROLL, UP, OK, BACK = (6, 7, 9, 10) if _MACROPAD else (11, 12, 14, 16)
DOWN = 8 if _MACROPAD else 13

GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 1  # games in a row (ROLL after game over, New game)
OOM = False  # FIVEDICE_DRIVE_OOM=1: the first boot runs out of memory at the human's 3rd turn (a test of the reset)
MODULES = None  # FIVEDICE_DRIVE_MODULES=path: the modules loaded at the peak, written there (tests/bench/code_heap.py)
NO_TABLE = False  # FIVEDICE_DRIVE_NO_TABLE=1: a board without strategy tables: the human plays without hints
CPU = 3  # the CPU seat's level, FIVEDICE_DRIVE_CPU=easy|good|perfect: perfect (needs the table), else good
CUT = 0  # FIVEDICE_DRIVE_CUT=N: the first boot loses power after the human's roll on turn N (the next boot resumes)
SEED = None  # FIVEDICE_DRIVE_SEED=N: the dice from rng.SeededBytes (N, and the boot), not os.urandom: repeatable
# FIVEDICE_DRIVE_BALLAST=N: a bytearray of N bytes taken before the board's code loads and kept (every boot), as
# the emulated Pico's --ballast puts one first in code.py / main.py: how much room the game leaves
BALLAST = 0
# FIVEDICE_DRIVE_FILL=once|resumed: the heap is filled (ballast until it is full, then 8 single blocks given back,
# apart: room for a traceback's first frame, not for anything bigger) just before the app makes an allocation of
# its own, so that the game runs out of memory for real, inside its own code. once: on the first boot, as the
# player presses OK on "Help" mid-game (turn 5): the help screen's import fails. resumed: that, and on the next
# boot, as the app reads its save to resume it (Session._load: the store's read and the restore): two failures in a
# row with no save between them, so the save is set aside.
# When the guard takes the failure, the drive lets go of the ballast and of the app first (on a board what the
# failed app held is garbage then), and notes where it failed ("failures").
FILL = None
try:
    import os  # noqa: E402

    OOM = os.getenv("FIVEDICE_DRIVE_OOM") == "1"
    MODULES = os.getenv("FIVEDICE_DRIVE_MODULES")
    FILL = os.getenv("FIVEDICE_DRIVE_FILL")
    NO_TABLE = os.getenv("FIVEDICE_DRIVE_NO_TABLE") == "1"
    CPU = {"easy": 1, "good": 2, "perfect": 3}.get(os.getenv("FIVEDICE_DRIVE_CPU") or "", 2 if NO_TABLE else 3)
    CUT = int(os.getenv("FIVEDICE_DRIVE_CUT") or "0")
    SEED = os.getenv("FIVEDICE_DRIVE_SEED")
    BALLAST = int(os.getenv("FIVEDICE_DRIVE_BALLAST") or "0")
    if os.getenv("FIVEDICE_DRIVE_SIZES") == "1":  # only the interpreter's and the fakes' bytes (board_estimate.py)
        print(json.dumps({"status": "sizes", "base": _before_fakes, "fake_bytes": FAKE_BYTES}))
        sys.exit(0)
except (ImportError, AttributeError):
    pass
# Mid-game, at the human's 5th turn, the player looks at the records and the help (menu lines 11 and 9,
# fivedice.screens.menu I_RECORDS / I_HELP): those screens load while a game is in progress.
VISITS = (11, 9)
# A boot that taps nothing for 5,000 passes goes nowhere: it ends, "unfinished" (a whole game's longest wait between
# two taps, a CPU turn, is under 300 passes). (Numbers, not names: a new global would move the heap measured.)
state = {"visits": list(VISITS), "games": 0, "app": None, "tap": None, "release_at": 0, "turns": 0, "hints": 0, "over": False, "peak": 0,
         "live": [], "free_min": 1 << 30, "resets": 0, "watchdogs": 0, "resumed": 0}
if FILL:  # every key the drive sets while the heap is full exists already (a new key could grow the dict); only
    # in these runs, so that the other runs' heap is not moved
    state.update({"fills": 0, "ballast": None, "during": "", "failures": [], "told": 0, "save_resumed": None})
_KEPT = ("visits", "skipped", "games", "turns", "hints", "peak", "live", "free_min", "resets", "watchdogs", "resumed", "coached",
         "resident", "last_reset", "fills", "failures", "told", "save_resumed")  # kept across boots
if _BOOT is not None:
    for _k in _KEPT:
        if _k in _BOOT:
            state[_k] = _BOOT[_k]
    _BOOT = None


def _watch_app():
    import fivedice.app as appmod
    from fivedice import messages as _msg

    Base = appmod.App

    class Watched(Base):
        def __init__(self, *a, **k):
            Base.__init__(self, *a, **k)
            # seat 2: the CPU (a seat kind, fivedice.settings: 1 easy, 2 good, 3 perfect), seat 1 human
            (self.settings.seats if hasattr(self, "settings") else self.kinds)[1] = CPU  # (kinds: the calibration's app)
            s = getattr(self, "session", self)  # the game in progress (the calibration's app holds it itself)
            if hasattr(self, "seats"):  # as the menu does once the seat line is left
                self.seats.need_levels(self.settings.seats, self.settings.players, s.game)
            elif hasattr(self, "need_levels"):  # the app of the calibration (docs/memory.md)
                self.need_levels(self.settings.seats, self.settings.players)
            self.came_back = s.game is not None
            if s.game is not None:
                state["resumed"] += 1  # this app started in a saved game (a boot after a reset)
                state["booted"] = True
            state["app"] = self

        if FILL:
            def message(self, code):
                if code == _msg.T_SAVE_CRASHED:
                    state["told"] += 1
                Base.message(self, code)

        def press(self, b, now_ms):
            g = getattr(self, "session", self).game
            if OOM and not state["resets"] and state["turns"] == 3 and g is not None and g.rolls == 1:
                raise MemoryError("injected by game_drive (FIVEDICE_DRIVE_OOM)")
            if FILL and not state["fills"] and b == appmod.B_OK and self.mode == 0 and g is not None \
                    and self.screen.items[self.screen.cursor] == 9:  # I_HELP
                state["fills"] = 1
                state["during"] = "help"
                state["ballast"] = _fill()  # the help screen's import runs out
                got = Base.press(self, b, now_ms)
                state["during"] = ""
                return got
            return Base.press(self, b, now_ms)

        def _lights_off(self):
            s = getattr(self, "session", self)
            g = s.game
            state["dark"] = [self.mode, g.rolls if g else None, g.player if g else None, s.hint_kind, self.toast,
                             fakehw.clock[0], state["tap"], state["release_at"]]
            Base._lights_off(self)

    appmod.App = Watched
    if FILL and hasattr(appmod, "Session"):  # the boot that resumes reads the save (Session._load)
        BaseSession = appmod.Session

        class WatchedSession(BaseSession):
            def _load(self):
                if FILL == "resumed" and state["fills"] == 1 and state["resets"] == 1:  # the boot after the first
                    import binascii

                    data = self.store.read() if self.store is not None else None  # what this boot resumes
                    state["save_resumed"] = binascii.hexlify(data).decode() if data is not None else ""
                    state["fills"] = 2
                    state["during"] = "resume"
                    state["ballast"] = _fill()  # the store's read and the restore run out
                BaseSession._load(self)
                state["during"] = ""

        appmod.Session = WatchedSession


def _fill(spare=8):
    """Ballast until the heap is full, then `spare` single blocks given back, apart from each other: the app's next
    allocation of more than one block fails, and the error's traceback still gets its innermost frame."""
    gc.collect()
    spares = [None] * spare
    node = None  # a chain of tuples: nothing grows (a list's item array would need ever bigger blocks)
    for n in (4000, 1000, 200, 40, 8):
        try:
            while True:
                node = (node, bytearray(n))
        except MemoryError:
            pass
    k = 0
    try:
        while True:
            node = (node,)  # one block each, so a spare taken between two of them has full blocks on both sides
            if k < spare:
                spares[k] = (None,)
                k += 1
    except MemoryError:
        pass
    spares = None
    return node


def _write_modules():
    """The loaded modules, to MODULES: the C stand-ins on the first line, the game's (the board's Python:
    lib/, the firmware, the installed libraries) on the second. Written, not kept, so the peak is not moved."""
    standins = _C_STANDINS["cp" if _CP else "mp"]
    with open(MODULES, "w") as f:
        for line in (True, False):  # the stand-ins' line, then the game's
            for k in sys.modules:
                # not the entry point, nor this driver (run with -m, so in sys.modules too)
                if (k in standins or k.startswith("fake")) == line and k not in ("code", "main", "game_drive"):
                    f.write(k)
                    f.write(" ")
            f.write("\n")


def _heap_line(label):
    """The heap now, for tests/bench/board_estimate.py: micropython.mem_info() (its "max free sz" is the largest
    free block, in blocks), then `HEAP label live free`. Printed, not kept: nothing the game holds moves."""
    import micropython

    live = gc.mem_alloc()
    free = gc.mem_free()
    micropython.mem_info()
    print("HEAP", label, live, free)


def _sample(label="turn"):
    app = state["app"]
    if app is not None and app.session.game is not None and not app.session.game.over and app.seats.coach is not None:
        state["coached"] = True  # the table's coach (hints, perfect CPU) was there during play
    _forget()
    gc.collect()
    live = gc.mem_alloc()
    if not state["live"]:  # the menu, start-up done: which firmware and board modules are still loaded
        state["resident"] = [k for k in sys.modules if k.startswith("fdfw") or k.startswith("board")]
    state["live"].append(live)
    if live > state["peak"]:
        state["peak"] = live
        if MODULES:
            _write_modules()
    f = gc.mem_free()
    if f < state["free_min"]:
        state["free_min"] = f
    _heap_line(label)


def _tap(gpio, i):
    fakehw.press(gpio)
    state["tap"] = gpio
    state["release_at"] = i + 6  # 30 ms down


def _forget():
    # The fakes record every tone, pixel write and display command for tests: on a board that memory
    # does not exist, so the heap proxy drops the records as it goes.
    del fakehw.pwm_log[:]
    del fakehw.pixel_writes[:]
    if oled.commands is not None:
        del oled.commands[:]


def on_iter(i, now):
    fakehw.advance(5)
    _forget()  # (8 passes of a panel's command bytes, one list on the heap, outgrew a tight heap)
    if state["tap"] is not None:
        if i >= state["release_at"]:
            fakehw.release(state["tap"])
            state["tap"] = None
            state["release_at"] = i + 6  # 30 ms up before the next tap
        return False
    if i < state["release_at"]:
        return False
    if i - state["release_at"] > 5000:  # nothing pressed for 5,000 passes: this boot goes nowhere
        return True
    app = state["app"]
    if app is None:
        return False
    if state.get("booted") and i > 20:  # a boot that resumed the save, its app built: the heap it left
        state["booted"] = False
        _sample("resume")
        return False
    g = app.session.game
    if g is None:
        if i > 20:
            _sample("menu")
            _tap(OK, i)  # menu: "New game"
        return False
    if g.over:
        if app.mode == 0:  # back in the menu after a game: New game
            _sample("menu again")
            _tap(OK, i)
            return False
        if app.mode == 8:  # "New high score!": OK three times takes the initials AAA
            _sample("initials")
            _tap(OK, i)
            return False
        state["games"] += 1
        _sample("game over")
        if state["games"] >= GAMES:
            state["over"] = True
            return True
        _tap(ROLL, i)  # game over screen -> menu
        return False
    if app.busy():
        return False
    mode = app.mode
    if mode == 1:  # turn (a human's: busy() covers the CPU's)
        if g.rolls == 0 and state["turns"] == 5 and state["visits"]:
            _tap(BACK, i)  # to the menu, for the visits
        elif g.rolls == 0:
            # the human's turn by its card (a boot that resumes a turn does not count it twice)
            state["turns"] = state["games"] * g.rs.n + bin(g.cards[0].filled).count("1") + 1
            _sample("new game" if state["turns"] == state["games"] * g.rs.n + 1 else "turn")
            _tap(ROLL, i)
        elif CUT and g.rolls == 1 and state["turns"] == CUT and not state["resets"]:
            raise fakehw.BoardReset()  # the power goes: the save holds this roll; the next boot resumes it
        elif app.session.hint_kind == 0 and not NO_TABLE:
            state["hints"] += 1
            _tap(UP, i)
        elif g.rolls < 3 and (app.session.hint_kind == 1 or NO_TABLE):  # the hint says roll (or there is none): roll
            _tap(ROLL, i)
        else:
            _tap(OK, i)  # to the picker
    elif mode == 2:  # picker: score the first (best) box
        _tap(OK, i)
    elif mode == 3:  # scorecard: back to the game
        _tap(OK, i)
    elif mode == 0 and state["visits"]:  # menu mid-game: the cursor down to the next visit, OK
        menu = app.screen
        if state["visits"][0] not in list(menu.items[:menu.n]):  # not on this install (fivedice.features)
            state["visits"].pop(0)
            state["skipped"] = state.get("skipped", 0) + 1
            return False
        _tap(OK if menu.items[app.screen.cursor] == state["visits"][0] else DOWN, i)
    elif mode == 0:  # menu with a game in progress: back to it
        _tap(BACK, i)
    elif mode == 7 or mode == 5:  # the records or the help, opened mid-game
        _sample("records" if mode == 7 else "help")
        state["visits"].pop(0)
        _tap(BACK, i)
    return False


_ballast = bytearray(BALLAST) if BALLAST else None  # before any of the board's code, kept to the end
_watch_app()
if FILL:  # defined only here, so that the other runs' heap is not moved
    def _watch_guard():
        """When the guard takes a failure: let go of the ballast and the app first, then note where it failed
        ([exception, file:line, function of the innermost frame, what the heap was filled for or ""])."""
        from fdfw import recover

        failed = recover.Guard.failed

        def _failed(self, e, *more):
            state["ballast"] = None
            state["app"] = None
            gc.collect()
            name, loc = recover.where(e)
            func = ""
            for line in recover.trace(e).split("\n"):  # the innermost frame's function
                k = line.find(", in ")
                if line.strip().startswith("File ") and k > 0:
                    func = line[k + 5:].strip()
            state["failures"].append([name, loc, func, state["during"]])  # during: what the drive filled the heap for
            return failed(self, e, *more)

        recover.Guard.failed = _failed

    _watch_guard()
if SEED:  # repeatable dice: the board's os.urandom replaced by a seeded source (another seed each boot)
    import fivedice.rng as _rng  # noqa: E402

    _seed = int(SEED) * 1000 + state["resets"]
    _rng._default_urandom = lambda: _rng.SeededBytes(_seed)
import faketime  # noqa: E402

if len(sys.argv) > 1 and sys.argv[1] == "mp":
    import fdfw.setup_mp as _setup  # noqa: E402
else:
    import fdfw.setup_cp as _setup  # noqa: E402
_setup.time = faketime  # the board's idle sleeps move the fake clock (fakehw.sleep_ms), not the wall clock
del _setup  # start-up may drop the setup module: this driver must not keep it alive
status = "done"
try:
    drive.run(drive.entry("mp" if len(sys.argv) > 1 and sys.argv[1] == "mp" else "cp"), 200000 * GAMES, on_iter,
              "fivedice.sav", "no-tables" if NO_TABLE else "tables")
    if not state["over"]:
        status = "unfinished"
except MemoryError:
    status = "MemoryError"  # not even the guard's report fitted
    if fakehw.watchdog:  # started, and nothing feeds it now: the board resets (a strike against the save at boot)
        status = "watchdog"
except fakehw.BoardReset:  # a MemoryError the guard answered with a reset: this boot ends, the next goes on
    status = "reset"
if status in ("reset", "watchdog"):
    state["resets"] += 1
    if status == "watchdog":
        state["watchdogs"] += 1
    state["app"] = None
    state["last_reset"] = status
    gc.collect()
    with open("drive.json", "w") as _f:
        json.dump(dict((k, state[k]) for k in _KEPT if k in state), _f)
if _CP:  # the board's flash as this boot left it: the next boot's, and the tests'
    import microcontroller  # noqa: E402

    with open("nvm.img", "wb") as _f:
        _f.write(microcontroller.nvm.data)
out = {"status": status, "visited": len(VISITS) - len(state["visits"]) - state.get("skipped", 0), "fake_bytes": FAKE_BYTES, "base": _before_fakes,
       "games": state["games"],
       "turns": state["turns"], "hints": state["hints"], "peak_live": state["peak"], "free_min": state["free_min"],
       "live": state["live"], "resident": state.get("resident"), "resets": state["resets"],
       "watchdogs": state["watchdogs"], "resumed": state["resumed"], "fills": state.get("fills", 0),
       "failures": state.get("failures", []), "told": state.get("told", 0), "save_resumed": state.get("save_resumed"),
       "ballast": len(_ballast) if _ballast is not None else 0}
app = state["app"]
if app is not None and status != "done":
    out["dark"] = state.get("dark")
    out["stuck"] = {"mode": app.mode, "asleep": app.asleep(), "power": app.pw.state, "clock": fakehw.clock[0],
                    "busy": app.busy(), "rolls": app.session.game.rolls if app.session.game is not None else None}
if app is not None and app.session.game is not None:
    out["totals"] = [app.session.game.cards[p].total() for p in range(app.session.game.players)]
    out["has_coach"] = state.get("coached", False)
# the play is over: the report's own JSON must not be what runs out of the heap (at a big ballast it did)
_ballast = app = None
state["app"] = None
gc.collect()
print(json.dumps(out))
sys.exit(0 if status == "done" else 1)
