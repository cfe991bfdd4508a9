"""The handheld in a web browser: the real fivedice.app.App on MicroPython WebAssembly, fed by the page.

The page (web/main.js) owns only the browser: it turns keys, touches and devicemotion into calls here, runs
the loop timer, copies the frame and the LEDs to the screen, plays tones through WebAudio and keeps the
save in localStorage. Everything the game decides happens in lib/fivedice, run by the board's own loop
(fivedice.loop.Loop): this page's clock (the time step() is given), its presses (Taps: in the order they came)
and its shake sensors (Accel: the phone's accelerometer and the Shake button; Knob: the MacroPad's knob).

    hh = Handheld(host, tables="/tables")   host: the page's callables (see Host below)
    hh.key("1") / hh.button(b)              a key of the terminal simulator's map / a touch button
    hh.motion(x_mg, y_mg, z_mg)             the phone's latest acceleration (gravity included), milli-g
    hh.shake_burst(ms)                      the Shake button: a vigorous shake of ms, through the same detector
    hh.step(now_ms) -> 1 if a frame was drawn (read it with frame(), the LEDs with leds())

The save goes through the app's store protocol (read / write / set_aside), like fdfw.store on the board: a
save the app cannot read is moved aside, byte for byte, into a ring of RING keys (KEY_BAD, KEY_BAD + ".1", ...)
before anything new is written, and the app shows the device's own message ("Save unreadable: kept").
"""
from fivedice import app as _app
from fivedice.loop import Loop
from fivedice.shake import AccelShake
from fivedice.ticks import TICKS_MAX, ticks_add, ticks_diff

# The terminal simulator's keys (host_sim/sim.py KEYMAP): the page names a key as the terminal would send it
# (arrows as "up"/"down", Enter as "\r", Backspace as "\x7f"); tests/web/test_web.py pins the two maps equal.
KEYMAP = {
    "1": "hold1",
    "2": "hold2",
    "3": "hold3",
    "4": "hold4",
    "5": "hold5",
    " ": "roll",
    "r": "roll",
    "\r": "ok",
    "\n": "ok",
    "\x7f": "back",
    "\x08": "back",
    "b": "back",
    "esc": "back",
    "up": "up",
    "down": "down",
    "k": "up",
    "j": "down",
}
SHAKE_KEYS = ("s", "S")
KNOB_KEYS = {"left": -1, "right": 1, "[": -1, "]": 1}  # the MacroPad's knob (host_sim.macropad.KNOB)
SPIN_MS = 300  # a spin of the knob on the dice screen ends this long after its last detent (fdfw.encoder)
_MORE = 15  # extra loop passes a step while the coach works and nothing is drawn (step())
SHAKE_MS = 700  # the s key and the Shake button: a shake this long (host_sim's s key shakes the tilt 700 ms)

KEY = "fivedice.save"  # localStorage: the save record as hex
KEY_BAD = "fivedice.save.bad"  # a save the app could not read, kept as it was
KEY_REC = "fivedice.records"  # the high scores and stats (fivedice.records) as hex
KEY_REC_BAD = "fivedice.records.bad"  # records that would not decode, kept as they were
RING = 4  # bad values kept per key: <bad>, <bad>.1 .. <bad>.3, the oldest replaced by a fifth (<bad>.next: which)
MAX_TEXT = 8192  # characters: a longer value is refused at once, never decoded (main.js's load gives its length)

SAMPLE_MS = 10  # the accelerometer is sampled this often (fdfw.shake_input.AccelShakeInput's period)
_REST_MG = 1000  # at rest: 1 g
_STROKE_MG = 2600  # a stroke of the Shake button's shake: over AccelShake's 1800 mg threshold


def _display_class():
    import framebuf

    class Display(framebuf.FrameBuffer):
        """A 128x64 SSD1306 frame: MicroPython's framebuf over a MONO_VLSB bytearray (the panel's page layout);
        show() only counts frames, the page copies `buf` after a step that drew."""

        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
            self.frames = 0

        def show(self):
            self.frames += 1

    return Display


class Pixels:
    """The NeoPixels as the page shows them (five, the MacroPad's twelve): px[i] = 0xRRGGBB, show() marks them
    changed; leds() is their bytes, r, g, b per pixel."""

    def __init__(self, n=5):
        self.n = n
        self.rgb = bytearray(3 * n)
        self.changed = True

    def __len__(self):
        return self.n

    def __setitem__(self, i, c):
        o = 3 * i
        self.rgb[o] = c >> 16
        self.rgb[o + 1] = (c >> 8) & 255
        self.rgb[o + 2] = c & 255

    def show(self):
        self.changed = True


