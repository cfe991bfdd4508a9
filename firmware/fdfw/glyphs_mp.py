"""fivedice's text in MicroPython's native code (the viper emitter): the glyphs OR-ed into (c=1)
or cleared from (c=0) a MONO_VLSB frame buffer, the paper left as it is, clipped at its edges:
the very pixels of fdfw.board_mp's blit a glyph, in about a tenth of the time."""
# The deploy compiles this module for the board's CPU (its profile's MPY_ARCH) or leaves it out,
# and board_mp then blits a glyph FrameBuffer a char (docs/building.md). buf: w columns, h rows (a
# multiple of 8), page p's column x at p * w + x; font: fivedice.font.FONT (5 column bytes a char
# from ' ', bit k the glyph's row k). Nothing is allocated.
import micropython


@micropython.viper
def text(buf: ptr8, w: int, h: int, font: ptr8, s: ptr8, n: int, x: int, y: int, c: int) -> int:
    """Chars s[0..n-1] from x, y (top-left); a code outside 32..126 draws as '?'. Returns the x
    after the last char (x + 6 * n), as fivedice.gfx.text does."""
    end = x + 6 * n
    m = y & 7
    p = y >> 3  # the page of the glyph's rows 0..7-m; rows 8-m..7 are the next page's 0..m-1
    pages = h >> 3
    a = p * w  # the first page's column 0, and the next page's
    b = a + w
    up = 0
    if p >= 0 and p < pages:
        up = 1
    down = 0
    if m != 0 and p >= -1 and p < pages - 1:
        down = 1
    i = 0
    while i < n and x < w:
        k = s[i]
        if k < 32 or k > 126:
            k = 63
        o = (k - 32) * 5
        j = 0
        while j < 5:
            xx = x + j
            if xx >= 0 and xx < w:
                col = font[o + j]
                if up:
                    v = (col << m) & 0xFF
                    if c:
                        buf[a + xx] = buf[a + xx] | v
                    else:
                        buf[a + xx] = buf[a + xx] & (0xFF ^ v)
                if down:
                    v = col >> (8 - m)
                    if c:
                        buf[b + xx] = buf[b + xx] | v
                    else:
                        buf[b + xx] = buf[b + xx] & (0xFF ^ v)
            j += 1
        x += 6
        i += 1
    return end


@micropython.viper
def number(buf, w: int, h: int, font, digits, v: int, x: int, y: int, c: int, right) -> int:
    """Int v in decimal ('-' first when negative) from x, y, as fivedice.gfx.number draws it;
    digits: a bytearray of 11 or more (its chars). Returns the x after it; with right true, x is
    where its advance ends and the left x is returned (fivedice.gfx.number_right)."""
    d = ptr8(digits)
    k = 0
    if v < 0:
        d[0] = 45  # '-'
        k = 1
        v = 0 - v
    i = k  # the digits, last first, then turned round
    while True:
        d[k] = 48 + v % 10
        v = v // 10
        k += 1
        if v == 0:
            break
    j = k - 1
    while i < j:
        t = d[i]
        d[i] = d[j]
        d[j] = t
        i += 1
        j -= 1
    if right:
        x -= 6 * k
        text(buf, w, h, font, digits, k, x, y, c)
        return x
    return int(text(buf, w, h, font, digits, k, x, y, c))


@micropython.viper
def sprite(buf: ptr8, w: int, h: int, spr: ptr8, sw: int, sh: int, x: int, y: int):
    """MONO_VLSB sprite spr (sw columns, sh rows up to 24) over buf from x, y: every pixel of its
    rectangle copied, the rows around it kept, clipped at buf's edges, as FrameBuffer.blit without
    a key (the dice: five a frame, per pixel in framebuf's blit)."""
    sp = (sh + 7) >> 3  # the sprite's pages
    m = y & 7
    p0 = y >> 3  # the page of the sprite's first row
    pages = h >> 3
    mask = ((1 << sh) - 1) << m
    j = 0
    while j < sw:
        xx = x + j
        if xx >= 0 and xx < w:
            col = 0  # the column's rows, shifted to the frame's page rows
            t = 0
            while t < sp:
                col = col | (spr[t * sw + j] << (8 * t))
                t += 1
            col = (col << m) & mask
            t = 0
            while t <= sp:
                q = p0 + t
                mk = (mask >> (8 * t)) & 0xFF
                if mk != 0 and q >= 0 and q < pages:
                    i = q * w + xx
                    buf[i] = (buf[i] & (0xFF ^ mk)) | ((col >> (8 * t)) & mk)
                t += 1
        j += 1
