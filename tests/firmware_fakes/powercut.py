"""Power cuts at every byte and step of a save, on every store fivedice has (fakeflash media).

A scenario saves payloads P[0], P[1], ... through a store, one save per boot. A single-cut trial
(i, k) restores the medium as it was after i complete saves, boots (a new store, read()), arms a cut
after k events and saves P[i]; then boots again and reads. It passes when the read gives P[i] if the
save finished, else P[i-1] or P[i] (None or P[0] for the very first save on a blank medium): the newest
complete state, losing at most the save being made. A double-cut trial (i, k1, k2) then saves P[i+1]
cut after k2 events, boots and checks the same rule against what the first boot read, and finally
makes one uncut save, which must read back (the store still works after two cuts). k runs from 0
until the save completes, so every event of every save is a cut point.

Stores: "nvm" (NvmStore on FakeNvm), "lfs" (FileStore on LittleFS rules: rename over a file allowed,
a torn write leaves a prefix), "fat" (FileStore on FAT rules: no rename over a file, a torn write
leaves 0xFF after the prefix), and "old-lfs" / "old-fat": the file store before records (write
<path>.tmp, then rename it over the save, or on FAT remove the save and rename), for the before figures.

A failure on "nvm" whose cut hit the sector erase-and-rewrite is counted apart as `window`: the RP2040's
nvm is a single 4 KB flash sector, so while it is erased nothing survives (see store.py).
Runs on CPython and the MicroPython unix port (python powercut.py [sample|small|full] on either).
"""

from fakeflash import FakeFS, FakeNvm, Power, PowerCut
from fdfw.store import FileStore, NvmStore

SAVE = "/fivedice.sav"


def payloads(count, seed=7):
    """Deterministic app-like saves: 0xA7 first, 60-120 bytes, some 0xFF and record-magic bytes inside."""
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


class OldFileStore:
    """The file store before records (firmware/fdfw/store.py until this change), on a fake FS."""

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
        if kind == "nvm":
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
        self.power.restore()
        return self.store().read()


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
        s = "%-8s cut points tried %8d  failures %d" % (self.kind, self.tried, self.failures)
        if self.kind.startswith("nvm"):
            s += "  (sector-rewrite window: %d of %d cut points lose the save)" % (self.window, self.window_cuts)
        return s


def _allowed(got, before, new):
    return got == new or got == before


def _save_cut(rig, data, k):
    """Boot, save data with a cut after k events; True if the save completed."""
    s = rig.store()
    s.read()
    if rig.kind == "nvm":
        rig.medium.cut_in_rewrite = False
    rig.power.cut_after(k)
    try:
        s.write(data)
    except PowerCut:
        return False
    finally:
        rig.power.restore()
    return True


def prefix_snapshots(rig, P, upto):
    """snaps[i] = the medium after i complete saves (each on a fresh boot); checks each reads back."""
    snaps = [rig.medium.snapshot()]
    for i in range(upto):
        s = rig.store()
        s.read()
        s.write(P[i])
        got = rig.boot_read()
        if got != P[i]:
            raise AssertionError("%s: save %d does not read back without any cut" % (rig.kind, i))
        snaps.append(rig.medium.snapshot())
    return snaps


def single(rig, res, P, snaps, i, ks=None):
    """Cut save i after k events for every k (or the given ks)."""
    before = P[i - 1] if i else None
    k = 0
    while True:
        if ks is not None:
            if k >= len(ks):
                return
            kk = ks[k]
        else:
            kk = k
        rig.medium.restore(snaps[i])
        done = _save_cut(rig, P[i], kk)
        win = rig.kind == "nvm" and rig.medium.cut_in_rewrite
        got = rig.boot_read()
        ok = got == P[i] if done else _allowed(got, before, P[i])
        res.add(ok, (i, kk), win)
        if done and ks is None:
            return
        k += 1