class Buzzer:
    """The piezo's tone(freq, ms) / off() protocol (fdfw.buzzer), played by the page through WebAudio."""

    def __init__(self, tone):
        self._tone = tone

    def tone(self, freq, ms):
        self._tone(freq, ms)

    def off(self):
        self._tone(0, 0)


class LocalStore:
    """The save in the browser's localStorage, with the app's store protocol.

    load(key) -> str, None, or an int: the length of a value longer than MAX_TEXT (the page never hands such a
    value over: converting it would take seconds); store(key, text) -> None, or why the browser refused (full,
    storage off); remove(key); move(src, dst) -> None or why not: the page's localStorage calls (move copies a
    value in the page, byte for byte: MicroPython's strings going back to JavaScript end at a NUL). The record is
    kept as hex text. A value that is not hex (edited by hand, or garbled) is handed to the app as its raw text
    bytes, so the app refuses it with its plain message and it is set aside untouched."""

    def __init__(self, load, store, remove, move=None):
        self._load = load
        self._store = store
        self._remove = remove
        self._move = move
        self.error = None
        self.note = None  # a plain line for the page when a value was refused before the app saw it
        self._stuck = None  # why an unreadable value could not be set aside (then nothing is written over it)

    def read(self):
        return self._read(KEY)

    def write(self, data):
        self._write(KEY, data, "the game")

    def set_aside(self):
        """Keep an unreadable save in the ring of bad saves, untouched (the RING newest are kept)."""
        self._aside(KEY, KEY_BAD)

    # the records (high scores and stats), beside the save, with the same rules
    def read_records(self):
        return self._read(KEY_REC)

    def write_records(self, data):
        self._write(KEY_REC, data, "the records")

    def set_aside_records(self):
        self._aside(KEY_REC, KEY_REC_BAD)

    def _read(self, key):
        text = self._load(key)
        if text is None:
            return None
        n = text if isinstance(text, int) else -1
        if n < 0:
            text = str(text)
            n = len(text)
        if n > MAX_TEXT:
            self.note = "%s in localStorage holds %d characters, more than a save can (%d)" % (key, n, MAX_TEXT)
            return ("%d characters" % n).encode()  # the app refuses it ("not a fivedice save") and sets it aside
        try:
            return _unhex(text)
        except ValueError:
            return text.encode()

    def _write(self, key, data, what):
        if self._stuck is not None and key == self._stuck[0]:
            self.error = "cannot save %s: the unreadable one could not be kept aside (%s)" % (what, self._stuck[1])
            raise OSError(5, self.error)
        why = self._store(key, _hex(data))
        if why is not None:  # the browser refused (full, storage off): the app says "Could not save"
            self.error = "cannot save %s in this browser's localStorage (%s)" % (what, why)
            raise OSError(5, self.error)

    def ring(self, bad):
        """The ring's keys, the first one first."""
        return [bad] + [bad + "." + str(i) for i in range(1, RING)]

    def _aside(self, key, bad):
        if self._load(key) is None:
            return
        names = self.ring(bad)
        i = 0
        while i < RING and self._load(names[i]) is not None:
            i += 1
        if i == RING:  # full: the oldest goes
            nxt = self._load(bad + ".next")
            i = int(nxt) % RING if isinstance(nxt, str) and nxt.isdigit() and len(nxt) < 4 else 0
        if self._move is not None:
            why = self._move(key, names[i])
        else:  # the tests' dictionaries (and a page without move): the value as the store got it
            why = self._store(names[i], self._load(key))
            if why is None:
                self._remove(key)
        if why is not None:
            self._stuck = (key, str(why))
            return
        self._stuck = None
        self._store(bad + ".next", str((i + 1) % RING))


def _hex(data):
    return "".join("%02x" % b for b in data)


