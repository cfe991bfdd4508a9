"""Fake save media that can lose power at any byte or step: CircuitPython's `microcontroller.nvm` on an
RP2040 and a small file system with LittleFS or FAT rename rules. Plain Python: runs on CPython and on
the MicroPython unix port.

Power: every event that changes the medium (one byte programmed or written, one erase, one file-system
step) calls power.tick(). power.cut_after(k) lets k more events happen and then raises PowerCut (a
BaseException, so no `except OSError` in the code under test can swallow it); from then on every event
raises again, so nothing more reaches the medium until power.restore().

FakeNvm models ports/raspberrypi/common-hal/nvm/ByteArray.c: len(); nvm[i] and nvm[a:b] (a new bytearray;
only step 1); nvm[a:b] = buffer (bytes/bytearray/memoryview of exactly b-a bytes, else ValueError).
A slice assignment over bytes that are all 0xFF is programmed in place byte by byte (a cut leaves the
bytes before it programmed, the byte under the cut half-programmed: only its low nibble's zero bits set,
the rest 0xFF); any other assignment erases the whole 4 KB sector (two events: a cut before the erase leaves the
sector as it was, a cut during it leaves every byte between its old value and 0xFF) and then programs the
merged sector image in order from the sector's first byte, as flash_range_program does page by page (one event per byte that is not 0xFF; programming 0xFF over
an erased byte changes nothing, so it is not a separate cut point).

FakeFS: files are bytearrays keyed by path. open "rb", "wb" (two events: open, truncate), "r+b";
f.write(data) is one event per byte; flush and close are one event each; rename and remove one each.
rename_over=True is LittleFS (replaces an existing target); False is FAT (OSError EEXIST).
torn="old": a cut mid-write leaves the bytes before it and the file as it was after them (a prefix);
torn="ff": the rest of that write's range reads 0xFF (a flash sector erased but not yet programmed),
the harsher model used for FAT on flash. This is pessimistic for LittleFS, whose writes only become
visible at close. readonly=True refuses every change with EROFS; capacity=N refuses to hold more than
N bytes in all files with ENOSPC (after the bytes that fit).
"""


class PowerCut(BaseException):
    pass


class Power:
    def __init__(self):
        self.left = -1  # events still allowed; -1 = no cut armed
        self.dead = False
        self.events = 0

    def cut_after(self, k):
        self.left = k
        self.dead = False

    def restore(self):
        self.left = -1
        self.dead = False

    def tick(self):
        if self.dead or self.left == 0:
            self.dead = True
            raise PowerCut()
        if self.left > 0:
            self.left -= 1
        self.events += 1


