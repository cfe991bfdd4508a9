"""The board's run: main(runtime) builds the board (fdfw.start, dropped once built) and runs the app under the
guard (fdfw.recover) in the main loop: buttons -> app.press, shake sensor -> app.shake, app.tick, app.draw when a
frame is due."""
# Every failure a builder can cause (unknown profile, missing display or library, wrong pin names) prints one plain
# line, shows red on the pixels and beeps when those exist, and main returns a status word; nothing is written to
# the save. Anything else (MemoryError too) is reported by the guard, the save kept, and the app started again.
#
# A Loop pass is the same on both runtimes; everything it touches comes in as arguments, and it makes no allocation
# of its own (ints, cached bound methods). With `idle` (fdfw.idle.Idle.idle) a pass that draws nothing sleeps until
# the next deadline: the soonest of app.wait_ms (a frame, a landing, a toast, a CPU move, a save, a note, the dim and
# sleep timers), buttons.wait_ms (a debouncer still settling) and shake.wait_ms (a shake being sampled); idle
# returns early on a button edge or a shake. Without it the loop spins. With `sleep` (the board glue's
# MPSleep / CPSleep .sleep), once the app has switched the screen off (app.asleep()) the board light-sleeps until a
# button; then app.wake(), and the presses of that wake are dropped: none reaches the app until WAKE_QUIET_MS have
# passed and every button is up again. Tests drive a Loop pass by pass (Loop.step; tests/firmware/fakes/drive.py).
from fivedice import lazy as _lazy
from fivedice.ticks import ticks_add, ticks_diff
from fdfw.idle import Idle

SAVE_PATH = "/fivedice.sav"  # MicroPython: slots <path>.0 and .1; CircuitPython saves to nvm, this is the old file
TABLES_DIR = "/tables"  # <rule set id>.fdt from `make tables`, copied by the deploy when present
WAKE_QUIET_MS = 60  # after a wake: the waking press is dropped (it is debounced and released within this)


def say(msg):
    print("fivedice: " + msg)


class Loop:
    """The main loop over a built app: run() forever, a pass per step(). feed: called every pass (the watchdog's
    feed), so only a hung pass lets the watchdog reset the board."""

    def __init__(self, app, buttons, shake, ticks_ms, idle=None, feed=None, sleep=None):
        # the bound methods cached (a lookup per pass would allocate), in one tuple: one allocation of known size,
        # not an attribute dict that grows and leaves its smaller tables as holes in the heap
        self.m = (app, app.press, app.tick, app.draw, buttons.poll, buttons.down, ticks_ms,
                  shake.update if shake is not None else None, idle,
                  app.wait_ms if idle is not None else None, buttons.wait_ms if idle is not None else None,
                  shake.wait_ms if idle is not None and shake is not None else None,
                  sleep, app.asleep if sleep is not None else None, feed)
        self.q = [False, 0]  # after a wake: the presses are dropped (quiet) until q[1], every button up

    def run(self):
        self.m[0].draw()
        step = self.step
        while True:
            step()

    def step(self):
        """One pass; returns the time it read."""
        app, press, tick, draw, poll, down, ticks_ms, update, idle, wait_ms, buttons_wait, shake_wait, sleep, \
            asleep, feed = self.m
        q = self.q
        if feed is not None:
            feed()
        now = ticks_ms()
        if q[0] and ticks_diff(now, q[1]) >= 0 and not down():
            q[0] = False  # checked before the poll: a new press in this poll counts
        mask = poll()
        if q[0]:
            mask = 0  # the press that woke the board does nothing else
        if mask:
            for b in range(30):
                if (mask >> b) & 1:
                    press(b, now)
        if update is not None:
            s = update(now)
            if s > 0:
                app.shake(True, now)
            elif s < 0:
                app.shake(False, now)
        if tick(now):
            draw()
        elif asleep is not None and asleep():
            sleep()
            now = ticks_ms()
            app.wake(now)
            q[0] = True
            q[1] = ticks_add(now, WAKE_QUIET_MS)
        elif idle is not None:
            ms = wait_ms(now)
            if ms:
                w = buttons_wait()
                if w < ms:
                    ms = w
                if shake_wait is not None:
                    w = shake_wait(now)
                    if w < ms:
                        ms = w
                if ms > 0:
                    idle(ms)
        return now


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


def main(runtime):
    """runtime is "cp" or "mp". Runs the game for good; returns only the reason it could not start ("bad-profile",
    "no-display", "no-app", "no-random", ...)."""
    got = _lazy.load("startup").build(runtime, SAVE_PATH, say)
    if isinstance(got, str):
        return got
    hw, appmod, buttons, name = got
    got = None
    import gc

    _lazy.drop("startup")  # before the app is built (tests/firmware/test_startup_unload.py: nothing keeps it)
    gc.collect()
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
            except RandomSourceError as e:  # no os.urandom, or it keeps failing: the dice cannot be fair
                say(str(e) + "; the saved game is untouched")
                _lazy.load("startup").signal_failure(hw)
                return "no-random"
            if set_aside:
                app.message(appmod.view.T_SAVE_CRASHED)  # "Save crashed: kept"
            elif first and getattr(hw.store, "lost", False):
                app.message(appmod.view.T_SAVE_OLDER)  # a bad record cost saves: said once, at the boot that met it
            elif first and getattr(hw.store, "rec_lost", False):
                app.message(appmod.view.T_RECORDS_OLDER)  # the records read may be older
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
            if hw.sleep_ms is not None:  # sleep between passes until the next deadline or a press (fdfw.idle)
                idle = Idle(hw.sleep_ms, buttons, hw.shake, feed).idle
                if hw.make_sleep is not None:
                    sleep = hw.make_sleep(buttons, feed)
            Loop(app, buttons, hw.shake, hw.ticks_ms, idle, feed, sleep).run()
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
            _panel_on(hw.display)  # the app starts again: the panel may have been left off or dimmed
