"""The main loop: buttons -> app.press, shake sensor -> app.shake, app.tick, app.draw when a frame is due."""
# run() is the same on both runtimes; everything it touches comes in as arguments. Per pass it makes
# no allocation of its own (ints, cached bound methods); `max_iters` and `on_iter(i, now_ms)` are the
# test hooks (0 = run forever; on_iter is called after each pass, and a true return stops the loop).
#
# With `idle` (fdfw.power.Idle.idle) a pass that draws nothing sleeps until the next deadline: the soonest of
# app.wait_ms (a frame, a landing, a toast, a CPU move, a save, a note, the dim and sleep timers),
# buttons.wait_ms (a debouncer still settling) and shake.wait_ms (a shake being sampled); idle returns early on
# a button edge or a shake. Without it the loop spins as before.
# With `sleep` (fdfw.sleep_mp.MPSleep / fdfw.sleep_cp.CPSleep .sleep), once the app has switched the screen off (app.asleep()) the
# board light-sleeps until a button; then app.wake(), and the presses of that wake are dropped: none reaches
# the app until WAKE_QUIET_MS have passed and every button is up again.
from fivedice.ticks import ticks_add, ticks_diff

WAKE_QUIET_MS = 60  # after a wake: the waking press is dropped (it is debounced and released within this)


def run(app, buttons, shake, ticks_ms, max_iters=0, on_iter=None, idle=None, feed=None, sleep=None):
    """feed: called every pass (the watchdog's feed), so only a hung pass lets the watchdog reset the board."""
    press = app.press
    tick = app.tick
    draw = app.draw
    poll = buttons.poll
    shake_update = shake.update if shake is not None else None
    wait_ms = app.wait_ms if idle is not None else None
    buttons_wait = buttons.wait_ms if idle is not None else None
    shake_wait = shake.wait_ms if idle is not None and shake is not None else None
    asleep = app.asleep if sleep is not None else None
    down = buttons.down
    quiet = False
    quiet_until = 0
    nbits = 30
    i = 0
    draw()
    while True:
        if feed is not None:
            feed()
        now = ticks_ms()
        if quiet and ticks_diff(now, quiet_until) >= 0 and not down():
            quiet = False  # checked before the poll: a new press in this poll counts
        mask = poll()
        if quiet:
            mask = 0  # the press that woke the board does nothing else
        if mask:
            for b in range(nbits):
                if (mask >> b) & 1:
                    press(b, now)
        if shake_update is not None:
            s = shake_update(now)
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
            quiet = True
            quiet_until = ticks_add(now, WAKE_QUIET_MS)
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
        i += 1
        if on_iter is not None and on_iter(i, now):
            return i
        if max_iters and i >= max_iters:
            return i
