"""Backward induction over start-of-turn states, vectorised with numpy (host only).

E[filled, u, z] = expected points still to come under optimal solitaire play (the state model is
documented in fivedice.strategy_table). The turn is solved for a batch of states at once, with the
states on the last axis so every gather copies whole contiguous rows:

    V3[r]  = max over legal boxes b of  points(r, b) + extra bonus(r) + E[next state]
    K(k)   = (1/6) * sum_f K(k + f)   for a keep k of fewer than five dice (one rerolled die at a time:
             exact, and 1,260 adds per state instead of the 4,368 entries of the keep->roll matrix)
    M(k)   = max(K(k), max over faces f in k of M(k - f))   (best sub-keep, 1,980 maxes per state)
    V2 = M5 of K built on V3;  V1 = M5 of K built on V2;  E = K0 built on V1.

Box points come from fivedice.scoring on Card objects: an empty card for the plain table, and cards
standing for the situations where the card matters (Joker/Trump Card rolls once the five box is used;
Yum's High with a Low filled and vice versa). tests/host/test_solver.py checks those tables against
scoring on real cards for every situation the solver uses.
"""
import ctypes
import ctypes.util
import multiprocessing as mp
import os
import sys
import time

import numpy as np

from fivedice import keeps, rules, scoring
from fivedice import strategy_table as st
from fivedice.scorecard import Card

NEG = -np.inf


# -- dice combinatorics (the order of fivedice.keeps) ---------------------------------------------------
def _combinatorics():
    counts = np.zeros((252, 7), dtype=np.int64)
    dice = np.zeros((252, 5), dtype=np.int64)
    buf = bytearray(5)
    for r in range(252):
        keeps.roll_dice(r, buf)
        dice[r] = list(buf)
        for f in buf:
            counts[r, f] += 1
    child = []
    parent = [None]
    for j in range(6):
        n = keeps.START[j + 1] - keeps.START[j]
        if j < 5:
            a = np.frombuffer(keeps.CHILD, dtype=np.uint8)[6 * keeps.START[j] : 6 * keeps.START[j + 1]]
            child.append(a.reshape(n, 6).astype(np.intp))
        if j >= 1:
            a = np.frombuffer(keeps.PARENT, dtype=np.uint8)[keeps.PSTART[j] : keeps.PSTART[j] + j * n]
            parent.append(a.reshape(n, j).astype(np.intp))
    return counts, dice, child, parent


COUNTS, DICE, CHILD, PARENT = _combinatorics()
FIVE_ROWS = np.array([keeps.find(5 << 3 * (f - 1), 5) for f in range(1, 7)], dtype=np.intp)


NKEEP = [keeps.START[j + 1] - keeps.START[j] for j in range(6)]  # multisets of j dice: 1 6 21 56 126 252


class Buffers:
    """The turn's numpy temporaries for a batch of S states, allocated once and reused (out= everywhere).

    The same adds and maxes in the same order as a gather-then-reduce, so the values are bit for bit
    those of the plain numpy expressions (tests/host/test_solver.py, and the tables' sha256 in bench_solver.py).
    """

    def __init__(self, S):
        self.S = S
        self.lv = [np.empty((NKEEP[j], S)) for j in range(5)] + [None]
        self.tmp = [np.empty((NKEEP[j], S)) for j in range(6)]
        self.m = [np.empty((NKEEP[j], S)) for j in range(5)]
        self.v = [np.empty((252, S)), np.empty((252, S))]


_BUFS = {}


def buffers(S):
    """Buffers for batch size S (one per size a process meets: the chunk size and each layer's remainder)."""
    b = _BUFS.get(S)
    if b is None:
        if len(_BUFS) > 8:
            _BUFS.clear()
        b = _BUFS[S] = Buffers(S)
    return b


def avg_levels(top, bufs=None):
    """levels[j][k] = expected value of keeping multiset k (j dice) when `top` gives the value of each roll."""
    if bufs is None:
        bufs = buffers(top.shape[1])
    lv = bufs.lv
    lv[5] = top
    for j in range(4, -1, -1):
        c = CHILD[j]
        out, tmp, src = lv[j], bufs.tmp[j], lv[j + 1]
        np.take(src, c[:, 0], axis=0, out=out)
        for f in range(1, 6):
            out += np.take(src, c[:, f], axis=0, out=tmp)
        out *= 1.0 / 6.0
    return lv


