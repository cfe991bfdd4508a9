"""The handheld, simulated: the real App and debouncers on a SimBoard, run by the same loop as the firmware
(fivedice.loop.Loop) over the simulated clock.

One `step()` is one pass of that loop: poll the debounced buttons, feed the shake sensor to the shake
detector, tick the app, draw when a frame is due. The loop does not wait: the simulated clock moves
between passes (step's ms; run(skip=True) jumps to the app's next deadline as the board's idle sleep).
"""
from fivedice import app as _app
from fivedice.loop import Loop
from fivedice.shake import SwitchShake
from host_sim.hw import DEFAULT_BUTTONS, SimBoard

POLL_MS = 5


class TiltInput:
    """The loop's shake sensor: the tilt switch's level into the device's detector (dev.shake: a SwitchShake, or
    the MacroPad's knob, host_sim.macropad.KnobSpin); update(now) is 1 when a shake starts, -1 when it stops."""

    def __init__(self, dev):
        self._dev = dev

    def update(self, now_ms):
        det = self._dev.shake
        det.update(self._dev.board.tilt.value, now_ms)
        if det.started:
            return 1
        if det.stopped:
            return -1
        return 0


class SimDevice:
    def __init__(self, dice=None, store=None, cpu_step_ms=_app.CPU_STEP_MS, bounce=3, mute=False, tables=None,
                 n_pixels=5, pixel_colors=None):
        assert DEFAULT_BUTTONS == _app.BUTTON_NAMES
        self.board = SimBoard(bounce=bounce, n_pixels=n_pixels)
        self.clock = self.board.clock
        self.shake = SwitchShake()
        self.app = _app.App(
            self.board.display,
            pixels=self.board.pixels,
            buzzer=self.board.buzzer,
            dice=dice,
            store=store,
            cpu_step_ms=cpu_step_ms,
            tables=tables,
            pixel_colors=pixel_colors,  # a board's own die order and colours (the MacroPad's: host_sim.macropad)
        )
        if mute:
            self.app.settings.muted = True
            self.app.snd.mute = True
        self.frames = 0
        self.loop = Loop(self.app, self.board.buttons, TiltInput(self), self.clock.ticks_ms)
        self.app.draw()

    def close(self):
        self.board.close()

    def now(self):
        return self.clock.ticks_ms()

    def step(self, ms=POLL_MS):
        """Advance time by ms and run one main-loop pass."""
        self.clock.advance(ms)
        loop = self.loop
        loop.step()
        if loop.q[2]:
            self.frames += 1

    def run(self, ms, skip=False):
        """ms of main-loop passes. skip: while nothing moves (no button down or bouncing, no shake), jump
        straight to the app's next deadline (app.wait_ms) as the firmware's idle sleep does: minutes in a few steps."""
        t = 0
        while t < ms:
            n = POLL_MS
            if skip and self.quiet():
                w = self.app.wait_ms(self.now(), ms - t)
                n = max(POLL_MS, w - w % POLL_MS)
            self.step(n)
            t += n

    def quiet(self):
        """True when no button is down or still settling and the shake switch is still."""
        for b in self.board.buttons.buttons.values():
            if not b.pin.level or b.pin._chatter or not b.debouncer.value:
                return False
        return not self.board.tilt.shaking and not self.shake.shaking and not self.shake._filled

    @property
    def power_state(self):
        """"on", "dim", "off" (the display's state) or "asleep" (display off and the app waiting for a button)."""
        if self.app.asleep():
            return "asleep"
        return self.board.display.state

    def tap(self, button):
        """Press and release a button as a person would (bounce and all); returns the app's refusal code."""
        name = _app.BUTTON_NAMES[button]
        btn = self.board.buttons.buttons[name]
        refusal = 0
        self.app.last_refusal = 0
        btn.press()
        for _ in range(16):  # 80 ms held
            self.step()
            if self.app.last_refusal:
                refusal = self.app.last_refusal
        btn.release()
        for _ in range(16):
            self.step()
        return refusal

    def press(self, button, hold_ms=30):
        """One quick press and release, as fast as a thumb and the debouncer allow (held hold_ms, as the
        terminal's keys are), with no waiting for the dice after it; returns the app's refusal code."""
        btn = self.board.buttons.buttons[_app.BUTTON_NAMES[button]]
        refusal = 0
        self.app.last_refusal = 0
        btn.press()
        t = 0
        while (not btn.down or t < hold_ms) and t < 1000:
            self.step()
            t += POLL_MS
            if self.app.last_refusal:
                refusal = self.app.last_refusal
        btn.release()
        while btn.down and t < 2000:
            self.step()
            t += POLL_MS
        return refusal

    def settle(self, limit_ms=20000):
        """Run until nothing is happening on its own (dice landed, CPU idle, cues finished, the save
        written or refused)."""
        t = 0
        while (self.app.busy() or self.app.session.save_due) and t < limit_ms:
            self.step()
            t += POLL_MS
        # a last frame after things stopped
        self.step()