def double(rig, res, P, snaps, i, k1s=None, k2s=None):
    """Cut save i after k1 events, boot, cut save i+1 after k2 events, boot; then one clean save."""
    before = P[i - 1] if i else None
    k1 = 0
    while True:
        if k1s is not None and k1 >= len(k1s):
            return
        kk1 = k1s[k1] if k1s is not None else k1
        rig.medium.restore(snaps[i])
        if _save_cut(rig, P[i], kk1):
            return
        win1 = rig.kind == "nvm" and rig.medium.cut_in_rewrite
        got1 = rig.boot_read()
        ok1 = _allowed(got1, before, P[i])
        mid = rig.medium.snapshot()
        k2 = 0
        while True:
            if k2s is not None and k2 >= len(k2s):
                break
            kk2 = k2s[k2] if k2s is not None else k2
            rig.medium.restore(mid)
            done2 = _save_cut(rig, P[i + 1], kk2)
            win2 = rig.kind == "nvm" and rig.medium.cut_in_rewrite
            got2 = rig.boot_read()
            ok = ok1 and (got2 == P[i + 1] if done2 else _allowed(got2, got1, P[i + 1]))
            if ok and not rig.kind.startswith("old"):
                s = rig.store()
                s.read()
                s.write(P[i + 2])
                ok = rig.boot_read() == P[i + 2]
            res.add(ok, (i, kk1, kk2), win1 or win2)
            if done2 and k2s is None:
                break
            k2 += 1
        k1 += 1


STORES = ("nvm", "lfs", "fat")


def compaction_saves(P, count):
    """Indices of the nvm saves that rewrite the sector (found by replaying the saves on a FakeNvm)."""
    nvm = FakeNvm(4096)
    s = NvmStore(nvm)
    out = []
    for i in range(count):
        e = nvm.erases
        s.write(P[i])
        if nvm.erases != e:
            out.append(i)
    return out


def wear(kind, sizes=(37, 53, 85), n=2000):
    """Per save, what reaches the medium: for nvm the bytes programmed and sector erases, for a file
    system the steps (open, truncate, close, rename, remove) and bytes written. sizes: the app's save for
    1, 2 and 4 players today (n saves of each)."""
    out = []
    for ln in sizes:
        rig = Rig(kind)
        s = rig.store()
        s.read()
        for i in range(n):
            s.write(bytes([0xA7]) + bytes([(i + j) & 0x7F for j in range(ln - 1)]))
        m = rig.medium
        if kind == "nvm":
            out.append((ln, m.programmed / n, m.erases / n))
        else:
            steps = sum(m.steps.values()) / n
            out.append((ln, m.written / n, steps, dict((k, v / n) for k, v in m.steps.items())))
    return out


def full(kinds=STORES + ("old-lfs", "old-fat"), n=120, out=print):
    """Every cut point of every one of n saves (n=120 crosses the nvm sector rewrite three times), and every
    pair of cut points of two saves in a row at the first three saves and around the first nvm rewrite."""
    P = payloads(n + 3)
    comp = compaction_saves(P, n)
    at = [0, 1, 2, comp[0] - 1, comp[0], comp[0] + 1]
    results = []
    for kind in kinds:
        rig = Rig(kind)
        snaps = prefix_snapshots(rig, P, n)
        one = Result(kind + " x1")
        for i in range(n):
            single(rig, one, P, snaps, i)
        two = Result(kind + " x2")
        for i in at:
            double(rig, two, P, snaps, i)
        out(one.line())
        out(two.line())
        results += [one, two]
    return results, comp, at


KS = (0, 1, 2, 3, 5, 8, 9, 10, 13, 21, 34, 55, 89, 120, 130, 140)
KS_SMALL = (0, 2, 9, 21, 55, 89)


def sample(kinds=STORES, n=60, ks=KS):
    """The make-test sample: every cut point of the first 3 saves and of the first nvm sector rewrite, and
    double cuts at a spread of cut-point pairs there."""
    P = payloads(n + 3)
    comp = compaction_saves(P, n)
    results = []
    for kind in kinds:
        rig = Rig(kind)
        snaps = prefix_snapshots(rig, P, n)
        res = Result(kind)
        for i in [0, 1, 2] + comp[:1]:
            single(rig, res, P, snaps, i)
        for i in [0, 1] + comp[:1]:
            double(rig, res, P, snaps, i, ks, ks)
        results.append(res)
    return results


if __name__ == "__main__":
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else "sample"
    if what == "full":
        full()
    else:
        for r in sample(ks=KS_SMALL if what == "small" else KS):
            print(r.line())
