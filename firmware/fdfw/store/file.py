"""The MicroPython store: two slot files written alternately (see fdfw.store for the protocol)."""
import os

from fdfw.store import record
from fdfw.store import ASIDES, TALLY as _TALLY, _Base, _read_legacy


class FileStore(_Base):
    """Two slot files `<path>.0` / `<path>.1`; the legacy single file `<path>` is read while neither
    holds a record. Unreadable saves are kept in `<path>.bad`, `.bad.1` ... `.bad.3` (ASIDES), the
    oldest replaced. The records (high scores and stats) have their own two slots, `<base>.rec.0` /
    `.1` (base: the path without `.sav`), and their own set-aside file `<base>.rec.bad`, with the
    same rule. fs: an object with open/stat (os plus builtins by default; tests pass a fake)."""

    def __init__(self, path, fs=None):
        _Base.__init__(self, path)
        self.path = path
        self.slots = (path + ".0", path + ".1")
        self.bad = path + ".bad"
        base = path[:-4] if path.endswith(".sav") else path
        self.rec_path = base + ".rec"
        self.rec_slots = (self.rec_path + ".0", self.rec_path + ".1")
        self.rec_bad = self.rec_path + ".bad"
        self.tally = path + ".strikes"  # one byte per strike
        self._strikes = None  # the tally file's count, once read
        self._fs = fs
        self._open = fs.open if fs is not None else open
        self._stat = fs.stat if fs is not None else os.stat
        self._last = None  # (slot of the newest save, highest sequence) once known
        self._rec_last = None  # the same for the records

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

    def _state(self, slots=None, bad=None, kind=record.KIND_SAVE):
        if slots is None:
            slots, bad = self.slots, self.bad
        best = None
        top = -1
        for i in (0, 1):
            r = self._load(slots[i])
            if r is None:
                continue
            top = max(top, r[1])
            if r[0] == kind and (best is None or r[1] > best[1][1]):
                best = (i, r)
        aside = None
        for j in range(ASIDES if bad == self.bad else 1):  # the saves' ring; the records keep one
            a = self._load(bad if j == 0 else bad + "." + str(j))
            if a is not None:
                top = max(top, a[1])
                if aside is None or a[1] > aside[1]:
                    aside = a  # the newest: a state set aside is always the newest copy
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
        last, self._last = self._last, None  # unknown until this write has finished
        self._last = self._slot_write(self.slots, self.bad, record.KIND_SAVE, last, data)
        self.writes += 1
        if self.strikes():
            self.clear_strikes()

    def _slot_write(self, slots, bad, kind, last, data):
        if last is None:  # the first write of this boot: look at what the files hold
            best, _, top = self._state(slots, bad, kind)
            last = (best[0] if best is not None else 1, top)
        i = 1 - last[0]  # never the slot holding the newest valid record
        seq = last[1] + 1
        # on an error the next write looks again
        self._write(slots[i], record.encode(seq, data, kind))
        return (i, seq)

    def read_records(self):
        """The newest records bytes (fivedice.records), None if none (or they were set aside)."""
        best, aside, _ = self._state(self.rec_slots, self.rec_bad, record.KIND_RECORDS)
        if best is None or (aside is not None and aside[1] == best[1][1]):
            return None
        return record.payload(best[1][4], best[1][2])

    def write_records(self, data):
        last, self._rec_last = self._rec_last, None
        self._rec_last = self._slot_write(
            self.rec_slots, self.rec_bad, record.KIND_RECORDS, last, data
        )

    def set_aside_records(self):
        """Keep records that would not decode in `<base>.rec.bad`; read_records() then gives None.
        """
        self._rec_last = None
        best, _, _ = self._state(self.rec_slots, self.rec_bad, record.KIND_RECORDS)
        if best is None:
            return
        r = best[1]
        try:
            self._write(
                self.rec_bad,
                record.encode(r[1], record.payload(r[4], r[2]), record.KIND_RECORDS_ASIDE),
            )
        except OSError:
            pass

    def compact_due(self, room=None):
        return False  # two slot files: nothing accumulates

    def compact(self):
        return False

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
            rec = record.encode(
                best[1][1], record.payload(best[1][4], best[1][2]), record.KIND_ASIDE
            )
        else:
            data = _read_legacy(self.path, self._open, self._stat)
            if data is None:
                return
            rec = record.encode(top + 1, data, record.KIND_ASIDE)
        to, low = self.bad, -1  # the ring's first empty file, else the one holding the oldest copy
        for j in range(ASIDES):
            p = self.bad if j == 0 else self.bad + "." + str(j)
            a = self._load(p)
            if a is None:
                to = p
                break
            if low < 0 or a[1] < low:
                to, low = p, a[1]
        try:
            self._write(to, rec)
        except OSError:
            pass

    def _write(self, p, rec):
        try:
            with self._open(p, "wb") as f:
                f.write(rec)
        except OSError as e:
            self._fail(_why(e), e.args[0] if e.args else 5)


def _why(e):
    code = e.args[0] if e.args else 0
    if code == 30:  # EROFS
        return "the drive is read-only to code"
    if code == 28:  # ENOSPC
        return "the flash is full"
    return "OSError " + str(code)
