"""The board's run: main(runtime) builds the board (fdfw.start, dropped once built) and runs the app
under the guard (fdfw.recover) in the library's main loop (fivedice.loop): buttons -> app.press,
shake sensor -> app.shake, app.tick, app.draw when a frame is due."""
# Every failure a builder can cause (unknown profile, missing display or library, wrong pin names)
# prints one plain line, shows red on the pixels and beeps when those exist, and main returns a
# status word; nothing is written to the save. Anything else (MemoryError too) is reported by the
# guard, the save kept, and the app started again.
#
# The pass itself is the library's (fivedice.loop.Loop, the simulator's and the web page's too);
# the board hands it its clock (hw.ticks_ms), buttons, shake sensor, watchdog feed, the idle wait
# (fivedice.loop.Idle over hw.sleep_ms) and the light sleep (the board glue's MPSleep / CPSleep).
# Tests drive a Loop pass by pass (Loop.step; tests/firmware/fakes/drive.py).
from fivedice import lazy as _lazy
from fivedice.loop import Idle, Loop

# MicroPython: slots <path>.0 and .1; CircuitPython saves to nvm, this is the old file
SAVE_PATH = "/fivedice.sav"
TABLES_DIR = "/tables"  # <rule set id>.fdt from `make tables`, copied by the deploy when present


def say(msg):
    print("fivedice: " + msg)


def _panel_on(display):
    """A new App's power state starts ON at full contrast: make the panel agree. After a restart by
    the guard the panel may still be off (the failure came while the screen was dark) or dimmed, and
    nothing else turns it on."""
    if display is not None and hasattr(display, "poweron"):
        from fivedice.power import FULL_CONTRAST

        try:
            display.poweron()
            display.contrast(FULL_CONTRAST)
        except Exception:  # a broken display must not stop the restart (the app draws without it)
            pass


def main(runtime):
    """runtime is "cp" or "mp". Runs the game for good; returns only the reason it could not start
    ("bad-profile", "no-display", "no-app", "no-random", ...)."""
    got = _lazy.load("startup").build(runtime, SAVE_PATH, say)
    if isinstance(got, str):
        return got
    hw, appmod, buttons, name = got
    got = None
    import gc

    # before the app is built (tests/firmware/test_startup_unload.py: nothing keeps it)
    _lazy.drop("startup")
    gc.collect()
    from fivedice import messages as msg
    from fivedice.rng import RandomSourceError
    from fdfw.recover import WATCHDOG_MS, Guard

    guard = Guard(hw, say)
    set_aside = guard.boot_strikes(hw.after_watchdog)  # before the app reads the save
    first = True
    while True:
        try:
            try:
                app = appmod.App(
                    hw.display, pixels=hw.pixels, buzzer=hw.buzzer, store=hw.store,
                    tables=TABLES_DIR, battery=hw.battery, pixel_colors=hw.pixel_colors
                )
                if hw.encoder is not None:
                    hw.encoder.bind(app)  # a spin on the dice screen shakes
            # no os.urandom, or it keeps failing: the dice cannot be fair
            except RandomSourceError as e:
                say(str(e) + "; the saved game is untouched")
                _lazy.load("startup").signal_failure(hw)
                return "no-random"
            if set_aside:
                app.message(msg.T_SAVE_CRASHED)  # "Save crashed: kept"
            elif first and getattr(hw.store, "lost", False):
                app.message(msg.T_SAVE_OLDER)  # a bad record cost saves: said once, at that boot
            elif first and getattr(hw.store, "rec_lost", False):
                app.message(msg.T_RECORDS_OLDER)  # the records read may be older
                try:  # written again after the bad record: the next boot says nothing
                    got = hw.store.read_records()
                    if got is not None:
                        hw.store.write_records(got)
                except OSError:
                    pass
            if first:
                say("running on " + name + ("" if app.seats.tables_mask else
                                            " (no strategy tables: no hints, CPU up to good)"))
                first = False
            if hw.watchdog is None and hw.start_watchdog is not None:
                hw.start_watchdog(WATCHDOG_MS)  # from here on a hung pass resets the board
            feed = hw.watchdog.feed if hw.watchdog is not None else None
            idle = sleep = None
            # sleep between passes until the next deadline or a press (fivedice.loop.Idle)
            if hw.sleep_ms is not None:
                idle = Idle(hw.sleep_ms, buttons, hw.shake, feed).idle
                if hw.make_sleep is not None:
                    sleep = hw.make_sleep(buttons, feed)
            Loop(app, buttons, hw.shake, hw.ticks_ms, idle, feed, sleep).run()
        # anything unexpected, MemoryError too: report, keep the save, start again
        except Exception as e:
            app = None
            reset = isinstance(e, MemoryError) and hw.reset is not None
            set_aside = guard.failed(e, reset)
            if reset:
                # The heap is too fragmented: an app started again here needs KB-sized blocks it may
                # not find (the board would fail over and over). A reset starts from a clean heap
                # and resumes the save; after its second strike the next boot sets it aside first
                # (boot_strikes), starts clean and says so, once.
                hw.reset()
            # the app starts again: the panel may have been left off or dimmed
            _panel_on(hw.display)
