"""Start-up shared by code.py (CircuitPython) and main.py (MicroPython)."""
# Order: board profile -> hardware -> fivedice.app -> main loop. The start-up half (fdfw.startup) is dropped
# once the board is built; this module keeps the loop under its guard. Every failure a builder can cause
# (unknown profile, missing display or library, wrong pin names) prints one plain line, shows red on
# the pixels and beeps when those exist, and returns a status word; nothing is written to the save.
# Errors nobody expected are re-raised with their traceback.
SAVE_PATH = "/fivedice.sav"  # MicroPython: slots <path>.0 and .1; CircuitPython saves to nvm, this is the old file
TABLES_DIR = "/tables"  # <rule set id>.fdt from `make tables`, copied by the deploy when present


_TEST_RESTARTS = 5  # a test run (on_iter given) gives up after this many failures


def say(msg):
    print("fivedice: " + msg)


def _forget_startup():
    """Drop what only start-up needed and collect, before the app is built."""
    # On CircuitPython every KB of heap counts (see README, Memory). fdfw.startup, the profile checker, the setup module, fdfw.hw (a built
    # board's Hardware has no functions, so it does not keep it), fdfw.i2cmem (the bus scan; an LIS3DH on
    # CircuitPython keeps its own reference), the board profile, boards and board_config. None of them may
    # leave a function, closure or class behind in what the game keeps, or that module stays in the heap
    # (tests/test_startup_unload.py checks it).
    import gc
    import sys

    from fivedice.compat import unload

    for name in ("startup", "profile", "setup_cp", "setup_mp", "hw", "i2cmem"):
        unload("fdfw", name)
    for name in list(sys.modules):
        if name == "board_config" or name == "boards" or name.startswith("boards."):
            del sys.modules[name]
    gc.collect()


def _panel_on(display):
    """A new App's power state starts ON at full contrast: make the panel agree. After a restart by the guard the
    panel may still be off (the failure came while the screen was dark) or dimmed, and nothing else turns it on."""
    if display is not None and hasattr(display, "poweron"):
        from fivedice.power import FULL_CONTRAST

        try:
            display.poweron()
            display.contrast(FULL_CONTRAST)
        except Exception:  # a broken display must not stop the restart (the app draws without it)
            pass


def main(runtime, max_iters=0, on_iter=None, save_path=SAVE_PATH, tables_dir=TABLES_DIR):
    """runtime is "cp" or "mp". Returns a status word: "stopped" after max_iters / on_iter,
    else the reason it could not start ("bad-profile", "no-display", "no-app", ...)."""
    from fdfw import startup  # a local, so the module can be dropped once the board is built

    got = startup.build(runtime, save_path, say)
    startup = None
    if isinstance(got, str):
        return got
    hw, appmod, buttons, name = got
    got = None
    _forget_startup()
    from fivedice.rng import RandomSourceError
    from fdfw.recover import WATCHDOG_MS, Guard
    from fdfw.loop import run

    guard = Guard(hw, say)
    set_aside = guard.boot_strikes(hw.after_watchdog)  # before the app reads the save
    first = True
    while True:
        try:
            try:
                app = appmod.App(
                    hw.display, pixels=hw.pixels, buzzer=hw.buzzer, store=hw.store, accel=hw.accel,
                    tables=tables_dir, battery=hw.battery
                )
            except RandomSourceError as e:  # no os.urandom, or it keeps failing: the dice cannot be fair
                say(str(e) + "; the saved game is untouched")
                from fdfw.hw import signal_failure

                signal_failure(hw)
                return "no-random"
            if set_aside:
                app.message(appmod.view.T_SAVE_CRASHED)  # "Save crashed: kept"
            elif first and getattr(hw.store, "lost", False):
                app.message(appmod.view.T_SAVE_OLDER)  # a bad record cost saves: said once, at the boot that met it
            if first:
                say("running on " + name + ("" if app.seats.tables_mask else
                                            " (no strategy tables: no hints, CPU up to good)"))
                first = False
            if hw.watchdog is None and hw.start_watchdog is not None:
                hw.start_watchdog(WATCHDOG_MS)  # from here on a hung pass resets the board
            feed = hw.watchdog.feed if hw.watchdog is not None else None
            idle = sleep = None
            if hw.sleep_ms is not None:  # sleep between passes until the next deadline or a press (fdfw.power)
                from fdfw.power import Idle

                idle = Idle(hw.sleep_ms, buttons, hw.shake, feed).idle
                if hw.make_sleep is not None:
                    sleep = hw.make_sleep(buttons, feed)
            run(app, buttons, hw.shake, hw.ticks_ms, max_iters, on_iter, idle, feed, sleep)
            return "stopped"
        except Exception as e:  # anything unexpected, MemoryError too: report, keep the save, start again
            app = None
            reset = isinstance(e, MemoryError) and hw.reset is not None
            set_aside = guard.failed(e, reset)
            if reset:
                # The heap is too fragmented: an app started again here needs KB-sized blocks it may not find
                # (the board would fail over and over). A reset starts from a clean heap and resumes the save;
                # after its second strike the next boot sets it aside first (boot_strikes), starts clean and
                # says so, once.
                hw.reset()
            if on_iter is not None and guard.failures >= _TEST_RESTARTS:
                return "failed"  # test runs stop; a board goes on restarting
            _panel_on(hw.display)  # the app starts again: the panel may have been left off or dimmed
