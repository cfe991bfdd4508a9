"""A board that recovers: the main loop under a guard, a watchdog, a bounded error log, and strikes.
"""
# - An exception nobody expected (a bug, a bad table read that slipped through, MemoryError) does
# not
#   freeze the handheld: the guard shows a short error screen (the exception's name, file and line),
#   appends
#   the traceback to a log file of bounded size (`<save>.log`, where the board can write files),
#   keeps the
#   save and starts the app again, which resumes the saved game. After a MemoryError the board
#   resets
#   instead (fdfw.loop, hw.reset): the heap left behind is fragmented, a reset gives a clean one,
#   and the
#   app that starts resumes the save the same way (or, after a second strike, sets it aside first).
# - A watchdog (machine.WDT on MicroPython, microcontroller.watchdog on CircuitPython) resets a loop
# that
#   hangs; the loop feeds it every pass.
# - Strikes: each failure (an exception, or a boot after a watchdog reset) is one strike against the
# saved
#   game, kept in the store (`strike()`, `strikes()`; a successful save clears them: the game moved
#   on). When
#   the same save has failed twice in a row, it is set aside (kept, as an unreadable save is) and
#   the app
#   starts clean, saying so: at once, or when the board resets after the failure, at the boot that
#   follows
#   (the strikes stay in the store until then).
import sys

# the RP2040's watchdog tops out at about 8.3 s; a save with an nvm erase takes 0.4 s at worst
WATCHDOG_MS = 8000
STRIKES_TO_SET_ASIDE = 2
LOG_MAX = 4096  # bytes kept in the log file; older entries are dropped
ERROR_SHOW_MS = 2500


def where(e):
    """(exception name, "file:line function" of the innermost frame or "") from the exception's
    traceback text. The function names the place where the deploy's .mpy carry no line numbers
    (there every line is 1)."""
    text = trace(e)
    loc = ""
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith('File "'):
            q = line.find('"', 6)
            name = line[6:q].split("/")[-1]
            k = line.find("line ", q)
            num = ""
            if k >= 0:
                for ch in line[k + 5:]:
                    if not ch.isdigit():
                        break
                    num += ch
            k = line.find(", in ", q)
            loc = name + ":" + num + (" " + line[k + 5:] if k >= 0 else "")
    return type(e).__name__, loc


def trace(e):
    """The traceback of e as text, on either runtime."""
    import io

    buf = io.StringIO()
    pe = getattr(sys, "print_exception", None)  # MicroPython, CircuitPython
    if pe is not None:
        pe(e, buf)
    else:  # CPython (the tests)
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__, file=buf)
    return buf.getvalue()


def log(path, text, limit=LOG_MAX):
    """Append text to the log at path, keeping at most `limit` bytes (the newest). False if it
    cannot write."""
    if path is None:
        return False
    data = text.encode()
    try:
        try:
            with open(path, "rb") as f:
                old = f.read()
        except OSError:
            old = b""
        keep = old + data
        if len(keep) > limit:
            keep = keep[len(keep) - limit:]
            nl = keep.find(b"\n")
            if 0 <= nl < len(keep) - 1:
                keep = keep[nl + 1:]  # start at a line
        with open(path, "wb") as f:
            f.write(keep)
        return True
    except OSError:
        return False


def show_error(display, name, loc):
    """A short error screen with the fivedice font (no framebuf text, so every backend draws it)."""
    if display is None:
        return
    from fivedice import gfx

    try:
        display.fill(0)
        display.fill_rect(0, 0, 128, 8, 1)
        gfx.text(display, b"fivedice error", 1, 0, 0)
        gfx.text(display, name.encode()[:21], 0, 16, 1)
        gfx.text(display, loc.encode()[:21], 0, 26, 1)
        gfx.text(display, b"Game kept.", 0, 42, 1)
        gfx.text(display, b"Restarting...", 0, 52, 1)
        display.show()
    except Exception:  # a broken display (or no memory for it) must not stop the recovery
        pass


class Guard:
    """Runs the app under the guard. hw: the built board (display, store, sleep_ms, watchdog,
    log_path)."""

    def __init__(self, hw, say):
        self.hw = hw
        self.say = say
        self.failures = 0
        self.last = None  # (name, loc) of the last failure, for tests and the console

    def boot_strikes(self, after_watchdog):
        """At start-up: a watchdog reset is a strike against the save; two strikes set it aside.
        Returns True if the save was set aside (the app then starts clean and says so)."""
        store = self.hw.store
        if store is None or not hasattr(store, "strikes"):
            return False
        if after_watchdog:
            self.say("the last run hung and the watchdog reset the board")
            log(self.hw.log_path, "watchdog reset\n")
            store.strike()
        return self._maybe_set_aside()

    def _maybe_set_aside(self):
        store = self.hw.store
        if store.strikes() < STRIKES_TO_SET_ASIDE:
            return False
        self.say(
            "the saved game made fivedice fail %d times in a row: it is set aside (kept) and a new "
            "start follows" % store.strikes()
        )
        store.set_aside()
        store.clear_strikes()
        return True

    def failed(self, e, resets=False):
        """One failure of the running app: report it, count a strike. True if the save was set
        aside. resets: the board resets next (after a MemoryError); a second strike then leaves the
        set-aside to the boot that follows (boot_strikes), on a clean heap, and that boot's app
        starts clean and says so."""
        import gc

        gc.collect()  # the failed app is unreferenced now: its memory comes back first
        self.failures += 1
        name, loc = type(e).__name__, ""
        try:
            name, loc = where(e)
            text = trace(e)
            self.say(
                "error "
                + name
                + (" at " + loc if loc else "")
                + "; the game is kept and fivedice restarts"
            )
            print(text)
            log(self.hw.log_path, "error %d: %s" % (self.failures, text))
        except MemoryError:
            # not even the report fits (a heap full at start-up, before the watchdog runs): the
            # strike and the reset below must still come, or the board would stop here
            print("fivedice: error MemoryError (no room to report it); fivedice restarts")
        self.last = (name, loc)
        show_error(self.hw.display, name, loc)
        wd = self.hw.watchdog
        sleep = self.hw.sleep_ms
        if sleep is not None:
            for _ in range(ERROR_SHOW_MS // 250):
                if wd is not None:
                    wd.feed()
                sleep(250)
        store = self.hw.store
        if store is None or not hasattr(store, "strike"):
            return False
        store.strike()
        if resets:
            return False
        return self._maybe_set_aside()