def best_subkeep(lv, out=None, bufs=None):
    """For each roll (level 5), the best value over all its sub-multisets (keeps); into `out` if given."""
    if bufs is None:
        bufs = buffers(lv[5].shape[1])
    m = lv[0]
    for j in range(1, 6):
        pa = PARENT[j]
        p = out if j == 5 and out is not None else (bufs.m[j] if j < 5 else np.empty_like(lv[5]))
        tmp = bufs.tmp[j]
        np.take(m, pa[:, 0], axis=0, out=p)
        for i in range(1, j):
            np.maximum(p, np.take(m, pa[:, i], axis=0, out=tmp), out=p)
        m = np.maximum(lv[j], p, out=p)
    return m


def turn_from_v3(v3):
    """E at the start of the turn from the final-roll values V3 (252, S)."""
    b = buffers(v3.shape[1])
    v2 = best_subkeep(avg_levels(v3, b), b.v[0], b)
    v1 = best_subkeep(avg_levels(v2, b), b.v[1], b)
    return avg_levels(v1, b)[0][0].copy()


# -- per-rule-set model --------------------------------------------------------------------------------
class Model:
    """Everything the solver needs to know about one rule set (and optionally a sub-game's base mask)."""

    def __init__(self, rs, base=0):
        self.rs = rs
        self.n = rs.n
        self.base = base
        self.T = rs.upper_threshold
        self.U = st.udim(rs)
        self.Z = st.zdim(rs)
        self.size = (1 << rs.n) * self.U * self.Z
        self.upper_face = [rs.arg[b] if rs.kinds[b] == rules.UPPER else 0 for b in range(rs.n)]
        card = Card(rs)
        self.pts0 = np.zeros((252, rs.n), dtype=np.int64)
        for r in range(252):
            scoring.load(DICE[r].tolist())
            for b in range(rs.n):
                self.pts0[r, b] = scoring.points(rs, card, b)
        self.ureach = self._ureach()
        self._joker_tables()
        self._highlow_tables()

    def _ureach(self):
        """ureach[upper bits] = sorted array of the capped upper totals a card with those boxes can have."""
        T = self.T
        if not T:
            return [np.zeros(1, dtype=np.int64)] * 64
        sets = [None] * 64
        sets[0] = {0}
        for s in range(1, 64):
            f = (s & -s).bit_length()  # lowest face in s
            prev = sets[s & (s - 1)]
            sets[s] = {min(T, x + c * f) for x in prev for c in range(6)}
        return [np.array(sorted(x), dtype=np.int64) for x in sets]

    def zlist(self, filled):
        zb = st.zreach(self.rs, filled)
        return [z for z in range(self.Z) if (zb >> z) & 1]

    def _joker_tables(self):
        """JP[filled, z, face-1, box] = points (-1 illegal), JX[...] = extra bonus, for five-of-a-kind
        rolls once the five box is used (the only rolls where Joker rules change anything)."""
        rs = self.rs
        self.JP = None
        if rs.five_box < 0 or (rs.joker == rules.JOKER_NONE and not rs.extra_bonus):
            return
        n = rs.n
        fb = 1 << rs.five_box
        JP = np.full((1 << n, self.Z, 6, n), -1, dtype=np.int16)
        JX = np.zeros((1 << n, self.Z, 6), dtype=np.int16)
        card = Card(rs)
        fives = [[f] * 5 for f in range(1, 7)]
        for m in range(1 << n):
            if not m & fb or m & self.base != self.base or m == rs.all_mask:
                continue
            card.filled = m
            for z in self.zlist(m):
                card.pts[rs.five_box] = rs.pts[rs.five_box] if z else 0
                for f in range(6):
                    scoring.load(fives[f])
                    lg = scoring.legal(rs, card)
                    JX[m, z, f] = scoring.extra_bonus(rs, card)
                    row = JP[m, z, f]
                    for b in range(n):
                        if (lg >> b) & 1:
                            row[b] = scoring.points(rs, card, b)
        self.JP = JP
        self.JX = JX

    def _highlow_tables(self):
        """PH[0] = High's points on an empty card; PH[1 + z] = with Low filled at code z. PL likewise."""
        rs = self.rs
        self.PH = None
        if rs.high_box < 0:
            return
        self.PH = np.zeros((12, 252), dtype=np.int64)
        self.PL = np.zeros((12, 252), dtype=np.int64)
        for box, other, out in ((rs.high_box, rs.low_box, self.PH), (rs.low_box, rs.high_box, self.PL)):
            out[0] = self.pts0[:, box]
            for z in range(11):
                card = Card(rs)
                card.fill(other, 20 + z if z else 0)
                for r in range(252):
                    scoring.load(DICE[r].tolist())
                    out[1 + z, r] = scoring.points(rs, card, box)

    # -- the state index used by the dense E array
    def flat(self, m, u, z):
        return (m * self.U + u) * self.Z + z

    def layer_states(self, popcount):
        """All reachable states whose filled mask has `popcount` boxes and contains the base mask."""
        ms, us, zs = [], [], []
        for m in range(1 << self.n):
            if m & self.base != self.base or bin(m).count("1") != popcount:
                continue
            ur = self.ureach[m & 63]
            for z in self.zlist(m):
                ms.append(np.full(len(ur), m, dtype=np.int64))
                us.append(ur)
                zs.append(np.full(len(ur), z, dtype=np.int64))
        if not ms:
            e = np.zeros(0, dtype=np.int64)
            return e, e, e
        return np.concatenate(ms), np.concatenate(us), np.concatenate(zs)

    def state_count(self):
        return sum(len(self.layer_states(p)[0]) for p in range(bin(self.base).count("1"), self.n + 1))

    # -- one batch of turns
    def final_roll(self, E, ms, us, zs):
        """V3 (252, S): the best box for each roll, for states (ms, us, zs)."""
        rs = self.rs
        U, Z, T = self.U, self.Z, self.T
        S = len(ms)
        V = np.full((252, S), NEG)
        for b in range(self.n):
            bit = 1 << b
            closed = (ms & bit) != 0
            if closed.all():
                continue
            m2 = ms | bit
            f = self.upper_face[b]
            pcol = self.pts0[:, b][:, None]
            if f:
                uu = us[None, :] + (np.arange(6) * f)[:, None]
                if T:
                    np.minimum(uu, T, out=uu)
                else:
                    uu[:] = 0
                En = E[(m2[None, :] * U + uu) * Z + zs[None, :]]
                En[:, closed] = NEG
                cand = En[COUNTS[:, f]]
                cand += pcol
            elif Z == 2 and b == rs.five_box:
                b0 = (m2 * U + us) * Z
                E0 = E[b0]
                E1 = E[b0 + 1]
                E0[closed] = NEG
                E1[closed] = NEG
                full = self.pts0[:, b] == rs.pts[b]
                cand = np.where(full[:, None], E1[None, :], E0[None, :]) + pcol
            elif Z == 11 and (b == rs.high_box or b == rs.low_box):
                other = rs.low_box if b == rs.high_box else rs.high_box
                ofilled = ((ms >> other) & 1) == 1
                sit = np.where(ofilled, 1 + zs, 0)
                P = (self.PH if b == rs.high_box else self.PL)[sit].T  # (252, S)
                z2 = np.where(P > 0, P - 20, 0)
                z2[:, ofilled] = 0
                cand = E[(m2 * U + us)[None, :] * Z + z2] + P
                cand[:, closed] = NEG
            else:
                En = E[(m2 * U + us) * Z + zs]
                En[closed] = NEG
                cand = pcol + En[None, :]
            np.maximum(V, cand, out=V)
        if self.JP is not None:
            self._joker_patch(E, V, ms, us, zs)
        return V

    def _joker_patch(self, E, V, ms, us, zs):
        rs = self.rs
        sub = np.nonzero((ms >> rs.five_box) & 1)[0]
        if not len(sub):
            return
        U, Z, T = self.U, self.Z, self.T
        m, u, z = ms[sub], us[sub], zs[sub]
        jp = self.JP[m, z]  # (S', 6, n)
        best = np.full((6, len(sub)), NEG)
        for b in range(self.n):
            p = jp[:, :, b].T.astype(np.int64)  # (6, S')
            legal = p >= 0
            if not legal.any():
                continue
            m2 = m | (1 << b)
            if self.upper_face[b] and T:
                u2 = np.minimum(u[None, :] + np.maximum(p, 0), T)
            else:
                u2 = u[None, :]
            assert b != rs.five_box and b != rs.high_box  # the Joker never reaches a z-changing box
            cand = E[(m2[None, :] * U + u2) * Z + z[None, :]] + p
            cand[~legal] = NEG
            np.maximum(best, cand, out=best)
        best += self.JX[m, z].T
        V[np.ix_(FIVE_ROWS, sub)] = best

    def turn(self, E, ms, us, zs):
        return turn_from_v3(self.final_roll(E, ms, us, zs))


