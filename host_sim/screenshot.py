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


def screenshot(path, display, pixels=None, scale=4, border=None, lift=True):
    """Write a PNG of the display (SimDisplay or MVLSB bytes) and the pixels (SimPixels
    or a list of (r, g, b)); returns the Pillow image. lift maps the LED colours for a
    screen (host_sim.terminal.display_color: dim LEDs brightened, hue kept)."""
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
    img.save(path)
    return img
