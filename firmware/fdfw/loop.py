"""The main loop: buttons -> app.press, shake sensor -> app.shake, app.tick, app.draw when a frame is due.

run() is the same on both runtimes; everything it touches comes in as arguments. Per pass it makes
no allocation of its own (ints, cached bound methods); `max_iters` and `on_iter(i, now_ms)` are the
test hooks (0 = run forever; on_iter is called after each pass, and a true return stops the loop).
"""


def run(app, buttons, shake, ticks_ms, max_iters=0, on_iter=None, idle=None, feed=None):
    """feed: called every pass (the watchdog's feed), so only a hung pass lets the watchdog reset the board."""
    press = app.press
    tick = app.tick
    draw = app.draw
    poll = buttons.poll
    shake_update = shake.update if shake is not None else None
    nbits = 30
    i = 0
    draw()
    while True:
        if feed is not None:
            feed()
        now = ticks_ms()
        mask = poll()
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
        elif idle is not None:
            idle()
        i += 1
        if on_iter is not None and on_iter(i, now):
            return i
        if max_iters and i >= max_iters:
            return i
