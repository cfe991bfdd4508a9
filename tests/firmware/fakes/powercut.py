"""Power cuts at every byte and step of every save, records write and compaction, on every store fivedice
has (fakeflash media).

A scenario is a list of operations, one per boot: ("s", bytes) saves a game state, ("r", bytes) stores the
records (high scores and stats, once per game), ("c", None) is the app's call at a game boundary
(`if store.compact_due(): store.compact()`). A single-cut trial (i, k) restores the medium as it was after
i complete operations, boots (a new store, read() and read_records()), arms a cut after k events and runs
operation i; then boots again and reads both. It passes when what is read is the state before the
operation or the state after it (only the after if it finished): the newest complete state, losing at
most the save or records write being made, and nothing at all in a compaction. A double-cut trial
(i, k1, k2) then runs operation i+1 cut after k2 events, boots and checks the same rule against what the
first boot read, and finally makes one uncut save, which must read back (the store still works after two
cuts). k runs from 0 until the operation completes, so every event is a cut point.

Stores: "nvm" (NvmStore on FakeNvm: delta records, records in the same log, compaction at game
boundaries), "lfs" (FileStore on LittleFS rules: rename over a file allowed, a torn write leaves a
prefix), "fat" (FileStore on FAT rules: no rename over a file, a torn write leaves 0xFF after the prefix),
and the file store before records, "old-lfs" / "old-fat" (write <path>.tmp, then rename it over the save,
or on FAT remove the save and rename): the control that the harness finds a store's losses. The nvm
store's before figures come from an old commit (docs/testing.md, "Before figures").

A failure on an nvm store whose cut hit the sector erase-and-rewrite is counted apart as `window`: the
RP2040's nvm is a single 4 KB flash sector, so while it is erased nothing survives (see fdfw/store/nvm_cp.py).
Runs on CPython and the MicroPython unix port (python powercut.py [sample|small|full] on either).
"""

from fakeflash import FakeFS, FakeNvm, Power, PowerCut
from fdfw.store.file import FileStore
from fdfw.store.nvm_cp import NvmStore
from fivedice.compat import crc32


class Stores:
    """Both firmware stores under one name, for the tests (each board imports only its own)."""

    NvmStore = NvmStore
    FileStore = FileStore


SAVE = "/fivedice.sav"


def payloads(count, seed=7):
    """Deterministic unrelated saves: 0xA7 first, 60-120 bytes, some 0xFF and record-magic bytes inside
    (every save differs from the last almost everywhere: the worst case for delta records)."""
    out = []
    x = seed
    for i in range(count):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        n = 60 + x % 61
        b = bytearray(n)
        b[0] = 0xA7
        for j in range(1, n):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            r = (x >> 16) & 0xFF
            b[j] = 0xFF if r < 24 else r
        if i % 5 == 3 and n > 20:
            b[16:20] = b"FD\x01\x00"  # looks like a record header on a 16-byte boundary
        out.append(bytes(b))
    return out


def _put_crc(b, n):
    c = crc32(memoryview(b)[:n]) & 0xFFFFFFFF
    for k in range(4):
        b[n + k] = (c >> (8 * k)) & 0xFF


def game_ops(players=2, games=1, seed=11, records=True):
    """The operations of `games` games laid out as the app's save is (fivedice.app.session.save_bytes: 7 bytes of
    settings, the game's 13-byte header, 3 + 13 bytes per player, the game's CRC-32, the save's CRC-32),
    saved as the app saves: after each landed roll (1-3 a turn, the dice and roll count change), after a
    hold now and then, after each scored box (card, turn and seat change). After each game: the records
    (an evolving 64-byte stand-in of fivedice.records) and the compaction call, when `records`."""
    n = 13
    glen = 13 + players * (3 + n) + 4
    size = 7 + glen + 4
    ops = []
    x = seed
    rec = bytearray(64)
    rec[0] = 0x52
    for g in range(games):
        b = bytearray(size)
        b[0] = 0xA8
        b[2] = players
        b[7] = 0xA5
        b[8] = 2
        b[10] = players
        for t in range(n):
            for p in range(players):
                rolls = 1 + (x >> 7) % 3
                for r in range(rolls):
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                    b[7 + 5] = r + 1  # rolls
                    held = (x >> 9) & 0x1F if r else 0
                    b[7 + 6] = held
                    for d in range(5):
                        if not held & (1 << d):
                            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                            b[7 + 8 + d] = 1 + (x >> 16) % 6
                    _put_crc(b, 7 + glen - 4)  # the game's CRC, over its bytes (from 7)
                    _put_crc(b, size - 4)
                    ops.append(("s", bytes(b)))
                box = (t * 7 + p) % n
                c = 7 + 13 + p * (3 + n)
                m = b[c] | (b[c + 1] << 8) | (1 << box)
                b[c] = m & 0xFF
                b[c + 1] = m >> 8
                b[c + 3 + box] = (x >> 11) % 31
                b[7 + 5] = 0
                b[7 + 6] = 0
                b[7 + 4] = (p + 1) % players
                b[7 + 7] = t + (1 if p + 1 == players else 0)
                for d in range(5):
                    b[7 + 8 + d] = 0
                _put_crc(b, 7 + glen - 4)
                _put_crc(b, size - 4)
                ops.append(("s", bytes(b)))
        if records:
            rec[4 + g % 8] = (rec[4 + g % 8] + 1) & 0xFF  # games, sums, a top-5 entry now and then
            rec[12 + (x >> 5) % 40] = (x >> 13) & 0xFF
            _put_crc(rec, 60)
            ops.append(("r", bytes(rec)))
            ops.append(("c", None))
    return ops


