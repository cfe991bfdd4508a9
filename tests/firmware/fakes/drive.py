"""A test's driver for a board entry point: firmware/code.py or main.py runs as on the board (fdfw.loop.main), and
the driver steps its main loop (fdfw.loop.Loop) itself. Runs on CPython and on the MicroPython unix port.

    status = drive.run(start, passes, on_pass, save_path, tables_dir)
start() runs the entry point: runpy's run_path(..., run_name="__main__") on CPython, entry(runtime) on the port
(imports firmware/code.py or main.py, then calls its main as its last line does: the import's compile is done
and garbage before the game starts, as the proxy has always measured it, docs/memory.md); on_pass(i, now) is
called after each pass of the loop (i counts from 1 for each app the guard starts; now: the time the pass read)
and a true return stops it, as do `passes` passes (0: no limit). The status is main's: "stopped" when the drive
stopped the loop, else the word main returned ("bad-profile", "no-display", ...), or "failed" once the guard has
taken `restarts` failures (a board goes on restarting). save_path and tables_dir stand for the board's
/fivedice.sav and /tables.
The driver's own objects are made when this module is imported, not in run(): the heap proxy
(tests/firmware/fakes/game_drive.py) imports it before it measures its own bytes, so they are not the game's.
"""


class Stop(BaseException):
    """The drive is over. Not an Exception: the firmware's guard (except Exception) lets it through."""


_STOP = Stop()
_real = [None, None, None, None]  # fdfw.loop's main and _panel_on, Loop.run, Guard.failed, while a drive runs
_drive = [0, None, 5, None, 0]  # passes, on_pass, restarts, main's status word, the guard's failures so far


def entry(runtime):
    """start() for the unix port: import the board's entry point (code.py for "cp", main.py for "mp"), run its main."""
    return lambda: __import__("code" if runtime == "cp" else "main").main(runtime)


def _run(self):  # Loop.run, a pass at a time
    self.m[0].draw()
    passes = _drive[0]
    on_pass = _drive[1]
    i = 0
    while True:
        now = self.step()
        i += 1
        if on_pass is not None and on_pass(i, now):
            raise _STOP
        if passes and i >= passes:
            raise _STOP


def _failed(guard, e, reset):
    got = _real[3](guard, e, reset)
    _drive[4] = guard.failures
    return got


def _panel_on(display):  # where main starts the app again after a failure
    if _drive[2] and _drive[4] >= _drive[2]:
        _drive[3] = "failed"
        raise _STOP
    _real[1](display)


def _main(runtime):
    try:
        _drive[3] = _real[0](runtime)
    except Stop:
        if _drive[3] is None:
            _drive[3] = "stopped"
    return _drive[3]


def run(start, passes=0, on_pass=None, save_path=None, tables_dir=None, restarts=5):
    import fdfw.loop as loop
    from fdfw import recover

    paths = loop.SAVE_PATH, loop.TABLES_DIR
    if save_path is not None:
        loop.SAVE_PATH = save_path
    if tables_dir is not None:
        loop.TABLES_DIR = tables_dir
    _drive[0] = passes
    _drive[1] = on_pass
    _drive[2] = restarts
    _drive[3] = None
    _drive[4] = 0
    _real[0] = loop.main
    _real[1] = loop._panel_on
    _real[2] = loop.Loop.run
    _real[3] = recover.Guard.failed
    loop.main = _main
    loop._panel_on = _panel_on
    loop.Loop.run = _run
    recover.Guard.failed = _failed
    try:
        start()
    finally:
        loop.SAVE_PATH, loop.TABLES_DIR = paths
        loop.main = _real[0]
        loop._panel_on = _real[1]
        loop.Loop.run = _real[2]
        recover.Guard.failed = _real[3]
        _drive[1] = None
    return _drive[3]