# -- the driver -----------------------------------------------------------------------------------------
_M_TRIM_THRESHOLD = -1  # glibc malloc.h
_M_MMAP_THRESHOLD = -3


def steady_malloc():
    """Keep glibc from handing the heap back to the OS between numpy temporaries (Linux/glibc only).

    By default glibc serves a block over its mmap threshold (128 KB, raised on the fly up to 32 MB)
    with mmap and trims the top of the heap once 2x that is free, so a turn's (252, S) temporaries are
    faulted in page by page again and again: Yum's solve took 3.9 M page faults and 16 s of system time
    in one run here, Yatzy's likewise, and Yahtzee's about half the time (issue #10). Fixed thresholds
    (32 MB, the most glibc accepts; trim above 1 GB) keep the temporaries in the heap for reuse. Called
    at the start of solve(), before the pool forks, so the workers inherit it. Returns True when set.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others: no mallopt, nothing to do
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    ok = mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    return bool(ok and mallopt(_M_TRIM_THRESHOLD, 1 << 30))


_W = {}  # worker globals, inherited through fork


def _work(args):
    lo, hi, ms, us, zs = args
    md = _W["model"]
    E = _W["E"]
    E[md.flat(ms, us, zs)] = md.turn(E, ms, us, zs)
    return hi - lo


def _progress(label, layer, nlayers, done, total, t0, tl, out, _last=[None]):
    """One status line, redrawn in place: rule set, layer, bar, percent, total and this layer's time."""
    if out is None:
        return
    w = 30
    k = int(w * done / total) if total else w
    pc = int(200 * done / max(total, 1))
    if _last[0] == (label, layer, pc) and done < total:
        return
    _last[0] = (label, layer, pc)
    now = time.time()
    out.write("\r%-14s layer %2d/%-2d [%s%s] %5.1f%% %6.2fs (layer %5.2fs)" % (
        label, layer, nlayers, "#" * k, "." * (w - k), 100.0 * done / max(total, 1), now - t0, now - tl))
    out.flush()


