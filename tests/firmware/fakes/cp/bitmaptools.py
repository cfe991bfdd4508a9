"""Fake CircuitPython `bitmaptools` core module: fill_region and blit, with the argument checks of
shared-bindings/bitmaptools/__init__.c (coordinates out of range raise ValueError, they are not
clipped) and the dirty-area updates of shared-module/bitmaptools/__init__.c.

`calls` counts the calls by name (the frame benchmark reads it). Runs on CPython and MicroPython.
"""

calls = {"fill_region": 0, "blit": 0}
pixels = [0]  # pixels written or visited, summed over calls (for the benchmark's C-time estimate)


def _range(v, lo, hi, name):
    if v < lo or v > hi:
        raise ValueError(name + " must be " + str(lo) + "-" + str(hi))
    return v


def _value(bitmap, value):
    if value < 0 or value >> bitmap.bits_per_value:
        raise ValueError("out of range of target")


def fill_region(dest_bitmap, x1, y1, x2, y2, value):
    """Fill the rectangle x1 <= x < x2, y1 <= y < y2 with palette index value."""
    calls["fill_region"] += 1
    _value(dest_bitmap, value)
    _range(x1, 0, dest_bitmap.width, "x1")
    _range(x2, x1, dest_bitmap.width, "x2")
    _range(y1, 0, dest_bitmap.height, "y1")
    _range(y2, y1, dest_bitmap.height, "y2")
    dest_bitmap._dirty(x1, y1, x2, y2)
    pixels[0] += (x2 - x1) * (y2 - y1)
    for x in range(x1, x2):  # no bound methods kept: this allocates nothing on MicroPython
        for y in range(y1, y2):
            dest_bitmap._write(x, y, value)


def blit(dest_bitmap, source_bitmap, x, y, *, x1=0, y1=0, x2=None, y2=None, skip_source_index=None,
         skip_dest_index=None):
    """Copy source_bitmap's rectangle (x1, y1)-(x2, y2) to (x, y) of dest_bitmap; source pixels equal to
    skip_source_index, and destination pixels equal to skip_dest_index, are left as they are."""
    calls["blit"] += 1
    _range(x, 0, dest_bitmap.width, "x")
    _range(y, 0, dest_bitmap.height, "y")
    _range(x1, 0, source_bitmap.width, "x1")
    x2 = source_bitmap.width if x2 is None else _range(x2, x1, source_bitmap.width, "x2")
    _range(y1, 0, source_bitmap.height, "y1")
    y2 = source_bitmap.height if y2 is None else _range(y2, y1, source_bitmap.height, "y2")
    if dest_bitmap.bits_per_value < source_bitmap.bits_per_value:
        raise ValueError("source palette too large")
    xm = min(x + x2 - x1, dest_bitmap.width)
    ym = min(y + y2 - y1, dest_bitmap.height)
    dest_bitmap._dirty(x, y, xm, ym)
    pixels[0] += (xm - x) * (ym - y)
    for i in range(xm - x):
        for j in range(ym - y):
            v = source_bitmap._get(x1 + i, y1 + j)
            if skip_source_index is not None and v == skip_source_index:
                continue
            if skip_dest_index is not None and dest_bitmap._get(x + i, y + j) == skip_dest_index:
                continue
            dest_bitmap._write(x + i, y + j, v)


def reset_counts():
    calls["fill_region"] = 0
    calls["blit"] = 0
    pixels[0] = 0
