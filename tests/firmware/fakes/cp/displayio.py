"""Fake CircuitPython `displayio` core module (CircuitPython 9/10 API): Bitmap, Palette, TileGrid, Group,
release_displays. Mirrors shared-bindings/displayio and shared-module/displayio: a Bitmap keeps its pixels
in rows padded to 32-bit words (1-bit values MSB-first in each byte) and exposes them through the buffer
protocol (memoryview(bitmap)), and tracks one dirty rectangle that a display refresh sends and clears.

Runs on CPython and on the MicroPython unix port (plain classes; Bitmap subclasses bytearray so that
memoryview() works on both). fdfw.board_cp uses the Bitmap and release_displays; Palette, TileGrid and
Group are kept as the module has them, modelled where simple: a Group's scale is 1, a TileGrid is not flipped
or transposed.
"""

_displays = []  # BusDisplay objects alive (released by release_displays)


def release_displays():
    """Release every display and its bus, so their pins can be used again."""
    for d in _displays:
        d._release()
    del _displays[:]
    import fakehw

    if fakehw.board_display[0] is not None:  # the board's own (the MacroPad's board.DISPLAY)
        fakehw.board_display[0].release()


def _bits_for(value_count):
    if value_count < 1 or value_count > 0xFFFFFFFF:
        raise ValueError("value_count must be > 0")
    bits = 1
    while (value_count - 1) >> bits:
        if bits < 8:
            bits <<= 1
        else:
            bits += 8
    if bits > 8 and bits != 16 and bits != 32:
        bits = 16 if bits < 16 else 32
    return bits


