"""The optimal coach on the device: best keep or box for the current roll, and what a choice costs.
"""
# Give it the rule set and a valuer: a StrategyTable (exact, from `make tables`) or anything with
# `value(filled, u, z)` and `scale` (the good CPU gives it fivedice.good_valuer's table-free
# estimate). For the current card, `prepare` solves the turn once from the values of the next
# states:
#
#     V3[r]  = best box for roll r: (points + extra bonus) * scale + value(next state)
#     K2[k]  = expected V3 after keeping multiset k and rerolling the rest
#     V2[r]  = best K2 over the keeps of roll r;   K1[k] = expected V2 after keeping k
#
# k2 and k1 hold K2 and K1 for the 462 keeps (fivedice.keeps order); their level 5 (the rolls) holds
# V3 and V2 in wide units. Everything is integer (floats allocate on the boards): V in table units
# (1/scale point); K in "wide" units, scale * 7776 per point, where 7776 = 6**5 lets the
# one-die-at-a-time averages stay exact. With scale <= 256 every value stays below 2**30, a small
# int on 32-bit ports. After the constructor nothing allocates (proved under heap_lock in
# tests/heap_lock/test_heap_coach.py). Cost: see docs/coach.md (µs per hint on the MicroPython unix
# port, RP2040 estimate).

from fivedice.compat import const, zeros
from fivedice import lazy as _lazy
# their home
from fivedice.coach_buffers import L5 as _L5, MAXG as _MAXG, MAXNZ as _MAXNZ, SLOTS as _SLOTS
from fivedice import keeps as _k
from fivedice import rules as _r
from fivedice import scoring
from fivedice import strategy_table as _st
from fivedice.scorecard import Card

# noqa: F401  hint(): none; hold `value`, roll; score box `value`
from fivedice.game import NONE, KEEP, SCORE

WIDE = const(7776)  # 6**5
TOP_LEN = const(13)  # choices()' array: 3 kinds, 3 values, 3 wide values, 3 keep indexes, the count
_TV = const(3)
_TW = const(6)
_TG = const(9)
_TN = const(12)
# the turn solve's phases (work, _phase): 0-15 the next states' values from that box on, _READS
# table reads a slice (_HL + r: Yum's High/Low points from roll r on, _GROLLS rolls a slice); then
# _FINAL: the final roll (half the open boxes a slice), averages (level 4, levels 3-0), best
# sub-keeps (levels 0-4, the rolls in two halves), averages; _SOLVED. Each slice under 50 ms on an
# RP2040 (docs/benchmarks.md). The state is all in _phase: an attribute more costs heap
_FINAL = const(16)
_SOLVED = const(25)
_HL = const(32)
_READS = const(12)
# A slice of the groups (_group_step) scores _GROLLS rolls (a divisor of 252), or finds groups until
# it has looked at _GSCAN rolls (the group it is in goes on to the box's end: up to 251 more).
# Measured on the unix port, worst of every rule set: 3.9 us a roll scored, 0.07 us a roll looked
# at; with 14 and 375 a slice takes <= ~60 us, ~11 ms on an RP2040 (x185), halved for issue 34:
# the board ran these passes at up to 2x the estimate
_GROLLS = const(14)
_GSCAN = const(375)

# box modes: how the next state's slot follows from the points scored
_PLAIN = const(0)
_UPPER = const(1)
_FIVE = const(2)
_HILO = const(3)


def _levels(a, first):
    """Memoryviews of array a from the start of each level first .. first + 4."""
    mv = memoryview(a)
    return (
        mv[_k.START[first] :],
        mv[_k.START[first + 1] :],
        mv[_k.START[first + 2] :],
        mv[_k.START[first + 3] :],
        mv[_k.START[first + 4] :],
    )


# CHILD and PARENT seen from offsets 0..5 / 0..4: cv[f][c] = CHILD[c + f] without an add in the
# loops
_CV = (_k.CHILD, memoryview(_k.CHILD)[1:], memoryview(_k.CHILD)[2:], memoryview(_k.CHILD)[3:],
       memoryview(_k.CHILD)[4:], memoryview(_k.CHILD)[5:])
