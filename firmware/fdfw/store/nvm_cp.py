"""The CircuitPython store: a log of records in `microcontroller.nvm` (see fdfw.store for the
protocol and docs/saves.md, "Saves and power cuts", for why a log and when it is rewritten)."""
from fdfw.store import record
from fdfw.store import ASIDES, TALLY as _TALLY, _Base, _read_legacy
from fivedice import lazy as _lazy
from fivedice.compat import collect, const

# records start on 4-byte boundaries so a reader can step over a torn one (16 before deltas)
ALIGN = const(4)
# a 60-120 byte save plus room to append; smaller nvm (SAMD21: 256 B) is still usable
_MIN_NVM = const(256)

_FF = b"\xff" * 64

# One bad record costs a few saves at most (docs/saves.md). A record with one bit wrong is mended as
# it is read (fdfw.store.nvm_scan_cp: its CRC-32 tells which bit). A record worse than that is lost,
# and with it the deltas after it up to the next full record: every FULL_EVERY-th state of a kind is
# written in full, and a rewrite writes the records (and a game in progress) twice, so one bad
# record never loses the only copy. The bound and its cost in flash (more full records: fewer saves
# per erase) are measured in tests/bench/bench_bitflip.py.
FULL_EVERY = const(16)


def _up(n):
    return (n + ALIGN - 1) & ~(ALIGN - 1)


def _same(a, cur):
    """True if set-aside state `a` is a copy of `cur`: the same sequence number and the same bytes
    (a full record written after a misread boot can repeat a sequence number, never the bytes with
    it)."""
    return a is not None and cur is not None and a[0] == cur[0] and a[1] == cur[1]