def _unhex(text):
    """bytes from hex text, in linear time: str slicing walks the string on MicroPython (quadratic: 80,000
    characters took 6.7 s on the unix port), so the text's bytes are read instead. ValueError if not hex."""
    b = text.encode()
    n = len(b)
    if n % 2:
        raise ValueError("odd length")
    out = bytearray(n // 2)
    for i in range(0, n, 2):
        out[i // 2] = (_nib(b[i]) << 4) | _nib(b[i + 1])
    return bytes(out)


def _nib(c):
    if 48 <= c <= 57:
        return c - 48
    c |= 0x20
    if 97 <= c <= 102:
        return c - 87
    raise ValueError("not hex")


class UrandomSource:
    """The dice's byte source: the browser's crypto.getRandomValues (this port has no os.urandom).
    rand(n) is the page's function returning n random bytes (a Uint8Array)."""

    def __init__(self, rand):
        self._rand = rand

    def __call__(self, n):
        return bytes(self._rand(n))


class Taps:
    """The page's presses for the loop: each a debounced press edge, kept in the order it came (repeats too) and
    handed over one a poll at the next pass (more(): fivedice.loop polls again)."""

    def __init__(self):
        self.q = []

    def poll(self):
        return 1 << self.q.pop(0) if self.q else 0

    def more(self):
        return len(self.q) > 0


class Accel:
    """The phone's acceleration (motion()) and the Shake button's bursts, sampled every SAMPLE_MS into the same
    AccelShake detector as a board's: update(now) is 1 when a shake starts, -1 when it stops, else 0."""

    def __init__(self):
        self.det = AccelShake()
        self.x = 0
        self.y = 0
        self.z = _REST_MG
        self.burst_ms = 0  # a Shake-button shake waiting to start (ms long)
        self.burst_until = 0
        self.bursting = False
        self.next_sample = 0

    def update(self, now):
        if self.burst_ms:
            self.burst_until = ticks_add(now, self.burst_ms)
            self.burst_ms = 0
            self.bursting = True
        if ticks_diff(now, self.next_sample) >= 0 or ticks_diff(self.next_sample, now) > SAMPLE_MS:
            self.next_sample = ticks_add(now, SAMPLE_MS)
            x, y, z = self.x, self.y, self.z
            if self.bursting:
                if ticks_diff(now, self.burst_until) < 0:
                    x, y, z = (_STROKE_MG if (now // 40) & 1 else -_STROKE_MG), 0, _REST_MG
                else:
                    self.bursting = False
            d = self.det
            d.update_accel(x, y, z, now)
            if d.started:
                return 1
            if d.stopped:
                return -1
        return 0


class Knob:
    """The MacroPad's knob turned on the dice screen (spin): a shake from its first detent until SPIN_MS after
    the last, as fdfw.encoder does on the board; update(now) as Accel's."""

    def __init__(self):
        self.spin = False  # turned since the last pass
        self.spinning = False
        self.spin_at = 0

    def update(self, now):
        if self.spin:
            self.spin = False
            self.spin_at = now
            if not self.spinning:
                self.spinning = True
                return 1
        elif self.spinning and ticks_diff(now, self.spin_at) >= SPIN_MS:
            self.spinning = False
            return -1
        return 0


class Handheld:
    """The App and the sensors' glue; one step() is one pass of the board's main loop (fivedice.loop.Loop)."""

    def __init__(self, tone=None, rand=None, load=None, store=None, remove=None, tables=None, dice=None,
                 test=False, move=None, board=None):
        from fivedice.rng import Dice

        self.display = _display_class()()
        colors = None
        self.key_labels = self.key_buttons = None  # the MacroPad's (board="macropad"): KEY1..KEY12
        if board == "macropad":
            from boards import macropad as prof  # hardware/boards/macropad.py, in the page's bundle

            colors = (prof.PIXEL_ORDER, prof.FACE_COLORS, prof.KEY_COLORS)
            self.key_labels = list(prof.KEY_LABELS)
            self.key_buttons = [-1] * prof.PIXEL_COUNT  # the app's button under each key, -1: none
            for name, pin in prof.BUTTONS:
                if pin[0].startswith("KEY"):
                    self.key_buttons[int(pin[0][3:]) - 1] = _app.BUTTON_NAMES.index(name.lower())
            self.pixels = Pixels(prof.PIXEL_COUNT)
        else:
            self.pixels = Pixels(5)
        if dice is None:
            dice = Dice(UrandomSource(rand)) if rand is not None else Dice()
        self.store = LocalStore(load, store, remove, move) if load is not None else None
        self.app = _app.App(
            self.display,
            pixels=self.pixels,
            buzzer=Buzzer(tone) if tone is not None else None,
            dice=dice,
            store=self.store,
            tables=tables,
            pixel_colors=colors,
        )
        self.test = test
        self.taps = Taps()  # presses since the last step, delivered at its start
        self.accel = Accel()
        self.spinner = Knob()
        self.now = 0
        self.steps = 0
        self.loop = Loop(self.app, self.taps, (self.accel, self.spinner), self.ticks_ms)
        self.app.draw()

    # -- the page's messages -------------------------------------------------------------------------------
    def messages(self):
        """Plain lines the page shows under the device: why the save or a strategy table was not used."""
        from fivedice import messages as msg

        out = []
        a = self.app
        if a.session.save_bad:
            out.append(msg.TEXTS[msg.T_SAVE_BAD].decode() + " (" + a.session.save_error + "); it is kept in "
                       "localStorage under " + KEY_BAD + " (the newest %d bad saves are kept) and a new game "
                       "saves afresh" % RING)
        if self.store is not None and self.store.note:
            out.append(self.store.note)
        if a.seats.table_error:
            out.append(msg.TEXTS[msg.T_TABLE_BAD].decode() + " (" + a.seats.table_error + ")")
        return "\n".join(out)

    # -- input ------------------------------------------------------------------------------------------------
    def button(self, b):
        """A touch button or a mapped key: a debounced press edge, handed to the app at the next step."""
        if 0 <= b < len(_app.BUTTON_NAMES):
            self.taps.q.append(b)

    def knob(self, d):
        """The MacroPad's knob turned a detent (d -1 anticlockwise, 1 clockwise): a spin on the dice screen (the
        dice tumble while it turns), else an UP or DOWN press."""
        from fivedice.screens import B_DOWN, B_UP, M_TURN

        if self.app.mode == M_TURN:
            self.spinner.spin = True
        else:
            self.button(B_UP if d < 0 else B_DOWN)

    def key(self, k):
        """A key named as the terminal sends it (see KEYMAP); returns 1 if it did something."""
        if self.key_labels is not None and k in KNOB_KEYS:
            self.knob(KNOB_KEYS[k])
            return 1
        if k in SHAKE_KEYS:
            self.shake_burst(SHAKE_MS)
            return 1
        name = KEYMAP.get(k)
        if name is None:
            return 0
        self.button(_app.BUTTON_NAMES.index(name))
        return 1

    def motion(self, x, y, z):
        """The latest devicemotion sample (acceleration including gravity, milli-g, ints)."""
        a = self.accel
        a.x = int(x)
        a.y = int(y)
        a.z = int(z)

    def shake_burst(self, ms):
        """Shake by button: strokes over the threshold for ms, fed to the same AccelShake detector."""
        self.accel.burst_ms = ms

    # -- the loop ---------------------------------------------------------------------------------------------
    def ticks_ms(self):
        """The loop's clock: the time the page gave the step."""
        return self.now

    def step(self, now_ms):
        """One main-loop pass at now_ms (any int, e.g. the page's performance.now()). 1 if a frame was drawn."""
        self.now = int(now_ms) & TICKS_MAX
        self.steps += 1
        loop = self.loop
        loop.step()
        # the coach's slices are cut for a Pico's 50 ms pass: here, where one takes well under a ms,
        # up to _MORE more a step while they draw nothing (a turn solved in one step, not 13)
        s = self.app.session
        n = 0
        while not loop.q[2] and (s.thinking or s.warming) and n < _MORE:
            loop.step()
            n += 1
        return 1 if loop.q[2] else 0

    def idle(self):
        """Nothing left to happen without input: no press waiting, no shake going, the app not busy,
        no save waiting for its moment (a refused one shows a message)."""
        a = self.accel
        k = self.spinner
        return (not self.taps.q and not a.burst_ms and not a.bursting and not a.det.shaking
                and not k.spin and not k.spinning
                and not self.app.busy() and not self.app.session.save_due and not self.app.dirty)

    def frame(self):
        return self.display.buf

    def leds(self):
        self.pixels.changed = False
        return self.pixels.rgb

    def flush_save(self):
        """The page is being hidden or closed: write a change still waiting (a hold) now."""
        self.app.session.flush_save()

    # -- test mode only ---------------------------------------------------------------------------------------
    def test_dice(self, faces):
        """Test mode (the page's ?test=1): the dice come from this list from now on (rng.ScriptedFaces)."""
        if not self.test:
            raise RuntimeError("test hooks are off (open the page with ?test=1)")
        from fivedice.rng import ScriptedFaces

        dice = ScriptedFaces([int(f) for f in faces])
        self.app.session.dice = dice
        if self.app.session.game is not None:
            self.app.session.game.source = dice
        return dice.remaining()
