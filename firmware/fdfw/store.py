"""Where the game is saved, with the store protocol of fivedice.app.App: read() -> bytes or None,
write(data) (OSError when it cannot save), and set_aside() for a save the app cannot read.

Every backend stores fdfw.record records (magic, kind, sequence number, length, CRC-32); read() returns
the payload of the newest valid save record, so a record torn by a power cut is simply not found and
the one before it is. Nothing is ever removed or renamed, and a record is only ever written over one
that is older than the newest valid save.

NvmStore (CircuitPython): a log of records in `microcontroller.nvm`, so CIRCUITPY stays writable by the
computer (boot.py does not remount it). On the RP2040, nvm is one 4 KB flash sector and CircuitPython
programs a slice in place when every byte under it is still erased (0xFF), and otherwise erases the
whole sector and writes it back (ports/raspberrypi/common-hal/nvm/ByteArray.c). So a save appends its
record behind the last one (a page program, no erase, the older records untouched) and only when the
sector is full does one save rewrite it holding just that save and the set-aside copy: one erase every
~28-50 saves, and the only moment a power cut can lose the saved game (see README, "Saves and power cuts").
A save from the file-based firmware (`/fivedice.sav`, now read-only to code) is read once, while the nvm
holds no record; after that it is ignored.

FileStore (MicroPython, LittleFS): two slot files `<path>.0` and `<path>.1` written alternately; a save
goes to the slot that does not hold the newest valid record, so a cut at any byte or step of a write
leaves the other slot intact (no rename, which FAT could not do over an existing file anyway).

set_aside() keeps a copy of the unreadable save, as a KIND_ASIDE record (in nvm, or `<path>.bad`), never
overwritten by later saves; read() then returns None for it. A store that cannot save prints one plain
line, once, and raises OSError (the app shows "Could not save"); whatever was stored stays as it was.
"""
import os

from fdfw import record
from fivedice.compat import const


_ALIGN = const(16)  # records start on 16-byte boundaries so a reader can step over a torn one
_MIN_NVM = const(256)  # a 60-120 byte save plus room to append; smaller nvm (SAMD21: 256 B) is still usable


_FF = b"\xff" * 64
_TALLY = const(8)  # strikes kept, at most