class FakeNvm:
    def __init__(self, size=4096, power=None, sector=4096):
        self.data = bytearray(b"\xff" * size)
        self.power = power if power is not None else Power()
        self.sector = min(sector, size)  # a smaller nvm (a SAMD21 has 256 bytes) is one erase unit here
        self.erases = 0
        self.programmed = 0  # bytes programmed (not counting 0xFF over erased bytes)
        self.assignments = 0
        self.cut_in_rewrite = False  # set when a cut hits a sector erase-and-rewrite (the known window)
        # The board's C code writes from the caller's buffer and rewrites a sector through a buffer on the C
        # stack, never the Python heap: the fake's copies are made here, once, so that the heap proxy
        # (tests/bench/board_heap.py) does not count 4 KB per rewrite that a board does not spend.
        self._image = bytearray(self.sector)
        self._value = bytearray(size)

    def __len__(self):
        return len(self.data)

    def _range(self, key):
        start, stop, step = key.start, key.stop, key.step
        n = len(self.data)
        if step not in (None, 1):
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        start = 0 if start is None else (start + n if start < 0 else start)
        stop = n if stop is None else (stop + n if stop < 0 else stop)
        start = max(0, min(n, start))
        stop = max(start, min(n, stop))
        return start, stop

    def __getitem__(self, key):
        if isinstance(key, slice):
            a, b = self._range(key)
            return bytearray(self.data[a:b])
        return self.data[key]

    def __setitem__(self, key, value):
        if not isinstance(key, slice):
            if not 0 <= value <= 255:
                raise ValueError("Bytes must be 0-255.")
            key = slice(key, key + 1)
            value = bytes([value])
        a, b = self._range(key)
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise NotImplementedError("array/bytes required on right side")
        if len(value) != b - a:
            raise ValueError("Slice and value different lengths.")
        v = memoryview(self._value)[:b - a]
        v[:] = value  # a copy, as the C code reads the caller's buffer before it touches the flash
        self.assignments += 1
        blank = True
        for i in range(a, b):
            if self.data[i] != 0xFF:
                blank = False
                break
        if blank:
            self._program(a, v)
        else:
            self._erase_and_write(a, v)

    def _program(self, a, value):
        for j in range(len(value)):
            v = value[j]
            if v == 0xFF:
                continue
            try:
                self.power.tick()
            except PowerCut:
                self.data[a + j] &= v | 0xF0  # half-programmed
                raise
            self.data[a + j] &= v
            self.programmed += 1

    def _erase_and_write(self, a, value):
        base = (a // self.sector) * self.sector
        image = self._image
        image[:] = memoryview(self.data)[base:base + self.sector]
        image[a - base:a - base + len(value)] = value
        self.power.tick()  # the erase command: a cut before it leaves the sector as it was
        try:
            # during the erase bits go to 1 unevenly: a cut here leaves every byte somewhere between its
            # old value and 0xFF (old | a fixed pseudo-random mask), neither the old sector nor a blank one
            x = 0x2545F491
            for i in range(base, base + self.sector):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                self.data[i] |= (x >> 16) & 0xFF
            self.power.tick()
            for i in range(base, base + self.sector):
                self.data[i] = 0xFF
            self.erases += 1
            self._program(base, image)
        except PowerCut:
            self.cut_in_rewrite = True
            raise

    # media snapshots for the power-cut harness
    def snapshot(self):
        return bytes(self.data)

    def restore(self, snap):
        self.data[:] = snap


class _File:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        self.mode = mode
        self.pos = 0
        self.closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def read(self, n=-1):
        data = self.fs.files[self.path]
        end = len(data) if n is None or n < 0 else min(len(data), self.pos + n)
        self.fs.largest_read = max(self.fs.largest_read, end - self.pos)
        out = bytes(data[self.pos:end])
        self.pos = end
        return out

    def seek(self, pos, whence=0):
        self.pos = pos if whence == 0 else (self.pos + pos if whence == 1 else len(self.fs.files[self.path]) + pos)
        return self.pos

    def write(self, value):
        if "r" in self.mode and "+" not in self.mode:
            raise OSError(9, "EBADF")
        fs = self.fs
        data = fs.files[self.path]
        value = bytes(value)
        start = self.pos
        for j in range(len(value)):
            if fs.capacity is not None and self.pos >= len(data) and fs.used() >= fs.capacity:
                raise OSError(28, "ENOSPC")
            try:
                fs.power.tick()
            except PowerCut:
                if fs.torn == "ff":
                    for i in range(start + j, start + len(value)):
                        if i < len(data):
                            data[i] = 0xFF
                        else:
                            data.append(0xFF)
                raise
            if self.pos < len(data):
                data[self.pos] = value[j]
            else:
                data.append(value[j])
            self.pos += 1
            fs.written += 1
        return len(value)

    def flush(self):
        self.fs.step("flush")

    def close(self):
        if not self.closed:
            self.closed = True
            if "w" in self.mode or "+" in self.mode:
                self.fs.step("close")


class FakeFS:
    def __init__(self, power=None, rename_over=True, torn="old", readonly=False, capacity=None):
        self.files = {}
        self.power = power if power is not None else Power()
        self.rename_over = rename_over
        self.torn = torn
        self.readonly = readonly
        self.capacity = capacity
        self.steps = {}
        self.written = 0
        self.largest_read = 0

    def used(self):
        return sum(len(v) for v in self.files.values())

    def step(self, name):
        self.power.tick()
        self.steps[name] = self.steps.get(name, 0) + 1

    def _change(self):
        if self.readonly:
            raise OSError(30, "EROFS")

    def open(self, path, mode="r"):
        if "w" in mode:
            self._change()
            self.step("open")
            self.step("truncate")
            self.files[path] = bytearray()
        elif path not in self.files:
            raise OSError(2, "ENOENT")
        elif "+" in mode:
            self._change()
            self.step("open")
        return _File(self, path, mode)

    def stat(self, path):
        if path not in self.files:
            raise OSError(2, "ENOENT")
        return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)

    def remove(self, path):
        self._change()
        if path not in self.files:
            raise OSError(2, "ENOENT")
        self.step("remove")
        del self.files[path]

    def rename(self, src, dst):
        self._change()
        if src not in self.files:
            raise OSError(2, "ENOENT")
        if dst in self.files and not self.rename_over:
            raise OSError(17, "EEXIST")
        self.step("rename")
        self.files[dst] = self.files.pop(src)

    def snapshot(self):
        return dict((k, bytes(v)) for k, v in self.files.items())

    def restore(self, snap):
        self.files = dict((k, bytearray(v)) for k, v in snap.items())
