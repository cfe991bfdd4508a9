"""PNG screenshots (Pillow): the OLED scaled up, the NeoPixel strip drawn beneath it."""
from PIL import Image, ImageDraw

from host_sim.terminal import display_color

INK = (150, 215, 255)  # a blue-white OLED
PAPER = (4, 6, 10)
CASE = (34, 36, 40)


def _raw(display):
    if isinstance(display, (bytes, bytearray, memoryview)):
        return bytes(display)
    return display.raw()


def oled_image(display, width=128, height=64, scale=4, ink=INK, paper=PAPER):
    data = _raw(display)
    img = Image.new("RGB", (width, height), paper)
    px = img.load()
    for y in range(height):
        base = (y >> 3) * width
        bit = 1 << (y & 7)
        for x in range(width):
            if data[base + x] & bit:
                px[x, y] = ink
    return img.resize((width * scale, height * scale), Image.NEAREST)


def device_image(display, pixels=None, scale=4, border=None, lift=True):
    """A Pillow image of the display (SimDisplay or MVLSB bytes) and the pixels (SimPixels or a
    list of (r, g, b)) under it. lift maps the LED colours for a screen
    (host_sim.terminal.display_color: dim LEDs brightened, hue kept)."""
    oled = oled_image(display, scale=scale)
    b = border if border is not None else 4 * scale
    strip_h = 0
    colors = None
    if pixels is not None:
        colors = pixels.colors() if hasattr(pixels, "colors") else list(pixels)
        strip_h = 10 * scale
    w = oled.width + 2 * b
    h = oled.height + 2 * b + strip_h
    img = Image.new("RGB", (w, h), CASE)
    img.paste(oled, (b, b))
    if colors:
        d = ImageDraw.Draw(img)
        n = len(colors)
        pitch = oled.width // n
        r = min(pitch // 3, strip_h // 3)
        cy = b + oled.height + strip_h // 2 + b // 2
        for i, c in enumerate(colors):
            cx = b + pitch * i + pitch // 2
            c = display_color(c) if lift else tuple(c)
            fill = c if max(c) > 0 else (20, 20, 22)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=(90, 90, 96))
    return img


def screenshot(path, display, pixels=None, scale=4, border=None, lift=True):
    """Write a PNG of device_image(display, pixels, ...); returns the Pillow image."""
    img = device_image(display, pixels, scale, border, lift)
    img.save(path)
    return img


class GifRecorder:
    """Record a SimDevice's real frames (every change of the display or the LEDs, at the simulated time it
    happened) and write them as an animated GIF: wrap the device, drive it, then save()."""

    def __init__(self, dev, scale=2):
        self.dev = dev
        self.scale = scale
        self.frames = []  # [image, ms at which it appeared]
        self._last = None
        self._step = dev.step
        dev.step = self.step
        self.capture()

    def step(self, *args):
        self._step(*args)
        self.capture()

    def capture(self):
        board = self.dev.board
        key = (bytes(board.display.raw()), tuple(board.pixels.colors()))
        if key != self._last:
            self._last = key
            img = device_image(key[0], key[1], scale=self.scale)
            self.frames.append([img, self.dev.now()])

    def pause(self, ms):
        """Let ms of simulated time pass (the viewer's time to read the screen)."""
        self.dev.run(ms)

    def save(self, path, last_ms=2500):
        """Write the GIF (loops forever); each frame lasts until the next one appeared."""
        from fivedice.ticks import ticks_diff

        frames = self.frames
        durations = []
        for i, (_, t) in enumerate(frames):
            d = ticks_diff(frames[i + 1][1], t) if i + 1 < len(frames) else last_ms
            durations.append(max(20, (d + 5) // 10 * 10))  # GIF delays are in 10 ms units
        # one shared, exact palette (the frames have few colours: OLED ink and paper, case, LED colours)
        colors = set()
        for img, _ in frames:
            colors.update(c for _, c in img.getcolors(maxcolors=1 << 16))
        if len(colors) > 256:
            raise ValueError("%d colours do not fit a GIF palette" % len(colors))
        pal = Image.new("P", (1, 1))
        flat = [v for c in sorted(colors) for v in c]
        pal.putpalette(flat + [0] * (768 - len(flat)))
        images = [f[0].quantize(palette=pal, dither=Image.Dither.NONE) for f in frames]
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True,
                       disposal=1)
        self.dev.step = self._step
        return len(images), sum(durations)
