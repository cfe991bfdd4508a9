"""The nvm store as it was before bad records were bounded (firmware/fdfw/store/nvm.py at 8902cd7: delta
records chained without end, a bad record stepped over by its length, the newest by sequence number), for the
before figures of tests/bench/bench_bitflip.py and the test that its logs still resume. Not used by the firmware."""
from fdfw.store import record
from fdfw.store import TALLY as _TALLY, _Base, _read_legacy
from fivedice.compat import const

_ALIGN = const(4)  # records start on 4-byte boundaries so a reader can step over a torn one (16 before deltas)
_MIN_NVM = const(256)  # a 60-120 byte save plus room to append; smaller nvm (SAMD21: 256 B) is still usable

_FF = b"\xff" * 64


def _up(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


class DeltaNvmStore(_Base):
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
        self._t = 0
        if n >= _MIN_NVM + _TALLY:
            # the last _TALLY bytes count strikes: one byte programmed 0xFF -> 0x00 per strike (no erase)
            n -= _TALLY
            self._tally = start + n
            self._t = _TALLY
        self._n = n
        self._scanned = False
        self._buf = None
        self._mark = -1  # the append point when compact_due() was last asked
        self.rewrites = 0  # sector erases this store made (forced by a full log, or asked for by compact())
        if nvm is None:
            self._fail_now("this board has no microcontroller.nvm")
        elif n < _MIN_NVM:
            self._fail_now("microcontroller.nvm has %d bytes, fivedice needs %d" % (n, _MIN_NVM))
        else:
            self._buf = bytearray(n + self._t)  # the sector image for a rewrite, allocated once at start-up

    def _fail_now(self, why):
        self.error = "cannot save the game: " + why + "; the game runs without saving"
        print("fivedice: " + self.error)

    # -- scanning -------------------------------------------------------------------------------------
    def _scan(self):
        """Walk the log: the newest state of each kind (save, set-aside save, records, set-aside records),
        the highest sequence number, the append point."""
        nvm, s, n = self.nvm, self._s, self._n
        st = [None, None, None, None, None]  # by kind: (seq, payload bytes)
        top = -1
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
        reach = 0  # past every byte a refused header was read from: appending there never changes a verdict
        while o < limit and o + record.DHEADER <= n:
            h = nvm[s + o:s + min(n, o + record.HEADER)]
            d = record.delta_header(h)
            if d is not None:
                kind, m = d
                ln = record.DOVERHEAD + m
                if o + ln > n:
                    reach = max(reach, o + record.HEADER)
                    o += _ALIGN
                    continue
                cur = st[kind]
                if cur is not None:  # a delta of nothing (its base torn or compacted away) is stepped over
                    new = record.apply_delta(cur[1], nvm[s + o:s + o + ln], m)
                    if new is not None:
                        st[kind] = (cur[0] + 1, new)
                        top = max(top, cur[0] + 1)
                o += _up(ln)
                end = o
                continue
            h = record.parse_header(h)
            if h is None or o + record.size(h[2]) > n:
                reach = max(reach, o + record.HEADER)
                o += _ALIGN  # a torn or foreign header: look for the next record on the next boundary
                continue
            kind, seq, ln = h
            rec = nvm[s + o:s + o + record.size(ln)]
            if record.valid(rec, ln):
                top = max(top, seq)
                if st[kind] is None or seq >= st[kind][0]:
                    st[kind] = (seq, record.payload(rec, ln))
            o += _up(record.size(ln))  # a torn record with a whole header is stepped over as a whole
            end = o
        self._st = st
        self._seq = top
        self._end = min(max(end, limit, _up(reach)), n)
        self._scanned = True

    def _ensure(self):
        if not self._scanned:
            self._scan()

    def _newest(self, kind, aside):
        """The payload of the newest `kind` state, None if there is none or it was set aside."""
        self._ensure()
        cur = self._st[kind]
        if cur is None:
            return None
        a = self._st[aside]
        if a is not None and a[0] == cur[0]:
            return None  # this state was set aside (a set-aside copy keeps the sequence number it had)
        return cur[1]

    # -- protocol -------------------------------------------------------------------------------------
    def read(self):
        if self._buf is None:
            return _read_legacy(self.legacy)
        self._ensure()
        if self._st[record.KIND_SAVE] is None and self._st[record.KIND_ASIDE] is None:
            return _read_legacy(self.legacy)  # nvm never written by this firmware: the old save file, if any
        return self._newest(record.KIND_SAVE, record.KIND_ASIDE)

    def write(self, data):
        self._write(record.KIND_SAVE, data)
        self.writes += 1
        if self._tally >= 0 and self.nvm[self._tally] != 0xFF:
            self.clear_strikes()

    def read_records(self):
        """The newest records bytes (fivedice.records), None if none (or they were set aside)."""
        if self._buf is None:
            return None
        return self._newest(record.KIND_RECORDS, record.KIND_RECORDS_ASIDE)

    def write_records(self, data):
        """Store the records (once per game): a delta of the last records, as a save is."""
        self._write(record.KIND_RECORDS, data)

    def _write(self, kind, data):
        if self._buf is None:
            raise OSError(5, self.error)
        self._ensure()
        cur = self._st[kind]
        rec = None
        if cur is not None:
            rec = record.encode_delta(kind, cur[1], data)  # None when a full record is no bigger
            seq = cur[0] + 1
        if rec is None:
            seq = self._seq + 1
            rec = record.encode(seq, data, kind)
        self._put(kind, seq, bytes(data), rec)

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
        """Strikes are cleared by the one erase there is: a rewrite that compacts the log at the same time."""
        if self._tally < 0 or self.strikes() == 0:
            return
        try:
            self._ensure()
            self._rewrite(self._st, True)
        except (RuntimeError, ValueError, OSError):
            self._scanned = False

    def set_aside(self):
        """Keep the save read() returned as a set-aside record (the newest one replaces an older copy)."""
        self._set_aside(record.KIND_SAVE, record.KIND_ASIDE)

    def set_aside_records(self):
        """Keep records that would not decode as a set-aside record; read_records() then gives None."""
        self._set_aside(record.KIND_RECORDS, record.KIND_RECORDS_ASIDE)

    def _set_aside(self, kind, aside):
        if self._buf is None:
            return
        self._ensure()
        cur = self._st[kind]
        if cur is not None:
            seq, data = cur
        else:
            seq = self._seq + 1
            data = _read_legacy(self.legacy) if kind == record.KIND_SAVE else None
            if data is None:
                return
        try:
            self._put(aside, seq, data, record.encode(seq, data, aside))
        except OSError:
            pass

    # -- compaction -----------------------------------------------------------------------------------
    def free(self):
        """Bytes of the log still erased (each save appends ~20-30, a new game's first save ~60-110)."""
        if self._buf is None:
            return 0
        self._ensure()
        return self._n - self._end

    def compact_due(self, room=None):
        """Asked once per game, at its end (where compact() has the least to lose): True when fewer than
        `room` bytes are free and compacting would free more. room: by default what the log took since
        the last time it was asked (one game, as long as no rewrite came in between), at most half the
        log: so the next game's saves fit without a rewrite in the middle of it, when they can."""
        if self._buf is None:
            return False
        self._ensure()
        if room is None:
            room = self._end - self._mark if self._mark >= 0 and self._end >= self._mark else self._n // 2
            room = min(room, self._n // 2)
        self._mark = self._end
        return self._n - self._end < room and self._packed_size(self._st) < self._end

    def compact(self):
        """Rewrite the sector now, holding only the newest states: one erase (a W25Q16JV sector erase:
        45 ms typical, 400 ms at most) then the new image, newest save first. A power cut inside that
        window loses everything the sector holds (see README, "Saves and power cuts"). True if done."""
        if self._buf is None:
            return False
        self._ensure()
        try:
            self._rewrite(self._st, False)
        except (RuntimeError, ValueError, OSError):
            self._scanned = False
            return False
        return True

    def _put(self, kind, seq, data, rec):
        nvm, s, n = self.nvm, self._s, self._n
        total = _up(len(rec))
        try:
            if self._end + total <= n:
                nvm[s + self._end:s + self._end + len(rec)] = rec  # program only: all 0xFF under it
                self._end += total
                self._st[kind] = (seq, data)
            else:
                st = list(self._st)
                st[kind] = (seq, data)
                self._rewrite(st, self._tally >= 0 and kind == record.KIND_SAVE)
        except (RuntimeError, ValueError, OSError) as e:  # RuntimeError: "Unable to write to nvm."
            self._scanned = False
            code = e.args[0] if isinstance(e, OSError) and e.args and isinstance(e.args[0], int) else 5
            why = e.args[-1] if e.args else "nvm write failed"
            self._fail(str(why), code)
        self._seq = max(self._seq, seq)

    def _kept(self, st):
        """The states a rewrite keeps, in the order it writes them: a set-aside state only as its copy."""
        out = []
        for kind, aside in ((record.KIND_SAVE, record.KIND_ASIDE), (record.KIND_RECORDS, record.KIND_RECORDS_ASIDE)):
            cur, a = st[kind], st[aside]
            if cur is not None and not (a is not None and a[0] == cur[0]):
                out.append(kind)
        for aside in (record.KIND_ASIDE, record.KIND_RECORDS_ASIDE):
            if st[aside] is not None:
                out.append(aside)
        return out

    def _packed_size(self, st):
        return sum(_up(record.size(len(st[k][1]))) for k in self._kept(st))

    def _rewrite(self, st, clear_tally):
        """One erase, then every kept state as a full record from the sector's start (the first page
        programs are the ones that matter: the rest of the image is 0xFF)."""
        buf = self._buf
        n = self._n
        need = self._packed_size(st)
        if need > n:
            raise OSError(28, "%d bytes of save and records do not fit in %d bytes of nvm" % (need, n))
        for i in range(0, len(buf), len(_FF)):
            buf[i:i + len(_FF)] = _FF[:len(buf) - i] if len(buf) - i < len(_FF) else _FF
        o = 0
        kept = self._kept(st)
        for kind in kept:
            seq, data = st[kind]
            rec = record.encode(seq, data, kind)
            buf[o:o + len(rec)] = rec
            o += _up(len(rec))
        if self._t and not clear_tally:
            buf[n:n + self._t] = self.nvm[self._tally:self._tally + self._t]
        self.nvm[self._s:self._s + n + self._t] = buf
        self.rewrites += 1
        for k in range(1, 5):
            if k not in kept:
                st[k] = None
        self._st = st
        self._end = o
        self._mark = -1