class NvmStore(_Base):
    """Records appended in `nvm` (microcontroller.nvm or a fake with len, slicing and slice
    assignment)."""

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
            # the last _TALLY bytes count strikes: one byte programmed 0xFF -> 0x00 per strike (no
            # erase)
            n -= _TALLY
            self._tally = start + n
            self._t = _TALLY
        self._n = n
        self._scanned = False
        self._buf = None
        self._olds = ()  # the set-aside saves before st[KIND_ASIDE], oldest first (ring)
        self.mended = 0  # records read with one bit put right (scans add to it)
        # the last scan met a bad record after the newest save it could read (docs/saves.md)
        self.lost = False
        self.rec_lost = False  # ... or one that may be records after the newest records
        self._mark = -1  # the append point when compact_due() was last asked
        # sector erases this store made (forced by a full log, or asked for by compact())
        self.rewrites = 0
        if nvm is None:
            self._fail_now("this board has no microcontroller.nvm")
        elif n < _MIN_NVM:
            self._fail_now("microcontroller.nvm has %d bytes, fivedice needs %d" % (n, _MIN_NVM))
        else:
            # the sector image for a rewrite, allocated once at start-up
            self._buf = bytearray(n + self._t)

    def _fail_now(self, why):
        self.error = "cannot save the game: " + why + "; the game runs without saving"
        print("fivedice: " + self.error)

    # -- scanning
    # -------------------------------------------------------------------------------------
    def _scan(self):
        """Walk the log (fdfw.store.nvm_scan_cp): the newest state of each kind, the append point
        and what a bad record cost. Its code is loaded for the walk and dropped after it: a boot
        walks once, then only a failed write walks again."""
        _lazy.load("nvm_scan").scan(self)
        _lazy.drop("nvm_scan")
        collect()  # its room free again now, before the app allocates past it

    def _ensure(self):
        if not self._scanned:
            self._scan()

    def _newest(self, kind, aside):
        """The payload of the newest `kind` state, None if there is none or it was set aside."""
        self._ensure()
        cur = self._st[kind]
        if cur is None:
            return None
        if _same(self._st[aside], cur):
            # this state was set aside (a set-aside copy keeps the sequence number it had)
            return None
        return cur[1]

    # -- protocol
    # -------------------------------------------------------------------------------------
    def read(self):
        if self._buf is None:
            return _read_legacy(self.legacy)
        self._ensure()
        if self._st[record.KIND_SAVE] is None and self._st[record.KIND_ASIDE] is None:
            # nvm never written by this firmware: the old save file, if any
            return _read_legacy(self.legacy)
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
        if cur is not None and self._chain[kind] < FULL_EVERY - 1 and not self._stale[kind]:
            rec = record.encode_delta(kind, cur[1], data)  # None when a full record is no bigger
            seq = cur[0] + 1
        if rec is None:
            seq = self._seq + 1
            rec = record.encode(seq, data, kind)
        r = self.rewrites
        self._put(kind, seq, bytes(data), rec)
        self._chain[kind] = (
            self._chain[kind] + 1 if rec[2] & record.DELTA and r == self.rewrites else 0
        )
        self._stale[kind] = False

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
        """Strikes are cleared by the one erase there is: a rewrite that compacts the log at the
        same time."""
        if self._tally < 0 or self.strikes() == 0:
            return
        try:
            self._ensure()
            self._rewrite(self._st, True, True)
        except (RuntimeError, ValueError, OSError):
            self._scanned = False

    def set_aside(self):
        """Keep the save read() returned as a set-aside record (the newest ASIDES are kept)."""
        self._set_aside(record.KIND_SAVE, record.KIND_ASIDE)

    def set_aside_records(self):
        """Keep records that would not decode as a set-aside record; read_records() then gives None.
        """
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
        prev = self._st[aside]
        if aside == record.KIND_ASIDE and prev is not None and prev[0] != seq:
            self._olds = (self._olds + (prev,))[1 - ASIDES:]  # before _put: its rewrite keeps it
        try:
            self._put(aside, seq, data, record.encode(seq, data, aside))
        except OSError:
            pass

    # -- compaction
    # -----------------------------------------------------------------------------------
    def free(self):
        """Bytes of the log still erased (each save appends ~20-30, a new game's first save
        ~60-110)."""
        if self._buf is None:
            return 0
        self._ensure()
        return self._n - self._end

    def compact_due(self, room=None):
        """Asked once per game, at its end (where compact() has the least to lose): True when fewer
        than `room` bytes are free and compacting would free more. room: by default what the log
        took since the last time it was asked (one game, as long as no rewrite came in between), at
        most half the log: so the next game's saves fit without a rewrite in the middle of it, when
        they can."""
        if self._buf is None:
            return False
        self._ensure()
        if room is None:
            room = (
                self._end - self._mark
                if self._mark >= 0 and self._end >= self._mark
                else self._n // 2
            )
            room = min(room, self._n // 2)
        self._mark = self._end
        return self._n - self._end < room and self._packed_size(self._st, False) < self._end

    def compact(self):
        """Rewrite the sector now, holding only the newest states: one erase (a W25Q16JV sector
        erase: 45 ms typical, 400 ms at most) then the new image, newest save first. A power cut
        inside that window loses everything the sector holds (see docs/saves.md, "Saves and power
        cuts"). True if done."""
        if self._buf is None:
            return False
        self._ensure()
        try:
            self._rewrite(self._st, False, False)
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
                self._rewrite(st, self._tally >= 0 and kind == record.KIND_SAVE, True)
        except (RuntimeError, ValueError, OSError) as e:  # RuntimeError: "Unable to write to nvm."
            self._scanned = False
            code = (
                e.args[0] if isinstance(e, OSError) and e.args and isinstance(e.args[0], int) else 5
            )
            why = e.args[-1] if e.args else "nvm write failed"
            self._fail(str(why), code)
        self._seq = max(self._seq, seq)

    def _kept(self, st):
        """The states a rewrite keeps, in the order it writes them: a set-aside state only as its
        copy."""
        out = []
        for kind, aside in (
            (record.KIND_SAVE, record.KIND_ASIDE),
            (record.KIND_RECORDS, record.KIND_RECORDS_ASIDE),
        ):
            if st[kind] is not None and not _same(st[aside], st[kind]):
                out.append(kind)
        for aside in (record.KIND_ASIDE, record.KIND_RECORDS_ASIDE):
            if st[aside] is not None:
                out.append(aside)
        return out

    def _packed_size(self, st, twice=True):
        n = sum(_up(record.size(len(st[k][1]))) * self._copies(k, twice) for k in self._kept(st))
        return n + sum(_up(record.size(len(a[1]))) for a in self._olds)  # (kept with an aside)

    def _copies(self, kind, twice):
        """Records of `kind` a rewrite writes: the records twice (no one bad record loses the high
        scores), the save twice when the rewrite is in the middle of a game (its only copy until
        FULL_EVERY saves later), once at a compaction (the game it holds is over: the next save is
        the new game's, in full)."""
        if kind == record.KIND_RECORDS or (kind == record.KIND_SAVE and twice):
            return 2
        return 1

    def _rewrite(self, st, clear_tally, twice):
        """One erase, then every kept state as a full record from the sector's start (the first page
        programs are the ones that matter: the rest of the image is 0xFF)."""
        buf = self._buf
        n = self._n
        need = self._packed_size(st, twice)
        if need > n:
            raise OSError(
                28, "%d bytes of save and records do not fit in %d bytes of nvm" % (need, n)
            )
        for i in range(0, len(buf), len(_FF)):
            buf[i:i + len(_FF)] = _FF[:len(buf) - i] if len(buf) - i < len(_FF) else _FF
        o = 0
        kept = self._kept(st)
        for kind in kept:
            seq, data = st[kind]
            for a in self._olds if kind == record.KIND_ASIDE else ():  # the ring, then the newest
                if a[0] != seq:
                    rec = record.encode(a[0], a[1], kind)
                    buf[o:o + len(rec)] = rec
                    o += _up(len(rec))
            rec = record.encode(seq, data, kind)
            for _ in range(self._copies(kind, twice)):
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
        self._chain = [0, 0, 0, 0, 0]
        self._stale = [False, False, False, False, False]
        self._end = o
        self._mark = -1