def _up(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


class _Base:
    def __init__(self, where):
        self.where = where
        self.error = None
        self.writes = 0

    # Strikes (fdfw.recover): failures of the app on the save as it stands. A successful save clears
    # them, since the game has moved on from the state that failed.
    def strikes(self):
        return 0

    def strike(self):
        pass

    def clear_strikes(self):
        pass

    def _fail(self, why, code=5):
        if self.error is None:
            self.error = "cannot save the game to " + self.where + " (" + why + ")"
            print("fivedice: " + self.error)
        raise OSError(code, why)


class NvmStore(_Base):
    """Records appended in `nvm` (microcontroller.nvm or a fake with len, slicing and slice assignment)."""

    def __init__(self, nvm, legacy=None, start=0, size=None):
        _Base.__init__(self, "microcontroller.nvm")
        self.nvm = nvm
        self.legacy = legacy
        self._s = start
        n = 0
        if nvm is not None:
            n = len(nvm) - start if size is None else size
        self._tally = -1
        if n >= _MIN_NVM + _TALLY:
            # the last _TALLY bytes count strikes: one byte programmed 0xFF -> 0x00 per strike (no erase)
            n -= _TALLY
            self._tally = start + n
        self._n = n
        self._scanned = False
        self._buf = None
        if nvm is None:
            self._fail_now("this board has no microcontroller.nvm")
        elif n < _MIN_NVM:
            self._fail_now("microcontroller.nvm has %d bytes, fivedice needs %d" % (n, _MIN_NVM))
        else:
            self._buf = bytearray(n)  # the sector image for a rewrite, allocated once at start-up

    def _fail_now(self, why):
        self.error = "cannot save the game: " + why + "; the game runs without saving"
        print("fivedice: " + self.error)

    # -- scanning -------------------------------------------------------------------------------------
    def _scan(self):
        """Walk the records: the newest save and set-aside record, the highest sequence, the append point."""
        nvm, s, n = self.nvm, self._s, self._n
        self._save = None  # (seq, offset, payload length, crc)
        self._aside = None
        self._seq = -1
        # past the last byte that is not 0xFF nothing was ever written: the walk stops there, and the
        # append point is at or after it, so appending never lands on a programmed byte (never erases)
        limit = n
        while limit > 0:
            lo = max(0, limit - 256)
            chunk = nvm[s + lo:s + limit]
            i = len(chunk) - 1
            while i >= 0 and chunk[i] == 0xFF:
                i -= 1
            if i >= 0:
                limit = _up(lo + i + 1)
                break
            limit = lo
        o = 0
        end = 0
        while o < limit and o + record.HEADER <= n:
            h = record.parse_header(nvm[s + o:s + o + record.HEADER])
            if h is None or o + record.size(h[2]) > n:
                o += _ALIGN  # a torn or foreign header: look for the next record on the next boundary
                continue
            kind, seq, ln = h
            rec = nvm[s + o:s + o + record.size(ln)]
            if record.valid(rec, ln):
                found = (seq, o, ln, record.check_value(rec, ln))
                if seq > self._seq:
                    self._seq = seq
                if kind == record.KIND_SAVE:
                    if self._save is None or seq >= self._save[0]:
                        self._save = found
                elif self._aside is None or seq >= self._aside[0]:
                    self._aside = found
            o += _up(record.size(ln))  # a torn record with a whole header is stepped over as a whole
            end = o
        self._end = min(max(end, limit), n)
        self._scanned = True

    def _ensure(self):
        if not self._scanned:
            self._scan()

    def _payload(self, found):
        seq, o, ln, _ = found
        rec = self.nvm[self._s + o:self._s + o + record.size(ln)]
        return record.payload(rec, ln)

    # -- protocol -------------------------------------------------------------------------------------
    def read(self):
        if self.nvm is None or self._n < _MIN_NVM:
            return _read_legacy(self.legacy)
        self._ensure()
        if self._save is None and self._aside is None:
            return _read_legacy(self.legacy)  # nvm never written by this firmware: the old save file, if any
        if self._save is None:
            return None
        if self._aside is not None and self._aside[0] == self._save[0]:
            return None  # this save was set aside (a set-aside copy keeps the sequence number it had)
        return self._payload(self._save)

    def write(self, data):
        if self._buf is None:
            raise OSError(5, self.error)
        self._ensure()
        self._put(record.encode(self._seq + 1, data), keep_aside=True)
        self.writes += 1
        if self._tally >= 0 and self.nvm[self._tally] != 0xFF:
            self.clear_strikes()

    def strikes(self):
        if self._tally < 0:
            return 0
        t = self.nvm[self._tally:self._tally + _TALLY]
        return sum(1 for b in t if b == 0)

    def strike(self):
        if self._tally < 0:
            return
        t = self.nvm[self._tally:self._tally + _TALLY]
        for i in range(_TALLY):
            if t[i] == 0xFF:
                try:
                    self.nvm[self._tally + i:self._tally + i + 1] = b"\x00"  # a program, no erase
                except (RuntimeError, ValueError, OSError):
                    pass
                return

    def clear_strikes(self):
        if self._tally < 0 or self.strikes() == 0:
            return
        try:
            self.nvm[self._tally:self._tally + _TALLY] = _FF[:_TALLY]  # one sector erase, after a failure only
        except (RuntimeError, ValueError, OSError):
            pass

    def set_aside(self):
        """Keep the save read() returned as a set-aside record (the newest one replaces an older copy)."""
        if self._buf is None:
            return
        self._ensure()
        if self._save is not None:
            seq = self._save[0]
            data = self._payload(self._save)
        else:
            seq = self._seq + 1
            data = _read_legacy(self.legacy)
            if data is None:
                return
        try:
            self._put(record.encode(seq, data, record.KIND_ASIDE), keep_aside=False)
        except OSError:
            pass

    def _put(self, rec, keep_aside):
        nvm, s, n = self.nvm, self._s, self._n
        total = _up(len(rec))
        try:
            if self._end + total <= n:
                nvm[s + self._end:s + self._end + len(rec)] = rec  # program only: all 0xFF under it
                o = self._end
                self._end += total
            else:
                o = self._rewrite(rec, keep_aside)
        except (RuntimeError, ValueError, OSError) as e:  # RuntimeError: "Unable to write to nvm."
            self._scanned = False
            code = e.args[0] if isinstance(e, OSError) and e.args and isinstance(e.args[0], int) else 5
            why = e.args[-1] if e.args else "nvm write failed"
            self._fail(str(why), code)
        kind, seq, ln = record.parse_header(rec)
        found = (seq, o, ln, record.check_value(rec, ln))
        self._seq = max(self._seq, seq)
        if kind == record.KIND_SAVE:
            self._save = found
        else:
            self._aside = found

    def _rewrite(self, rec, keep_aside):
        """The sector is full: one erase, then the new record first and the set-aside copy after it."""
        buf = self._buf
        aside = None
        if keep_aside and self._aside is not None:
            seq, o, ln, _ = self._aside
            aside = self.nvm[self._s + o:self._s + o + record.size(ln)]
        need = _up(len(rec)) + (_up(len(aside)) if aside is not None else 0)
        if need > self._n:
            raise OSError(28, "a save of %d bytes does not fit in %d bytes of nvm" % (len(rec), self._n))
        for i in range(0, len(buf), len(_FF)):
            buf[i:i + len(_FF)] = _FF[:len(buf) - i] if len(buf) - i < len(_FF) else _FF
        buf[0:len(rec)] = rec
        self._end = _up(len(rec))
        if aside is not None:
            buf[self._end:self._end + len(aside)] = aside
            self._aside = (self._aside[0], self._end, self._aside[2], self._aside[3])
            self._end += _up(len(aside))
        else:
            self._aside = None
        self._save = None
        self.nvm[self._s:self._s + self._n] = buf
        return 0


class FileStore(_Base):
    """Two slot files `<path>.0` / `<path>.1`; the legacy single file `<path>` is read while neither holds
    a record. fs: an object with open/stat (os plus builtins by default; tests pass a fake)."""

    def __init__(self, path, fs=None):
        _Base.__init__(self, path)
        self.path = path
        self.slots = (path + ".0", path + ".1")
        self.bad = path + ".bad"
        self.tally = path + ".strikes"  # one byte per strike
        self._strikes = None  # the tally file's count, once read
        self._fs = fs
        self._open = fs.open if fs is not None else open
        self._stat = fs.stat if fs is not None else os.stat
        self._last = None  # (slot of the newest save, highest sequence) once known

    def _load(self, p):
        """(kind, seq, payload length, crc, record bytes) of the record in file p, or None."""
        try:
            with self._open(p, "rb") as f:
                h = f.read(record.HEADER)
                got = record.parse_header(h) if h else None
                if got is None:
                    return None
                kind, seq, ln = got
                rest = f.read(ln + record.TRAILER)
        except OSError:
            return None
        rec = bytes(h) + bytes(rest)
        if not record.valid(rec, ln):
            return None
        return kind, seq, ln, record.check_value(rec, ln), rec

    def _state(self):
        best = None
        top = -1
        for i in (0, 1):
            r = self._load(self.slots[i])
            if r is None:
                continue
            top = max(top, r[1])
            if r[0] == record.KIND_SAVE and (best is None or r[1] > best[1][1]):
                best = (i, r)
        aside = self._load(self.bad)
        if aside is not None:
            top = max(top, aside[1])
        return best, aside, top

    def read(self):
        best, aside, top = self._state()
        if best is None:
            return _read_legacy(self.path, self._open, self._stat) if top < 0 else None
        r = best[1]
        if aside is not None and aside[1] == r[1]:
            return None  # set aside
        return record.payload(r[4], r[2])

    def write(self, data):
        if self._last is None:  # the first save of this boot: look at what the files hold
            best, _, top = self._state()
            self._last = (best[0] if best is not None else 1, top)
        i = 1 - self._last[0]  # never the slot holding the newest valid save
        seq = self._last[1] + 1
        self._last = None  # unknown until this write has finished
        self._write(self.slots[i], record.encode(seq, data))
        self._last = (i, seq)
        self.writes += 1
        if self.strikes():
            self.clear_strikes()

    def strikes(self):
        if self._strikes is None:
            try:
                with self._open(self.tally, "rb") as f:
                    self._strikes = len(f.read(_TALLY))
            except OSError:
                self._strikes = 0
        return self._strikes

    def strike(self):
        n = self.strikes()
        if n < _TALLY:
            self._tally_write(n + 1)

    def clear_strikes(self):
        self._tally_write(0)

    def _tally_write(self, n):
        self._strikes = None  # read again if the write fails part-way
        try:
            with self._open(self.tally, "wb") as f:
                f.write(b"\x01" * n)
            self._strikes = n
        except OSError:
            pass

    def set_aside(self):
        self._last = None
        best, _, top = self._state()
        if best is not None:
            rec = record.encode(best[1][1], record.payload(best[1][4], best[1][2]), record.KIND_ASIDE)
        else:
            data = _read_legacy(self.path, self._open, self._stat)
            if data is None:
                return
            rec = record.encode(top + 1, data, record.KIND_ASIDE)
        try:
            self._write(self.bad, rec)
        except OSError:
            pass

    def _write(self, p, rec):
        try:
            with self._open(p, "wb") as f:
                f.write(rec)
        except OSError as e:
            self._fail(_why(e), e.args[0] if e.args else 5)


def _read_legacy(path, opener=open, stat=os.stat):
    """The save file of the firmware before records (raw app bytes), or its .tmp copy; None if absent/too big."""
    if path is None:
        return None
    for p in (path, path + ".tmp"):
        try:
            if stat(p)[6] > record.MAX_PAYLOAD:
                continue
            with opener(p, "rb") as f:
                data = f.read(record.MAX_PAYLOAD)
        except OSError:
            continue
        if data:
            return bytes(data)
    return None


def _why(e):
    code = e.args[0] if e.args else 0
    if code == 30:  # EROFS
        return "the drive is read-only to code"
    if code == 28:  # ENOSPC
        return "the flash is full"
    return "OSError " + str(code)