_PV = (_k.PARENT, memoryview(_k.PARENT)[1:], memoryview(_k.PARENT)[2:], memoryview(_k.PARENT)[3:],
       memoryview(_k.PARENT)[4:])

# popcount of 0..31: the level of a dice mask's keep
_POPC = (
    b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
)


class Coach:
    def __init__(self, rs, valuer, groups=None, work=None):
        # Buffers sized for the largest rule set, allocated once: retarget() moves the coach to
        # another game or rule set without allocating (a fragmented heap cannot fail a later "New
        # game" here).
        nb = _r.MAX_BOXES
        # the final roll's points on an empty card, sparse: for each box its groups of rolls scoring
        # the same points p > 0 (rolls scoring 0 take the box's scratch value): box b's groups are
        # _gfirst[b] .. _gfirst[b + 1] - 1, group g scores _gpts[g] with the rolls _grolls[_gend[g -
        # 1] .. _gend[g] - 1]. `groups` (coach_buffers.new_groups()) may be shared: coaches of one
        # rule set (the table's, the good CPU's) compute them once (3,276 scorings, ~5.7 s on a
        # Pico), in slices of work() (_group_step), so neither a new game nor a resumed one waits
        # for them. `work` (coach_buffers.new_work()): the turn solve's arrays, shared likewise; the
        # app allocates both once, at start-up.
        if groups is None:
            # (a coach of its own: the host's tools, tests)
            groups = _lazy.load("coach_buffers").new_groups()
        if work is None:
            work = _lazy.load("coach_buffers").new_work()
        self.arrays = work
        self.groups = groups
        self._grolls = groups[1]
        self._gpts = groups[2]
        self._gend = groups[3]
        self._gfirst = groups[4]
        self._dice = bytearray(5)
        self._five = bytearray(5)
        self._hl = work[4]
        self._empty = Card(rs)
        self._face = bytearray(nb)
        self._mode = bytearray(nb)
        self._open = bytearray(nb)
        self._nopen = 0
        self._env = work[3]
        # keep values, wide units; level 5 of k2 holds V3 (x WIDE) and level 5 of k1 holds V2 (x
        # WIDE)
        self.k2 = work[0]
        self.k1 = work[1]
        self._m = work[2]  # best sub-keeps of levels 0..4
        self._k0 = None  # only for turn_value() (host checks), allocated there
        # views of levels 1..5 (k2, k1) and 0..4 (_m): an index inside a level needs no add
        # (measured: -20 % of the turn solve's bytecodes in the averages, the final roll and the
        # best sub-keeps)
        self._k2v = _levels(self.k2, 1)
        self._k1v = _levels(self.k1, 1)
        self._mv = _levels(self._m, 0)
        self._gi = zeros("H", 32)  # hint: the keep index of each of the 32 dice masks
        self.rs = None
        self.retarget(rs, valuer)

    def retarget(self, rs, valuer):
        """Coach rule set `rs` with `valuer` from now on (a new game); reuses every buffer,
        allocates nothing."""
        self.valuer = valuer
        self.scale = valuer.scale
        self._hlbox = -1
        # the turn solve's next slice (work); _SOLVED: done for (filled, u, z); -1: none
        self._phase = -1
        self.filled = -1
        self.u = 0
        self.z = 0
        # results of the last hint
        self.kind = NONE
        self.value = 0
        self.best = 0  # value of the best action, wide units
        self.box_best = -1
        if rs is self.rs:
            return
        self.rs = rs
        n = rs.n
        self.n = n
        self._zd = _st.zdim(rs)
        empty = self._empty
        empty.rs = rs
        empty.clear()
        for b in range(n):
            self._face[b] = rs.arg[b] if rs.kinds[b] == _r.UPPER else 0

    # -- the turn
    # ---------------------------------------------------------------------------------------
    def prepare(self, card):
        """Solve the turn for `card`'s state unless it is already solved (all of it at once)."""
        while not self.work(card):
            pass

    def work(self, card):
        """One slice of the turn solve for `card`'s state (a seventh of it, under 50 ms on an
        RP2040: the app calls it once a loop pass so buttons, animation and sound stay live); True
        once the turn is solved. A card in another state starts the solve again, so does finding
        another coach's solve in the shared arrays. The final-roll groups of a new rule set come
        first, a slice a call (_group_step). Allocates nothing."""
        rs = self.rs
        if self.groups[0] is not rs:
            self._group_step()
            return False
        w = self.arrays
        # the arrays hold another coach's solve (or none yet): this coach's from the top
        if w[5] is not self:
            w[5] = self
            self._phase = -1
        f = card.filled
        u = _st.u_of(rs, card)
        z = _st.z_of(rs, card)
        if f != self.filled or u != self.u or z != self.z or self._phase < 0:
            self.filled = f
            self.u = u
            self.z = z
            self._phase = 0
        ph = self._phase
        if ph == _SOLVED:
            return True
        if ph < _FINAL or ph >= _HL:
            if ph < _FINAL:
                ph = self._next_values(card, ph)
            else:
                # Yum's High or Low (the other one filled): its points, by the card
                self._hl_step(card, ph - _HL)
                ph += _GROLLS
                if ph - _HL >= 252:
                    ph = self._hlbox + 1  # the boxes after it next
            self._phase = _FINAL if self.n <= ph < _FINAL else ph
            return False
        if ph < _FINAL + 2:
            self._final_roll(card, ph == _FINAL)  # V3 into level 5 of k2, in two halves
        elif ph < _FINAL + 4:
            self._averages(self.k2, self._k2v, ph - _FINAL - 2)  # level 4, then levels 3-0
        elif ph < _FINAL + 7:
            # levels 0-4 into _m, then V2 into level 5 of k1 (two halves of the rolls)
            self._best_subkeeps(self.k2, self.k1, ph - _FINAL - 4)
        else:
            self._averages(self.k1, self._k1v, ph - _FINAL - 7)
        self._phase = ph + 1
        return ph + 1 == _SOLVED

    def warm(self, rs=None):
        """One slice of the final-roll groups if they are not built for this coach's rule set yet
        (the app calls it while the menu idles, so the first game's turn solve starts at once); True
        once built. With `rs`, the coach moves to that rule set first, its valuer kept (a game
        seating the coach sets its own)."""
        if rs is not None and rs is not self.rs:
            self.retarget(rs, self.valuer)
        if self.groups[0] is not self.rs:
            self._group_step()
        return self.groups[0] is self.rs

    def _group_step(self):
        """One slice of the final-roll groups of self.rs (the points of every box for the 252 rolls
        on an empty card, grouped by points): a box's rolls scored _GROLLS at a time, then its
        groups found a few at a time (each scans the box's later rolls). Any coach sharing the
        groups list (which holds the state) may take the next slice."""
        gs = self.groups
        rs = self.rs
        if gs[5] is not rs:  # start (or start again: another rule set was being grouped)
            gs[0] = None
            gs[5] = rs
            gs[6] = 0  # box
            gs[7] = 0  # groups so far
            gs[8] = 0  # rolls in groups so far
            gs[10] = 0  # next roll: to score (< 252), to group (252 + roll)
        b = gs[6]
        r0 = gs[10]
        sc = gs[9]  # the box's points for the 252 rolls
        if r0 < 252:
            d = self._dice
            empty = self._empty
            for r in range(r0, r0 + _GROLLS):
                _k.roll_dice(r, d)
                scoring.load(d)
                sc[r] = scoring.points(rs, empty, b)
            gs[10] = r0 + _GROLLS
            return
        gr = self._grolls
        ge = self._gend
        gp = self._gpts
        ng = gs[7]
        nz = gs[8]
        r = r0 - 252
        if r == 0:
            self._gfirst[b] = ng
        budget = _GSCAN
        while r < 252 and budget > 0:
            q = sc[r]
            if q:
                if ng >= _MAXG:
                    raise ValueError("coach: more point groups than _MAXG")
                # a new group: every later roll with the same points, taken
                for r2 in range(r, 252):
                    if sc[r2] == q:
                        if nz >= _MAXNZ:
                            raise ValueError("coach: more scoring rolls than _MAXNZ")
                        gr[nz] = r2
                        nz += 1
                        sc[r2] = 0
                gp[ng] = q
                ge[ng] = nz
                ng += 1
                budget -= 252 - r
            r += 1
        gs[7] = ng
        gs[8] = nz
        if r < 252:
            gs[10] = 252 + r
            return
        gs[10] = 0
        gs[6] = b + 1
        if b + 1 == rs.n:
            self._gfirst[b + 1] = ng
            gs[5] = None
            gs[0] = rs

    @property
    def solved(self):
        """The turn of the last card given to work() or prepare() is solved (and still in the
        arrays)."""
        return self._phase == _SOLVED and self.arrays[5] is self

    def _next_values(self, card, lo):
        """The table's values of the next states for the boxes from lo on, until _READS table reads
        are done; returns the box to go on from (self.n: all read), or _HL: Yum's High or Low
        (_hlbox) has its points next."""
        rs = self.rs
        f = self.filled
        u = self.u
        z = self.z
        t = rs.upper_threshold
        zd = self._zd
        env = self._env
        val = self.valuer
        if lo == 0:
            self._hlbox = -1
            self._nopen = 0
        k = self._nopen
        b = lo
        n = self.n
        reads = 0
        while b < n and reads < _READS:
            if (f >> b) & 1:
                b += 1
                continue
            self._open[k] = b
            k += 1
            m2 = f | (1 << b)
            o = b * _SLOTS
            face = self._face[b]
            if face:
                self._mode[b] = _UPPER
                for c in range(6):
                    u2 = u + c * face  # strategy_table.u_after
                    if u2 > t:
                        u2 = t if t else u
                    env[o + c] = val.value(m2, u2, z)
                reads += 5
            elif b == rs.five_box and zd == 2:
                self._mode[b] = _FIVE
                env[o] = val.value(m2, u, 0)
                env[o + 1] = val.value(m2, u, 1)
                reads += 1
            elif (b == rs.high_box or b == rs.low_box) and zd == 11:
                other = rs.low_box if b == rs.high_box else rs.high_box
                if (f >> other) & 1:
                    self._mode[b] = _PLAIN
                    env[o] = val.value(m2, u, 0)
                    self._hlbox = b  # its points depend on the other box's: the next slices
                    self._nopen = k
                    return _HL
                else:
                    self._mode[b] = _HILO
                    for s in range(_SLOTS):
                        env[o + s] = val.value(m2, u, s)
                    reads += _SLOTS - 1
            else:
                self._mode[b] = _PLAIN
                env[o] = val.value(m2, u, z)
            reads += 1
            b += 1
        self._nopen = k
        return b

    def _hl_step(self, card, r0):
        # Yum's High or Low (the other one filled): the points of _GROLLS rolls from r0, by the card
        d = self._dice
        for r in range(r0, r0 + _GROLLS):
            _k.roll_dice(r, d)
            scoring.load(d)
            self._hl[r] = scoring.points(self.rs, card, self._hlbox)

    def _slot(self, b, p):
        m = self._mode[b]
        if m == _UPPER:
            return p // self._face[b]
        if m == _FIVE:
            return 1 if p == self.rs.pts[b] else 0
        if m == _HILO:
            return p - 20 if p else 0
        return 0

    def _final_roll(self, card, first):
        """V3 of the 252 rolls, x WIDE, into level 5 of k2: each roll's best box, from the grouped
        points; first: the scratch values and the first half of the open boxes, else the rest."""
        rs = self.rs
        sc = self.scale
        env = self._env
        mode = self._mode
        face = self._face
        opn = self._open
        k = self._nopen
        hlb = self._hlbox
        gr = self._grolls
        gp = self._gpts
        ge = self._gend
        gf = self._gfirst
        out = self._k2v[4]  # level 5 of k2: V3 of roll r is out[r]
        h = (k + 1) >> 1
        c0 = -1
        for i in range(k):
            v = env[opn[i] * _SLOTS]
            if v > c0:
                c0 = v
        c0 *= WIDE
        i0 = h
        if first:
            for r in range(252):
                out[r] = c0
            i0 = 0
            k = h
        for i in range(i0, k):
            b = opn[i]
            o = b * _SLOTS
            # Yum's High or Low with the other one filled: its points depend on the card
            if b == hlb:
                hl = self._hl
                e = env[o]
                for r in range(252):
                    v = (hl[r] * sc + e) * WIDE
                    if v > out[r]:
                        out[r] = v
                continue
            m = mode[b]
            f = face[b]
            g = gf[b]
            j = ge[g - 1] if g else 0
            for g in range(g, gf[b + 1]):
                p = gp[g]
                if m == _PLAIN:
                    v = (p * sc + env[o]) * WIDE
                elif m == _UPPER:
                    v = (p * sc + env[o + p // f]) * WIDE
                else:
                    v = (p * sc + env[o + self._slot(b, p)]) * WIDE
                e = ge[g]
                if v > c0:
                    for j in range(j, e):
                        r = gr[j]
                        if v > out[r]:
                            out[r] = v
                j = e
        # five of a kind once the five box is used: Joker/Trump Card and extra bonus, from scoring
        fb = rs.five_box
        if (not first and fb >= 0 and (self.filled >> fb) & 1
                and (rs.joker != _r.JOKER_NONE or rs.extra_bonus)):
            d = self._five
            for face5 in range(1, 7):
                for i in range(5):
                    d[i] = face5
                scoring.load(d)
                out[_k.find(5 << 3 * (face5 - 1), 5)] = self._score_best(card) * WIDE

    def _score_best(self, card, top=None, out=None):
        """Best (points + bonus) * scale + next value over the legal boxes for the loaded dice; sets
        box_best. With `top` (choices()), each box is offered to it on the way; with `out`
        (score_values()), each box's value in wide units goes to out[box]."""
        rs = self.rs
        lg = scoring.legal(rs, card)
        x = scoring.extra_bonus(rs, card)
        best = -1
        bb = -1
        for b in range(self.n):
            if (lg >> b) & 1:
                v = self._score_value(card, b, x)
                if v > best:
                    best = v
                    bb = b
                # a value not above a full top's third is not offered (_top would refuse it)
                if top is not None and (top[_TN] < 3 or v * WIDE > top[_TW + 2]):
                    self._top(top, SCORE, b, v * WIDE, -1)
                if out is not None:
                    out[b] = v * WIDE
        self.box_best = bb
        return best

    def _score_value(self, card, b, x):
        # the loaded dice scored in open box b, plus extra bonus x, plus the next state's value
        p = scoring.points(self.rs, card, b)
        return (p + x) * self.scale + self._env[b * _SLOTS + self._slot(b, p)]

    def _averages(self, out, lv, part):
        """Levels 4..0 of out from its level 5, in place: out[k] = expected level-5 value of keeping
        multiset k (one rerolled die at a time). Level 5 holds values x 6**5, so level j is a
        multiple of 6**j and each division by 6 is exact: the same integers as summing 6**(5-j)
        outcomes and scaling by 6**j. lv: the views of out's levels 1..5. part 0: level 4 (126
        keeps), part 1: levels 3..0 (84)."""
        c0, c1, c2, c3, c4, c5 = _CV
        for j in range(3 if part else 4, -1 if part else 3, -1):
            o = lv[j]  # level j + 1
            c = 6 * _k.START[j]
            for i in range(_k.START[j], _k.START[j + 1]):
                out[i] = (o[c0[c]] + o[c1[c]] + o[c2[c]] + o[c3[c]] + o[c4[c]] + o[c5[c]]) // 6
                c += 6

    def _best_subkeeps(self, kv, out, part):
        """Level 5 of out[r] = best kv over the sub-multisets of roll r, rounded to table units, x
        WIDE: part 0 finds the best of levels 0..4 (in _m), parts 1 and 2 level 5's two halves
        (three slices of the turn solve).

        M(k) = max(kv(k), M of k's parents, k less one die): one builtin max() per keep over its
        padded parents (keeps.PARENT repeats the first), a third fewer bytecodes than a chain of
        compares."""
        p0, p1, p2, p3, p4 = _PV
        m = self._m
        mv = self._mv
        if part:
            pm = mv[4]
            i0 = _L5 if part == 1 else _L5 + 126
            p = _k.PSTART[5] + 5 * (i0 - _L5)
            for i in range(i0, i0 + 126):  # level 5, the rolls: half of them
                out[i] = (
                    (max(kv[i], pm[p0[p]], pm[p1[p]], pm[p2[p]], pm[p3[p]], pm[p4[p]]) + WIDE // 2)
                    // WIDE
                    * WIDE
                )
                p += 5
            return
        m[0] = kv[0]
        pm = mv[0]
        for i in range(1, 7):  # level 1: one parent, the empty keep
            m[i] = max(kv[i], pm[0])
        pm = mv[1]
        p = _k.PSTART[2]
        for i in range(7, 28):  # level 2: 2 parents in level 1
            m[i] = max(kv[i], pm[p0[p]], pm[p1[p]])
            p += 2
        pm = mv[2]
        for i in range(28, 84):  # level 3
            m[i] = max(kv[i], pm[p0[p]], pm[p1[p]], pm[p2[p]])
            p += 3
        pm = mv[3]
        for i in range(84, _L5):  # level 4
            m[i] = max(kv[i], pm[p0[p]], pm[p1[p]], pm[p2[p]], pm[p3[p]])
            p += 4

    def start_value(self, card):
        """E at the start of `card`'s turn (table units): one lookup."""
        rs = self.rs
        return self.valuer.value(card.filled, _st.u_of(rs, card), _st.z_of(rs, card))

    def turn_value(self, card):
        """E at the start of `card`'s turn recomputed from the next states (table units): a check.
        """
        self.prepare(card)
        if self._k0 is None:
            self._k0 = zeros("l", 462)
            self._k0v = _levels(self._k0, 1)
        for part in range(3):
            self._best_subkeeps(self.k1, self._k0, part)
        self._averages(self._k0, self._k0v, 0)
        self._averages(self._k0, self._k0v, 1)
        return (self._k0[0] + WIDE // 2) // WIDE

    # -- hints
    # --------------------------------------------------------------------------------------------
    def _keeps_for(self, rolls):
        return self.k1 if rolls == 1 else self.k2

    def keep_value(self, dice, rolls, mask):
        """Wide-unit value of holding the dice in `mask` and rolling (rolls = rolls taken, 1 or 2).
        """
        kv = self._keeps_for(rolls)
        j = 0
        for i in range(5):
            j += (mask >> i) & 1
        return kv[_k.START[j] + _k.find(_k.key_of(dice, mask), j)]

    def score_value(self, card, dice, box):
        """Wide-unit value of scoring `box` with `dice` now (box must be legal)."""
        self.prepare(card)
        scoring.load(dice)
        return self._score_value(card, box, scoring.extra_bonus(self.rs, card)) * WIDE

    def hint(self, card, dice, rolls, held, top=None):
        """The best action for the current roll; returns NONE, KEEP or SCORE and sets kind, value,
        best.

        rolls = rolls taken this turn (1..3); held = bit mask of the dice held now (ties keep it).
        top: choices()' array, given the legal boxes as they are valued.
        """
        if top is not None:
            top[_TN] = 0
        if rolls <= 0 or card.filled == self.rs.all_mask:
            self.kind = NONE
            return NONE
        self.prepare(card)
        scoring.load(dice)
        sbest = self._score_best(card, top) * WIDE
        if rolls >= 3:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        kv = self.k1 if rolls == 1 else self.k2
        # every dice mask but 31 (keeping all five means scoring now, below), in increasing order:
        # the keep of mask m is the keep of m without its highest die plus that die (keeps.CHILD),
        # so no search
        gi = self._gi
        child = _k.CHILD
        st = _k.START
        best = kv[0]
        bm = 0
        gi[0] = 0
        for i in range(5):
            f = dice[i] - 1
            bit = 1 << i
            for prev in range(bit if i < 4 else 15):
                m = bit + prev
                g = st[_POPC[m]] + child[6 * gi[prev] + f]
                gi[m] = g
                v = kv[g]
                if v > best or (v == best and m == held):
                    best = v
                    bm = m
        if sbest >= best:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        self.kind = KEEP
        self.value = bm
        self.best = best
        return KEEP

    def _top(self, top, kind, value, w, g):
        # offer a choice to the best three in `top` (choices()); ties: the one offered first stays
        # ahead
        n = top[_TN]
        if g >= 0:
            for i in range(n):
                if top[_TG + i] == g:
                    return  # the same keep from another mask (two 5s, either one held)
        i = n
        while i > 0 and w > top[_TW + i - 1]:
            i -= 1
        if i >= 3:
            return
        j = 2 if n >= 3 else n
        while j > i:
            top[j] = top[j - 1]
            top[_TV + j] = top[_TV + j - 1]
            top[_TW + j] = top[_TW + j - 1]
            top[_TG + j] = top[_TG + j - 1]
            j -= 1
        top[i] = kind
        top[_TV + i] = value
        top[_TW + i] = w
        top[_TG + i] = g
        if n < 3:
            top[_TN] = n + 1

    def choices(self, card, dice, rolls, held, top):
        """The best three distinct choices, best first, into `top` (the caller's array("l") of
        TOP_LEN: top[i] the kind (KEEP/SCORE), top[3 + i] the value (dice mask or box), top[6 + i]
        its value in wide units, top[12] how many); returns how many. Sets hint()'s results too.
        Allocates nothing."""
        # every legal box, then the keeps while a roll is left (every mask but all five); top[9 +
        # i]: a keep's index, -1 for a box, so a second mask of the same keep is skipped. Boxes
        # first (hint() offers them as it values them): a keep only as good as scoring now ranks
        # below (as in hint)
        if self.hint(card, dice, rolls, held, top) == NONE:
            return 0
        if rolls < 3:
            kv = self.k1 if rolls == 1 else self.k2
            gi = self._gi
            self._top(top, KEEP, 0, kv[0], 0)
            for m in range(1, 31):
                # gi: hint() just indexed every mask's keep
                w = kv[gi[m]]
                if top[_TN] < 3 or w > top[_TW + 2]:
                    self._top(top, KEEP, m, w, gi[m])
        return top[_TN]

    def score_values(self, card, dice, out):
        """Wide-unit value of scoring each legal box with `dice` now into out[box] (the picker's
        values: one solve check and one scoring of the dice for all of them); sets box_best as
        hint() does. Allocates nothing."""
        self.prepare(card)
        scoring.load(dice)
        self._score_best(card, None, out)

    def _optimum(self, card, dice, rolls):
        self.hint(card, dice, rolls, 0)
        return self.best

    def keep_loss(self, card, dice, rolls, held):
        """Expected points (wide units) lost by holding `held` and rolling, against the best action.
        """
        b = self._optimum(card, dice, rolls)
        return b - self.keep_value(dice, rolls, held)

    def score_loss(self, card, dice, rolls, box):
        """Expected points (wide units) lost by scoring `box` now, against the best action."""
        b = self._optimum(card, dice, rolls)
        return b - self.score_value(card, dice, box)

    def par_x100(self, card):
        """Par for `card`'s turn: the points banked and the expected rest from the turn's start, in
        hundredths of a point (one table read)."""
        return (card.upper() + card.lower() + card.bonus()) * 100 + self.to_points_x100(
            self.start_value(card) * WIDE
        )

    def to_points_x100(self, wide):
        """Wide units as hundredths of a point (rounded), for display."""
        # whole points first: wide * 100 would pass 2**30 (a long int, allocated, on a 32-bit board)
        d = self.scale * WIDE
        q = wide // d
        return q * 100 + ((wide - q * d) * 100 + d // 2) // d