class OldFileStore:
    """The file store before records (firmware/fdfw/store/__init__.py until this change), on a fake FS."""

    def __init__(self, path, fs):
        self.path = path
        self._tmp = path + ".tmp"
        self.fs = fs

    def read(self):
        for p in (self.path, self._tmp):
            try:
                with self.fs.open(p, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            if data:
                return data
        return None

    def write(self, data):
        with self.fs.open(self._tmp, "wb") as f:
            f.write(data)
        self.fs.stat(self._tmp)
        try:
            self.fs.rename(self._tmp, self.path)
        except OSError:
            self.fs.remove(self.path)
            self.fs.rename(self._tmp, self.path)


class Rig:
    def __init__(self, kind):
        self.kind = kind
        self.power = Power()
        self.nvm = kind.endswith("nvm")
        if self.nvm:
            self.medium = FakeNvm(4096, self.power)
        else:
            fat = kind.endswith("fat")
            self.medium = FakeFS(self.power, rename_over=not fat, torn="ff" if fat else "old")

    def store(self):
        if self.kind == "nvm":
            return NvmStore(self.medium, legacy=None)
        if self.kind.startswith("old"):
            return OldFileStore(SAVE, self.medium)
        return FileStore(SAVE, self.medium)

    def boot_read(self):
        """(save, records) as a fresh boot reads them."""
        self.power.restore()
        s = self.store()
        got = s.read()
        return got, (s.read_records() if hasattr(s, "read_records") else None)


def run_op(s, op):
    what, data = op
    if what == "s":
        s.write(data)
    elif what == "r":
        if hasattr(s, "write_records"):
            s.write_records(data)
    elif hasattr(s, "compact_due") and s.compact_due():
        s.compact()


def after(state, op, rig):
    """The state once op has run on `state`."""
    what, data = op
    if what == "s":
        return data, state[1]
    if what == "r" and hasattr(rig.store(), "write_records"):
        return state[0], data
    return state


class Result:
    def __init__(self, kind):
        self.kind = kind
        self.tried = 0
        self.failures = 0
        self.window = 0  # nvm failures inside the sector erase-and-rewrite
        self.window_cuts = 0  # cut points inside it
        self.first = None  # the first failure, for the message

    def add(self, ok, where, in_window):
        self.tried += 1
        if in_window:
            self.window_cuts += 1
        if ok:
            return
        if in_window:
            self.window += 1
        else:
            self.failures += 1
            if self.first is None:
                self.first = where

    def line(self):
        s = "%-11s cut points tried %8d  failures %d" % (self.kind, self.tried, self.failures)
        if "nvm" in self.kind:
            s += "  (sector-rewrite window: %d of %d cut points lose state)" % (self.window, self.window_cuts)
        return s


def _op_cut(rig, op, k):
    """Boot, run op with a cut after k events; True if it completed."""
    s = rig.store()
    s.read()
    if hasattr(s, "read_records"):
        s.read_records()
    if rig.nvm:
        rig.medium.cut_in_rewrite = False
    rig.power.cut_after(k)
    try:
        run_op(s, op)
    except PowerCut:
        return False
    finally:
        rig.power.restore()
    return True


def prefix_snapshots(rig, ops):
    """snaps[i] = the medium after i complete operations (each on a fresh boot), states[i] what it holds."""
    snaps = [rig.medium.snapshot()]
    states = [(None, None)]
    for i in range(len(ops)):
        s = rig.store()
        s.read()
        run_op(s, ops[i])
        want = after(states[i], ops[i], rig)
        got = rig.boot_read()
        if got != want:
            raise AssertionError("%s: operation %d does not read back without any cut" % (rig.kind, i))
        snaps.append(rig.medium.snapshot())
        states.append(want)
    return snaps, states


def _ok(got, before, new, done):
    return got == new or (not done and got == before)


def single(rig, res, ops, snaps, states, i, ks=None):
    """Cut operation i after k events for every k (or the given ks)."""
    k = 0
    while True:
        if ks is not None:
            if k >= len(ks):
                return
            kk = ks[k]
        else:
            kk = k
        rig.medium.restore(snaps[i])
        done = _op_cut(rig, ops[i], kk)
        win = rig.nvm and rig.medium.cut_in_rewrite
        got = rig.boot_read()
        res.add(_ok(got, states[i], states[i + 1], done), (i, kk), win)
        if done and ks is None:
            return
        k += 1


def double(rig, res, ops, snaps, states, i, k1s=None, k2s=None, last=None):
    """Cut operation i after k1 events, boot, cut operation i+1 after k2 events, boot; then one clean save."""
    last = last if last is not None else b"\xa7 the save after two cuts"
    k1 = 0
    while True:
        if k1s is not None and k1 >= len(k1s):
            return
        kk1 = k1s[k1] if k1s is not None else k1
        rig.medium.restore(snaps[i])
        if _op_cut(rig, ops[i], kk1):
            return
        win1 = rig.nvm and rig.medium.cut_in_rewrite
        got1 = rig.boot_read()
        ok1 = _ok(got1, states[i], states[i + 1], False)
        mid = rig.medium.snapshot()
        k2 = 0
        while True:
            if k2s is not None and k2 >= len(k2s):
                break
            kk2 = k2s[k2] if k2s is not None else k2
            rig.medium.restore(mid)
            done2 = _op_cut(rig, ops[i + 1], kk2)
            win2 = rig.nvm and rig.medium.cut_in_rewrite
            got2 = rig.boot_read()
            ok = ok1 and _ok(got2, got1, after(got1, ops[i + 1], rig), done2)
            if ok and not rig.kind.startswith("old"):
                s = rig.store()
                s.read()
                s.write(last)
                ok = rig.boot_read()[0] == last
            res.add(ok, (i, kk1, kk2), win1 or win2)
            if done2 and k2s is None:
                break
            k2 += 1
        k1 += 1


STORES = ("nvm", "lfs", "fat")


def saves_only(P):
    return [("s", p) for p in P]


def rewrite_ops(kind, ops):
    """Indices of the operations that erase the nvm sector (found by replaying them on a FakeNvm)."""
    rig = Rig(kind)
    s = rig.store()
    out = []
    for i in range(len(ops)):
        e = rig.medium.erases
        run_op(s, ops[i])
        if rig.medium.erases != e:
            out.append(i)
    return out


def wear(kind, sizes=(44, 60, 92), n=2000):
    """Per save, what reaches the medium: for nvm the bytes programmed and sector erases, for a file
    system the steps (open, truncate, close, rename, remove) and bytes written. sizes: the app's save for
    1, 2 and 4 players today (n saves of each, every save a new 0xA7 + counting bytes: all bytes change)."""
    out = []
    for ln in sizes:
        rig = Rig(kind)
        s = rig.store()
        s.read()
        for i in range(n):
            s.write(bytes([0xA7]) + bytes([(i + j) & 0x7F for j in range(ln - 1)]))
        m = rig.medium
        if rig.nvm:
            out.append((ln, m.programmed / n, m.erases / n))
        else:
            steps = sum(m.steps.values()) / n
            out.append((ln, m.written / n, steps, dict((k, v / n) for k, v in m.steps.items())))
    return out


def game_wear(kind, players, games=30, compact=True, cls=None):
    """Over `games` app-like games (game_ops) on an nvm store: (saves, erases in the middle of a game,
    erases at game boundaries, bytes programmed). compact: the app asks for compaction at each boundary
    (records are stored then too); False: saves only, the log rewritten only when full. cls: a store class
    to build on the rig's medium instead of the rig's own (an older design, for before figures)."""
    rig = Rig(kind)
    s = rig.store() if cls is None else cls(rig.medium)
    ops = game_ops(players, games, records=compact)
    saves = mid = edge = 0
    for op in ops:
        e = rig.medium.erases
        run_op(s, op)
        saves += op[0] == "s"
        if rig.medium.erases != e:
            if op[0] == "c":
                edge += 1
            else:
                mid += 1
    return saves, mid, edge, rig.medium.programmed


def full(kinds=("nvm", "lfs", "fat", "old-lfs", "old-fat"), n=120, out=print):
    """Every cut point of every one of n unrelated saves (the worst case for deltas: n=120 crosses the
    nvm sector rewrite several times), and every pair of cut points of two operations in a row at the
    first three saves and around the first nvm rewrite. Then, on the nvm stores, every cut point of two
    app-like 2-player games (records and compaction included for the new store)."""
    P = payloads(n + 3)
    ops = saves_only(P[:n])
    old = rewrite_ops("nvm", ops)  # the file stores are cut around the nvm store's first rewrite too
    results = []
    for kind in kinds:
        rig = Rig(kind)
        snaps, states = prefix_snapshots(rig, ops)
        comp = rewrite_ops(kind, ops) if rig.nvm else []
        at = [0, 1, 2] + [j + d for j in (comp or old)[:1] for d in (-1, 0, 1)]
        at = [i for i in at if i + 1 < n]
        one = Result(kind + " x1")
        for i in range(n):
            single(rig, one, ops, snaps, states, i)
        two = Result(kind + " x2")
        for i in at:
            double(rig, two, ops, snaps, states, i)
        out(one.line() + "  rewrites at %s" % comp if rig.nvm else one.line())
        out(two.line())
        results += [one, two]
    return results


def games(kinds=("nvm",), players=2, ngames=3, out=print, ks=None):
    """Every cut point of every operation of ngames app-like games: (Result, saves, rewrites) per kind. Then
    two cuts in a row at the first records write, the first sector rewrite (the compaction at a game boundary,
    or a full log mid-game) and the operations just before them: every pair of cut points, or the pairs of
    `ks` when given."""
    got = []
    for kind in kinds:
        ops = game_ops(players, ngames, records=kind == "nvm")
        rig = Rig(kind)
        snaps, states = prefix_snapshots(rig, ops)
        res = Result(kind + " games")
        for i in range(len(ops)):
            single(rig, res, ops, snaps, states, i)
        comp = rewrite_ops(kind, ops)
        saves = sum(1 for op in ops if op[0] == "s")
        out(res.line() + "  %d saves, %d sector rewrites" % (saves, len(comp)))
        two = Result(kind + " games x2")
        for i in double_points(ops, comp):
            double(rig, two, ops, snaps, states, i, ks, ks)
        out(two.line() + "  (at the records write and the sector rewrite)")
        got.append((res, saves, comp))
        got.append((two, saves, comp))
    return got


def double_points(ops, comp):
    """The operations two cuts in a row start at: the first records write, the first sector rewrite, and the
    one before each (so the second cut lands on them)."""
    at = []
    recs = [i for i in range(len(ops)) if ops[i][0] == "r"]
    for j in recs[:1] + comp[:1]:
        for i in (j - 1, j):
            if 0 <= i < len(ops) - 1 and i not in at:
                at.append(i)
    return at


KS = (0, 1, 2, 3, 5, 8, 9, 10, 13, 21, 34, 55, 89, 120, 130, 140)
KS_SMALL = (0, 2, 9, 21, 55, 89)


def sample(kinds=STORES, n=60, ks=KS):
    """The make-test sample: every cut point of the first 3 saves and of the first nvm sector rewrite, and
    double cuts at a spread of cut-point pairs there; on the new stores, the same at the first records
    write, the first compaction and the saves around them of app-like games."""
    P = payloads(n + 3)
    results = []
    for kind in kinds:
        rig = Rig(kind)
        res = Result(kind)
        ops = saves_only(P[:n])
        snaps, states = prefix_snapshots(rig, ops)
        comp = rewrite_ops(kind, ops) if rig.nvm else []
        for i in [0, 1, 2] + comp[:1]:
            single(rig, res, ops, snaps, states, i)
        for i in [0, 1] + comp[:1]:
            double(rig, res, ops, snaps, states, i, ks, ks)
        if not kind.startswith("old"):
            rig = Rig(kind)
            ops = game_ops(1, 2)
            snaps, states = prefix_snapshots(rig, ops)
            r = [i for i in range(len(ops)) if ops[i][0] == "r"][0]
            c = r + 1
            for i in (r - 1, r, c):
                single(rig, res, ops, snaps, states, i)
            for i in (r - 1, r, c):
                double(rig, res, ops, snaps, states, i, ks, ks)
        results.append(res)
    return results


if __name__ == "__main__":
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else "sample"
    if what == "full":
        full()
        games()
    else:
        for r in sample(ks=KS_SMALL if what == "small" else KS):
            print(r.line())
