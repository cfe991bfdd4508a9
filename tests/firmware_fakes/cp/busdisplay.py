"""Fake CircuitPython `busdisplay` core module: BusDisplay, as adafruit_displayio_ssd1306 3.x subclasses it.

Follows shared-module/busdisplay/BusDisplay.c and displayio/bus_core.c for what reaches the bus:
the init sequence (data_as_commands: command + arguments as command bytes), the brightness command,
and on refresh() each dirty area -- clipped, widened to whole 8-row pages for a 1-bit column-packed
display, cut into 4096-pixel sub-rectangles -- as column/row window commands then the packed pixels
(byte = 8 rows of one column, LSB on top). Only that display type is modelled (color_depth 1, grayscale,
pixels_in_byte_share_row False, rotation 0).

refresh() mirrors the real frame-rate logic: with auto_refresh off and a target_frames_per_second,
a call more than one frame period after the previous call is skipped (returns False).
Runs on CPython and MicroPython.
"""
import displayio
import fakehw
from i2cdisplaybus import DISPLAY_COMMAND, DISPLAY_DATA

_BUFFER_PIXELS = 128 * 32  # uint32_t buffer[128] of 1-bit pixels per sub-rectangle


class BusDisplay:
    def __init__(self, display_bus, init_sequence, *, width, height, colstart=0, rowstart=0, rotation=0,
                 color_depth=16, grayscale=False, pixels_in_byte_share_row=True, bytes_per_cell=1,
                 reverse_pixels_in_byte=False, reverse_bytes_in_word=True, set_column_command=0x2A,
                 set_row_command=0x2B, write_ram_command=0x2C, backlight_pin=None, brightness_command=None,
                 brightness=1.0, single_byte_bounds=False, data_as_commands=False, auto_refresh=True,
                 native_frames_per_second=60, backlight_on_high=True, SH1107_addressing=False,
                 backlight_pwm_frequency=50000):
        if color_depth != 1 or not grayscale or pixels_in_byte_share_row or rotation or reverse_pixels_in_byte:
            raise NotImplementedError("the fake BusDisplay models 1-bit column-packed displays (SSD1306) only")
        self._bus = display_bus
        self._w = width
        self._h = height
        self._colstart = colstart
        self._rowstart = rowstart
        self._colcmd = set_column_command
        self._rowcmd = set_row_command
        self._ramcmd = write_ram_command
        self._dac = data_as_commands
        self._root = None
        self._full = True
        self._auto = False
        self._first_manual = not auto_refresh
        self._last_refresh = 0
        self._last_call = 0
        self.refreshes = 0  # refreshes that ran (fake-only counter)
        i = 0
        seq = bytes(init_sequence)
        while i < len(seq):
            cmd = seq[i]
            size = seq[i + 1]
            delay = size & 0x80
            size &= 0x7F
            data = seq[i + 2:i + 2 + size]
            display_bus._begin()
            if data_as_commands:
                display_bus._send(DISPLAY_COMMAND, bytes([cmd]) + data)
            else:
                display_bus._send(DISPLAY_COMMAND, bytes([cmd]))
                display_bus._send(DISPLAY_DATA, data)
            display_bus._end()
            if delay:
                size += 1  # the delay byte; the fake does not wait
            i += 2 + size
        self._brightness = brightness
        self._brightness_command = brightness_command
        self._data_as_commands = data_as_commands
        if brightness_command is not None:
            display_bus._begin()
            level = int(0xFF * brightness)
            if data_as_commands:
                display_bus._send(DISPLAY_COMMAND, bytes([brightness_command, level]))
            else:
                display_bus._send(DISPLAY_COMMAND, bytes([brightness_command]))
                display_bus._send(DISPLAY_DATA, bytes([level]))
            display_bus._end()
        self._auto = auto_refresh
        displayio._displays.append(self)

    @property
    def width(self):
        return self._w

    @property
    def height(self):
        return self._h

    @property
    def rotation(self):
        return 0

    @property
    def bus(self):
        return self._bus

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        """As shared-module/busdisplay: 0.0-1.0; with a brightness_command, that command and int(0xFF * value)."""
        if not 0 <= value <= 1:
            raise ValueError("brightness must be 0.0-1.0")
        self._brightness = value
        if self._brightness_command is not None:
            self._bus._begin()
            level = int(0xFF * value)
            if self._data_as_commands:
                self._bus._send(DISPLAY_COMMAND, bytes([self._brightness_command, level]))
            else:
                self._bus._send(DISPLAY_COMMAND, bytes([self._brightness_command]))
                self._bus._send(DISPLAY_DATA, bytes([level]))
            self._bus._end()

    @property
    def auto_refresh(self):
        return self._auto

    @auto_refresh.setter
    def auto_refresh(self, value):
        self._first_manual = not value
        self._auto = value

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        if group is not None and group._in_group:
            raise ValueError("Group already used")
        if self._root is not None:
            self._root._in_group = False
        self._root = group
        if group is not None:
            group._in_group = True
        self._full = True

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        """Send the changed areas now; False if the frame-rate logic skipped this call."""
        if not self._auto and not self._first_manual and target_frames_per_second is not None:
            now = fakehw.clock[0]
            if minimum_frames_per_second > 0 and now - self._last_refresh > 1000 // minimum_frames_per_second:
                raise RuntimeError("Below minimum frame rate")
            since_call = now - self._last_call
            self._last_call = now
            if since_call > 1000 // target_frames_per_second:
                return False
        self._first_manual = False
        self._refresh()
        return True

    def _release(self):
        self._auto = False
        self._bus.deinit()

    # -- the refresh (BusDisplay.c _refresh_display / _refresh_area) --
    def _refresh(self):
        root = self._root
        if root is None:
            return  # the fake has no terminal to show
        areas = []
        if self._full:
            areas.append((0, 0, self._w, self._h))
        else:
            root._refresh_areas(areas, 0, 0)
        for a in areas:
            self._refresh_area(a)
        root._finish_refresh()
        self._full = False
        self._last_refresh = fakehw.clock[0]
        self.refreshes += 1

    def _refresh_area(self, area):
        x1 = max(0, area[0])
        y1 = max(0, area[1])
        x2 = min(self._w, area[2])
        y2 = min(self._h, area[3])
        if x1 >= x2 or y1 >= y2:
            return
        y1 -= y1 % 8  # whole bytes: 8 rows share a byte
        if y2 % 8:
            y2 += 8 - y2 % 8
        w = x2 - x1
        rows = y2 - y1
        if w * rows > _BUFFER_PIXELS:
            rows = _BUFFER_PIXELS // w
            rows -= rows % 8
            if rows == 0:
                rows = 8
        y = y1
        while y < y2:
            ye = min(y + rows, y2)
            self._set_region(x1, y, x2, ye)
            buf = bytearray(w * ((ye - y) // 8))
            root = self._root
            for yy in range(y, ye):
                bit = 1 << ((yy - y) % 8)
                row = ((yy - y) // 8) * w
                for xx in range(x1, x2):
                    v = root._pixel(xx, yy, 0, 0, 1)
                    if v:
                        buf[row + xx - x1] |= bit
            self._bus._begin()
            if not self._dac:
                self._bus._send(DISPLAY_COMMAND, bytes([self._ramcmd]))
            self._bus._send(DISPLAY_DATA, buf)
            self._bus._end()
            y = ye

    def _set_region(self, x1, y1, x2, y2):
        # displayio_display_bus_set_region_to_update, single-byte bounds, rows collapsed to pages
        c1 = x1 + self._colstart
        c2 = x2 + self._colstart - 1
        p1 = (y1 + self._rowstart) // 8
        p2 = (y2 + self._rowstart) // 8 - 1
        for cmd, a, b in ((self._colcmd, c1, c2), (self._rowcmd, p1, p2)):
            self._bus._begin()
            if self._dac:
                self._bus._send(DISPLAY_COMMAND, bytes([cmd, a, b]))
            else:
                self._bus._send(DISPLAY_COMMAND, bytes([cmd]))
                self._bus._send(DISPLAY_DATA, bytes([a, b]))
            self._bus._end()
