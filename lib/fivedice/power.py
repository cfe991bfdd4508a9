"""Power: dim the OLED after a while without input, then switch it and the pixels off and let the
board sleep; the battery gauge. Pure logic; the App owns one Power and calls it from
press/tick/draw."""
# States (Power.state):
#     ON    the display at full contrast
#     DIM   no input for DIM_MS[dim_i]: the OLED's contrast is lowered (a press restores it and acts
#     as usual)
#     OFF   no input for SLEEP_MS[sleep_i]: the OLED is switched off (its RAM is kept), the pixels
#     are dark, the
#           game is saved, and the board may sleep (fivedice.loop asks). A press only wakes: it
#           does nothing else.
# Input, and anything the app does on its own (dice tumbling, a CPU turn, a sound), restarts the
# timers. The choices are menu settings kept in the save record (3 values each: index 0 is the
# default).
#
# The panel is the display object when it has contrast(), poweroff() and poweron()
# (micropython-lib's ssd1306, fdfw.board_cp.BitmapDisplay, host_sim's SimDisplay); other displays
# simply never dim.
#
# Battery: `battery` is a callable returning the supply in mV (the board's VSYS monitor,
# fivedice.power.read_mv over an ADC), or None when the board has no such input. It is read every
# BATTERY_MS; `level` is 0..4 bars between EMPTY_MV and FULL_MV; below LOW_MV the app says "Battery
# low" once (until the supply recovers above LOW_MV + 200 mV). A reading under VALID_MV (an input
# that reads ~0: not wired) shows no gauge and no warning. Nothing here allocates after
# construction.
from fivedice.compat import const
from fivedice.ticks import ticks_add, ticks_diff

ON = const(0)
DIM = const(1)
OFF = const(2)

DIM_MS = (30000, 60000, 0)  # 0: never
DIM_LABELS = (b"30s", b"1m", b"off")
SLEEP_MS = (180000, 600000, 0)
SLEEP_LABELS = (b"3m", b"10m", b"off")
CHOICES = const(3)

FULL_CONTRAST = const(255)  # what both SSD1306 drivers set at start-up (0x81 0xFF)
DIM_CONTRAST = const(1)  # the SSD1306's lowest visible step: the screen stays readable close up

BATTERY_MS = const(10000)
EMPTY_MV = const(3300)  # 3 x AA alkaline at 1.1 V a cell (profile-independent defaults)
FULL_MV = const(4500)
LOW_MV = const(3500)
# below this the reading is not a supply the board could run on (input not wired): ignored
VALID_MV = const(1500)
_RECOVER_MV = const(200)


class Power:
    def __init__(self, panel, battery=None):
        ok = panel is not None and hasattr(panel, "contrast") and hasattr(panel, "poweroff")
        self.panel = panel if ok else None
        self.state = ON
        self.dim_i = 0
        self.sleep_i = 0
        self.input_at = 0
        self.battery = battery
        self.mv = 0  # the last battery reading (0: none yet)
        self.level = -1  # 0..4 bars, -1: unknown / no battery input
        self.warned = False
        self.battery_at = 0

    # -- the timers --------------------------------------------------------------------
    def touch(self, now):
        """Input or activity at `now`: the timers restart, and a dimmed screen comes back."""
        self.input_at = now
        if self.state == DIM:
            self.state = ON
            if self.panel is not None:
                self.panel.contrast(FULL_CONTRAST)

    def wake(self, now):
        """A press (or the board waking from sleep) at `now`. True if the screen was off: the press
        only woke it."""
        was_off = self.state == OFF
        if was_off:
            self.state = ON
            if self.panel is not None:
                self.panel.poweron()
                self.panel.contrast(FULL_CONTRAST)
        self.touch(now)
        return was_off

    def due(self, now):
        """DIM or OFF when that timer has run out at `now` (and the state is not there yet), else 0.
        """
        idle = ticks_diff(now, self.input_at)
        s = SLEEP_MS[self.sleep_i]
        if s and self.state != OFF and idle >= s:
            return OFF
        d = DIM_MS[self.dim_i]
        if d and self.state == ON and idle >= d:
            return DIM
        return 0

    def dim(self):
        self.state = DIM
        if self.panel is not None:
            self.panel.contrast(DIM_CONTRAST)

    def off(self):
        self.state = OFF
        if self.panel is not None:
            self.panel.poweroff()

    def wait_ms(self, now, most):
        """ms from `now` to the next power deadline (the dim or sleep timer, the battery reading),
        at most `most`."""
        w = most
        if self.state != OFF:
            s = SLEEP_MS[self.sleep_i]
            if s:
                t = ticks_diff(ticks_add(self.input_at, s), now)
                if t < w:
                    w = t
            d = DIM_MS[self.dim_i]
            if d and self.state == ON:
                t = ticks_diff(ticks_add(self.input_at, d), now)
                if t < w:
                    w = t
        if self.battery is not None:
            t = ticks_diff(self.battery_at, now)
            if t < w:
                w = t
        return w if w > 0 else 0

    # -- the battery ---------------------------------------------------------------------
    def read_battery(self, now):
        """Read the supply if it is time; True when the "Battery low" warning is due (once)."""
        if self.battery is None or ticks_diff(now, self.battery_at) < 0:
            return False
        self.battery_at = ticks_add(now, BATTERY_MS)
        mv = self.battery()
        self.mv = mv
        if mv < VALID_MV:
            self.level = -1
            return False
        if mv <= EMPTY_MV:
            lv = 0
        elif mv >= FULL_MV:
            lv = 4
        else:
            lv = 1 + (mv - EMPTY_MV) * 3 // (FULL_MV - EMPTY_MV)
        self.level = lv
        if mv < LOW_MV:
            if not self.warned:
                self.warned = True
                return True
        elif mv >= LOW_MV + _RECOVER_MV:
            self.warned = False
        return False


def draw_battery(fb, level, x, y, c):
    """A 12x6 battery at x, y in colour c with `level` of 4 bars filled."""
    fb.rect(x, y, 11, 6, c)
    fb.fill_rect(x + 11, y + 2, 1, 2, c)
    for i in range(level):
        fb.fill_rect(x + 2 + 2 * i, y + 2, 1, 2, c)


def read_mv(raw_u16, divider, ref_mv=3300):
    """Supply mV from a 16-bit ADC reading behind a 1/divider voltage divider (integers only; Pico:
    VSYS / 3 on GP29 = ADC3)."""
    return raw_u16 * ref_mv * divider // 65535
