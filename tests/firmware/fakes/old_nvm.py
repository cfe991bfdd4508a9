"""The nvm store before delta records (firmware/fdfw/store/__init__.py until the delta change), for the before
figures of tests/bench/bench_powercut.py: full records on 16-byte boundaries, a sector rewrite whenever
the log is full. Not used by the firmware."""
from fdfw.store import record
from fdfw.store import _Base, _read_legacy
from fivedice.compat import const

_ALIGN = const(16)
_MIN_NVM = const(256)
_FF = b"\xff" * 64
_TALLY = const(8)


def _up(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


class OldNvmStore(_Base):
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