def solve(rs, base=0, workers=None, chunk=768, progress=None):
    """Solve rule set `rs` (optionally only states containing `base`); returns (model, E, seconds).

    E is the dense float64 array indexed by model.flat(filled, u, z); unreachable entries are 0.
    """
    t0 = time.time()
    if os.environ.get("FIVEDICE_SOLVER_MALLOC") != "default":  # =default: glibc's own (for bench_solver.py)
        steady_malloc()
    md = Model(rs, base)
    if workers is None:
        workers = min(2, os.cpu_count() or 1)
    shm = mp.RawArray("d", md.size) if workers > 1 else None
    E = np.frombuffer(shm, dtype=np.float64) if shm is not None else np.zeros(md.size)
    # terminal states: only the upper bonus is still to come
    ms, us, zs = md.layer_states(rs.n)
    if len(ms):
        E[md.flat(ms, us, zs)] = np.where(us >= md.T, rs.upper_bonus, 0) if md.T else 0
    layers = [md.layer_states(p) for p in range(rs.n - 1, bin(base).count("1") - 1, -1)]
    total = sum(len(x[0]) for x in layers)
    done = 0
    md.layer_times = []  # (boxes filled, states, seconds) per layer, in solve order
    _W["model"] = md
    _W["E"] = E
    pool = None
    if workers > 1 and total > 4 * chunk:
        ctx = mp.get_context("fork")
        pool = ctx.Pool(workers)
    try:
        for li, (ms, us, zs) in enumerate(layers):
            tl = time.time()
            lab = (rs.id, li + 1, len(layers))
            jobs = [(i, min(i + chunk, len(ms)), ms[i : i + chunk], us[i : i + chunk], zs[i : i + chunk]) for i in range(0, len(ms), chunk)]
            if pool is not None:
                for k in pool.imap_unordered(_work, jobs):
                    done += k
                    _progress(*lab, done, total, t0, tl, progress)
            else:
                for j in jobs:
                    done += _work(j)
                    _progress(*lab, done, total, t0, tl, progress)
            md.layer_times.append((rs.n - 1 - li, len(ms), time.time() - tl))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if progress is not None:
        progress.write("\n%-14s seconds per layer (boxes filled: s) %s\n" % (
            "", " ".join("%d:%.2f" % (f, t) for f, _, t in md.layer_times)))
    return md, np.array(E), time.time() - t0


def start_value(md, E, card=None):
    """E at the start state (or at `card`'s state)."""
    rs = md.rs
    if card is None:
        return float(E[md.flat(md.base, 0, 0)])
    return float(E[md.flat(card.filled, st.u_of(rs, card), st.z_of(rs, card))])