class Bitmap(bytearray):
    """A 2D pixel map of palette indexes: Bitmap(width, height, value_count)."""

    def __init__(self, width, height, value_count):
        bits = _bits_for(value_count)
        stride = (width * bits + 31) // 32  # in 32-bit words, as CircuitPython aligns rows
        super().__init__(stride * 4 * height)
        self._w = width
        self._h = height
        self._bits = bits
        self._row = stride * 4
        self._mv = memoryview(self)
        self._deinited = False
        self._dirty(0, 0, width, height)  # a new bitmap is all dirty

    @property
    def width(self):
        return self._w

    @property
    def height(self):
        return self._h

    @property
    def bits_per_value(self):
        return self._bits

    # -- pixel access (shared-module/displayio/Bitmap.c) --
    def _get(self, x, y):
        if x < 0 or y < 0 or x >= self._w or y >= self._h:
            return 0
        bits = self._bits
        base = y * self._row
        if bits < 8:
            per = 8 // bits
            b = self._mv[base + x // per]
            return (b >> ((per - (x % per) - 1) * bits)) & ((1 << bits) - 1)
        n = bits // 8
        v = 0
        for k in range(n):
            v |= self._mv[base + x * n + k] << (8 * k)
        return v

    def _write(self, x, y, value):
        if x < 0 or y < 0 or x >= self._w or y >= self._h:
            return
        bits = self._bits
        base = y * self._row
        if bits < 8:
            per = 8 // bits
            i = base + x // per
            shift = (per - (x % per) - 1) * bits
            mask = ((1 << bits) - 1) << shift
            self._mv[i] = (self._mv[i] & ~mask & 0xFF) | ((value << shift) & mask)
            return
        n = bits // 8
        for k in range(n):
            self._mv[base + x * n + k] = (value >> (8 * k)) & 0xFF

    def _dirty(self, x1, y1, x2, y2):
        # union with the current dirty area, clipped to the bitmap (displayio_bitmap_set_dirty_area)
        if x1 > x2:
            x1, x2 = x2, x1
        if y1 > y2:
            y1, y2 = y2, y1
        if getattr(self, "_dx1", None) is not None and self._dx1 != self._dx2:
            x1 = min(x1, self._dx1)
            y1 = min(y1, self._dy1)
            x2 = max(x2, self._dx2)
            y2 = max(y2, self._dy2)
        self._dx1 = max(0, x1)
        self._dy1 = max(0, y1)
        self._dx2 = min(self._w, x2)
        self._dy2 = min(self._h, y2)
        if self._dx1 >= self._dx2 or self._dy1 >= self._dy2:
            self._dx1 = self._dx2 = 0

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    # item access allocates nothing for an int index (a tuple index is built by the caller)
    def _x(self, index):
        if type(index) is tuple:
            x = index[0]
            if x < 0 or x >= self._w or index[1] < 0 or index[1] >= self._h:
                raise IndexError("index out of range")
            return x
        if index < 0 or index >= self._w * self._h:
            raise IndexError("index out of range")
        return index % self._w

    def _y(self, index):
        if type(index) is tuple:
            return index[1]
        return index // self._w

    def __getitem__(self, index):
        self._check()
        x = self._x(index)
        return self._get(x, self._y(index))

    def __setitem__(self, index, value):
        self._check()
        x = self._x(index)
        y = self._y(index)
        if value < 0 or value >> self._bits:
            raise ValueError("value out of range of target")
        self._dirty(x, y, x + 1, y + 1)
        self._write(x, y, value)

    def fill(self, value):
        self._check()
        if value < 0 or value >> self._bits:
            raise ValueError("value out of range of target")
        self._dirty(0, 0, self._w, self._h)
        word = 0
        per = 8 // self._bits if self._bits < 8 else 0
        if per:
            for k in range(per):
                word |= value << (k * self._bits)
            for i in range(len(self._mv)):
                self._mv[i] = word
        else:
            for y in range(self._h):
                for x in range(self._w):
                    self._write(x, y, value)

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        """Mark a region as changed after writing through the buffer protocol."""
        if x2 == -1:
            x2 = self._w
        if y2 == -1:
            y2 = self._h
        self._dirty(x1, y1, x2, y2)

    def deinit(self):
        self._deinited = True

    def _finish_refresh(self):
        self._dx1 = self._dx2 = 0


def _luma(rgb):
    # displayio_colorconverter_compute_luma
    r = (rgb >> 16) & 0xFF
    g = (rgb >> 8) & 0xFF
    b = rgb & 0xFF
    return (r * 19 + g * 182 + b * 54) // 255


class Palette:
    """Palette(color_count, *, dither=False): palette index -> 0xRRGGBB colour (or transparent)."""

    def __init__(self, color_count, *, dither=False):
        if color_count < 1 or color_count > 0x7FFFFFFF:
            raise ValueError("color_count must be >= 1")
        self._colors = [0] * color_count
        self._transparent = [False] * color_count
        self.dither = dither
        self._changed = True

    def __len__(self):
        return len(self._colors)

    def _color(self, value):
        if type(value) is int:
            return value & 0xFFFFFF
        if len(value) != 3:
            raise ValueError("color buffer must be 3 bytes (RGB) or 4 bytes (RGB + pad byte)")
        return (value[0] << 16) | (value[1] << 8) | value[2]

    def __setitem__(self, index, value):
        self._colors[index] = self._color(value)
        self._changed = True

    def __getitem__(self, index):
        return self._colors[index]

    def make_transparent(self, palette_index):
        self._transparent[palette_index] = True
        self._changed = True

    def make_opaque(self, palette_index):
        self._transparent[palette_index] = False
        self._changed = True

    def is_transparent(self, palette_index):
        return self._transparent[palette_index]

    def _pixel(self, index, depth):
        """The display pixel for a palette index on a grayscale display of `depth` bits, or None."""
        if index >= len(self._colors) or self._transparent[index]:
            return None
        return _luma(self._colors[index]) >> (8 - depth)


class TileGrid:
    """TileGrid(bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
    default_tile=0, x=0, y=0): shows tiles of a bitmap through a palette."""

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        if tile_width is None:
            tile_width = bitmap.width
        if tile_height is None:
            tile_height = bitmap.height
        if bitmap.width % tile_width != 0:
            raise ValueError("Tile width must exactly divide bitmap width")
        if bitmap.height % tile_height != 0:
            raise ValueError("Tile height must exactly divide bitmap height")
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self._tw = tile_width
        self._th = tile_height
        self._cols = width
        self._rows = height
        self._tiles = bytearray(width * height)
        for i in range(width * height):
            self._tiles[i] = default_tile
        self._x = x
        self._y = y
        self.hidden = False
        self._in_group = False
        self._first = True  # the first refresh draws it whole
        self._moved = False

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, v):
        if v != self._x:
            self._x = v
            self._moved = True

    @property
    def y(self):
        return self._y

    @y.setter
    def y(self, v):
        if v != self._y:
            self._y = v
            self._moved = True

    @property
    def tile_width(self):
        return self._tw

    @property
    def tile_height(self):
        return self._th

    @property
    def width(self):
        return self._cols

    @property
    def height(self):
        return self._rows

    def __getitem__(self, index):
        if type(index) is tuple:
            index = index[1] * self._cols + index[0]
        return self._tiles[index]

    def __setitem__(self, index, value):
        if type(index) is tuple:
            index = index[1] * self._cols + index[0]
        self._tiles[index] = value
        self._moved = True  # a tile change redraws the grid

    # -- rendering, for the fake display --
    def _area(self, ox, oy):
        x = ox + self._x
        y = oy + self._y
        return (x, y, x + self._cols * self._tw, y + self._rows * self._th)

    def _refresh_areas(self, out, ox, oy):
        if self.hidden:
            return
        bm = self.bitmap
        if self._first or self._moved or self.pixel_shader._changed:
            out.append(self._area(ox, oy))
        elif bm._dx1 != bm._dx2:
            if self._cols * self._rows == 1 and self._tw == bm.width and self._th == bm.height:
                # a grid showing one whole bitmap refreshes only the bitmap's dirty rectangle
                x = ox + self._x
                y = oy + self._y
                out.append((x + bm._dx1, y + bm._dy1, x + bm._dx2, y + bm._dy2))
            else:
                out.append(self._area(ox, oy))

    def _finish_refresh(self):
        self._first = False
        self._moved = False
        self.pixel_shader._changed = False
        self.bitmap._finish_refresh()

    def _pixel(self, px, py, ox, oy, depth):
        if self.hidden:
            return None
        lx = px - ox - self._x
        ly = py - oy - self._y
        if lx < 0 or ly < 0 or lx >= self._cols * self._tw or ly >= self._rows * self._th:
            return None
        tile = self._tiles[(ly // self._th) * self._cols + lx // self._tw]
        per_row = self.bitmap.width // self._tw
        bx = (tile % per_row) * self._tw + lx % self._tw
        by = (tile // per_row) * self._th + ly % self._th
        return self.pixel_shader._pixel(self.bitmap._get(bx, by), depth)


class Group:
    """Group(*, scale=1, x=0, y=0): layers drawn in order (the last one on top)."""

    def __init__(self, *, scale=1, x=0, y=0):
        if scale != 1:
            raise NotImplementedError("the fake displayio.Group models scale=1 only")
        self.scale = scale
        self.x = x
        self.y = y
        self.hidden = False
        self._items = []
        self._in_group = False

    def append(self, layer):
        self.insert(len(self._items), layer)

    def insert(self, index, layer):
        if layer._in_group:
            raise ValueError("Layer already in a group")
        layer._in_group = True
        self._items.insert(index, layer)

    def remove(self, layer):
        self._items.remove(layer)
        layer._in_group = False

    def pop(self, i=-1):
        layer = self._items.pop(i)
        layer._in_group = False
        return layer

    def index(self, layer):
        return self._items.index(layer)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def _refresh_areas(self, out, ox, oy):
        if self.hidden:
            return
        for layer in self._items:
            layer._refresh_areas(out, ox + self.x, oy + self.y)

    def _finish_refresh(self):
        for layer in self._items:
            layer._finish_refresh()

    def _pixel(self, px, py, ox, oy, depth):
        if self.hidden:
            return None
        for i in range(len(self._items) - 1, -1, -1):
            v = self._items[i]._pixel(px, py, ox + self.x, oy + self.y, depth)
            if v is not None:
                return v
        return None
