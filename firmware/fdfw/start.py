"""Start-up shared by code.py (CircuitPython) and main.py (MicroPython).

Order: board profile -> hardware -> fivedice.app -> main loop. Every failure a builder can cause
(unknown profile, missing display or library, wrong pin names) prints one plain line, shows red on
the pixels and beeps when those exist, and returns a status word; nothing is written to the save.
Errors nobody expected are re-raised with their traceback.
"""
from fdfw.hw import StartupError, signal_failure

SAVE_PATH = "/fivedice.sav"  # MicroPython: slots <path>.0 and .1; CircuitPython saves to nvm, this is the old file
TABLES_DIR = "/tables"  # <rule set id>.fdt from `make tables`, copied by the deploy when present


_TEST_RESTARTS = 5  # a test run (on_iter given) gives up after this many failures


def say(msg):
    print("fivedice: " + msg)


def _forget_startup():
    """Drop what only start-up needed (the profile checker's code) and collect, before the game's
    first allocation: on CircuitPython every KB of heap counts (see README, Memory)."""
    import gc

    from fivedice.compat import unload

    unload("fdfw", "profile")
    gc.collect()


def main(runtime, max_iters=0, on_iter=None, save_path=SAVE_PATH, tables_dir=TABLES_DIR):
    """runtime is "cp" or "mp". Returns a status word: "stopped" after max_iters / on_iter,
    else the reason it could not start ("bad-profile", "no-display", "no-app", ...)."""
    from fdfw import profile  # a local, so start-up can drop the module once the board is built
    try:
        prof = profile.load(profile.configured_name())
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"
    # The app's code first, then the drivers: the big imports load onto a clean heap, and the
    # long-lived driver objects do not end up scattered between their leftovers.
    why = None
    try:
        import fivedice.app as appmod
    except ImportError as e:
        why = str(e)
    if runtime == "cp":
        from fdfw import setup_cp as setup
    else:
        from fdfw import setup_mp as setup
    try:
        hw = setup.build(prof, save_path)
    except StartupError as e:
        say(e.message)
        signal_failure(e.hw)
        return e.status
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"

    if why is not None:
        say("cannot import fivedice.app (" + why + "): copy lib/fivedice to the board's /lib")
        signal_failure(hw)
        return "no-app"
    ids = [getattr(appmod, "B_" + name) for name in hw.button_names]
    from fdfw import buttons as buttons_mod

    buttons = buttons_mod.make(hw.button_inputs, ids)
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
                signal_failure(hw)
                return "no-random"
            if set_aside:
                app.message(appmod.view.T_SAVE_CRASHED)  # "Save crashed: kept"
            if first:
                say("running on " + prof.NAME + ("" if app.tables_mask else
                                                 " (no strategy tables: no hints, CPU up to good)"))
                profile = None
                _forget_startup()
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
            set_aside = guard.failed(e)
            if on_iter is not None and guard.failures >= _TEST_RESTARTS:
                return "failed"  # test runs stop; a board goes on restarting
