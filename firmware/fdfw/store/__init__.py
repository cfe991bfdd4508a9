"""Where the game is saved: what both stores share (fdfw.store.nvm_cp.NvmStore for CircuitPython,
fdfw.store.file.FileStore for MicroPython; each board loads only its own). The store protocol of
fivedice.app.App: read() -> bytes or None,
write(data) (OSError when it cannot save), and set_aside() for a save the app cannot read."""
# Every backend stores fdfw.store.record records (magic, kind, sequence number, length, CRC-32);
# read() returns the payload of the newest valid save record, so a record torn by a power cut is
# simply not found and the one before it is. Nothing is ever removed or renamed, and a record is
# only ever written over one that is older than the newest valid save.
#
# NvmStore (CircuitPython): a log of records in `microcontroller.nvm`, so CIRCUITPY stays writable
# by the computer (boot.py does not remount it). On the RP2040, nvm is one 4 KB flash sector and
# CircuitPython programs a slice in place when every byte under it is still erased (0xFF), and
# otherwise erases the whole sector and writes it back
# (ports/raspberrypi/common-hal/nvm/ByteArray.c). So a save appends its record behind the last one
# (a page program, no erase, the older records untouched): a delta record of the bytes that changed
# since the save before (~26-31 bytes for the app's 44-92 byte saves, against 57-105 for a full
# record). The records (high scores and stats, fivedice.records) live in the same log the same way.
# Only when the log is full, or when the app asks at a game boundary (compact_due/compact), is the
# sector rewritten holding just the newest save, records and set-aside copies, newest save first:
# one erase per ~130-180 saves (36-65 before deltas), and the only moment a power cut can lose
# anything: the whole sector, save and records (see docs/saves.md, "Saves and power cuts"; one
# sector cannot do better: every rewrite erases the only copy, and nothing else on a CircuitPython
# board is writable by code while the computer may write CIRCUITPY). A save from the file-based
# firmware (`/fivedice.sav`, now read-only to code) is read once, while the nvm holds no record;
# after that it is ignored.
#
# FileStore (MicroPython, LittleFS): two slot files `<path>.0` and `<path>.1` written alternately; a
# save goes to the slot that does not hold the newest valid record, so a cut at any byte or step of
# a write leaves the other slot intact (no rename, which FAT could not do over an existing file
# anyway).
#
# Records: read_records() -> bytes or None, write_records(data) (OSError when it cannot),
# set_aside_records() for records that would not decode, with the same rules as the save
# (fivedice.records.load/save use them).
#
# set_aside() keeps a copy of the unreadable save, as a KIND_ASIDE record (in nvm, or `<path>.bad`),
# never overwritten by later saves; read() then returns None for it. A store that cannot save prints
# one plain line, once, and raises OSError (the app shows "Could not save"); whatever was stored
# stays as it was.
import os

from fdfw.store import record
from fivedice.compat import const

TALLY = const(8)  # strikes kept, at most
ASIDES = const(4)  # unreadable saves kept, the oldest replaced first: the web page's ring


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


def _read_legacy(path, opener=open, stat=os.stat):
    """The save file of the firmware before records (raw app bytes), or its .tmp copy; None if
    absent/too big."""
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
