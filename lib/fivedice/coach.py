"""The optimal coach on the device: best keep or box for the current roll, and what a choice costs.

Give it the rule set and a valuer: a StrategyTable (exact, from `make tables`) or anything with
`value(filled, u, z)` and `scale` (fivedice.players uses a table-free heuristic valuer the same way).
For the current card, `prepare` solves the turn once from the values of the next states:

    V3[r]  = best box for roll r: (points + extra bonus) * scale + value(next state)
    K2[k]  = expected V3 after keeping multiset k and rerolling the rest
    V2[r]  = best K2 over the keeps of roll r;   K1[k] = expected V2 after keeping k

Everything is integer (floats allocate on the boards): V in table units (1/scale point); K in
"wide" units, scale * 7776 per point, where 7776 = 6**5 lets the one-die-at-a-time averages stay
exact. With scale <= 256 every value stays below 2**30, a small int on 32-bit ports.
After the constructor nothing allocates (proved under heap_lock in tests/mpy/test_heap_coach.py).
Cost: see docs/coach.md (µs per hint on the MicroPython unix port, RP2040 estimate).
"""

from fivedice.compat import const, zeros
from fivedice import keeps as _k
from fivedice import rules as _r
from fivedice import scoring
from fivedice import strategy_table as _st
from fivedice.scorecard import Card

NONE = const(0)  # nothing to decide (no dice yet, or game over)
KEEP = const(1)  # hold the dice in `value` (bit i = die i) and roll
SCORE = const(2)  # score box `value`

WIDE = const(7776)  # 6**5
_SLOTS = const(11)
_L5 = const(210)  # first index of level 5 (the rolls) in the 462 keeps

# box modes: how the next state's slot follows from the points scored
_PLAIN = const(0)
_UPPER = const(1)
_FIVE = const(2)
_HILO = const(3)


class Coach:
    def __init__(self, rs, valuer):
        # Buffers sized for the largest rule set, allocated once: retarget() moves the coach to another
        # game or rule set without allocating (a fragmented heap cannot fail a later "New game" here).
        nb = _r.MAX_BOXES
        self._pts0 = bytearray(252 * nb)
        self._dice = bytearray(5)
        self._five = bytearray(5)
        self._hl = bytearray(252)
        self._empty = Card(rs)
        self._face = bytearray(nb)
        self._mode = bytearray(nb)
        self._open = bytearray(nb)
        self._nopen = 0
        self._env = zeros("l", nb * _SLOTS)
        self.v3 = zeros("l", 252)
        self.v2 = zeros("l", 252)
        self.k2 = zeros("l", 462)
        self.k1 = zeros("l", 462)
        self._m = zeros("l", 462)
        self._v1 = None  # only for turn_value() (host checks), allocated there
        self.rs = None
        self.retarget(rs, valuer)

    def retarget(self, rs, valuer):
        """Coach rule set `rs` with `valuer` from now on (a new game); reuses every buffer, allocates nothing."""
        self.valuer = valuer
        self.scale = valuer.scale
        self._hlbox = -1
        self._have = False
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
        # points of every box for the 252 rolls on an empty card, from scoring (once per rule set)
        empty = self._empty
        empty.rs = rs
        empty.clear()
        for r in range(252):
            _k.roll_dice(r, self._dice)
            scoring.load(self._dice)
            for b in range(n):
                self._pts0[r * n + b] = scoring.points(rs, empty, b)
        for b in range(n):
            self._face[b] = rs.arg[b] if rs.kinds[b] == _r.UPPER else 0

    # -- the turn ---------------------------------------------------------------------------------------
    def prepare(self, card):
        """Solve the turn for `card`'s state unless it is already solved."""
        rs = self.rs
        f = card.filled
        u = _st.u_of(rs, card)
        z = _st.z_of(rs, card)
        if self._have and f == self.filled and u == self.u and z == self.z:
            return
        self.filled = f
        self.u = u
        self.z = z
        self._have = True
        self._next_values(card)
        self._final_roll(card)
        self._averages(self.v3, self.k2)
        self._best_subkeeps(self.k2, self.v2)
        self._averages(self.v2, self.k1)

    def _next_values(self, card):
        rs = self.rs
        f = self.filled
        u = self.u
        z = self.z
        env = self._env
        val = self.valuer
        self._hlbox = -1
        k = 0
        for b in range(self.n):
            if (f >> b) & 1:
                continue
            self._open[k] = b
            k += 1
            m2 = f | (1 << b)
            o = b * _SLOTS
            face = self._face[b]
            if face:
                self._mode[b] = _UPPER
                for c in range(6):
                    env[o + c] = val.value(m2, _st.u_after(rs, u, b, c * face), z)
            elif b == rs.five_box and _st.zdim(rs) == 2:
                self._mode[b] = _FIVE
                env[o] = val.value(m2, u, 0)
                env[o + 1] = val.value(m2, u, 1)
            elif (b == rs.high_box or b == rs.low_box) and _st.zdim(rs) == 11:
                other = rs.low_box if b == rs.high_box else rs.high_box
                if (f >> other) & 1:
                    self._mode[b] = _PLAIN
                    env[o] = val.value(m2, u, 0)
                    self._hlbox = b  # its points depend on the other box's value
                    self._hl_points(card, b)
                else:
                    self._mode[b] = _HILO
                    for s in range(_SLOTS):
                        env[o + s] = val.value(m2, u, s)
            else:
                self._mode[b] = _PLAIN
                env[o] = val.value(m2, u, z)
        self._nopen = k

    def _hl_points(self, card, box):
        d = self._dice
        for r in range(252):
            _k.roll_dice(r, d)
            scoring.load(d)
            self._hl[r] = scoring.points(self.rs, card, box)

    def _slot(self, b, p):
        m = self._mode[b]
        if m == _UPPER:
            return p // self._face[b]
        if m == _FIVE:
            return 1 if p == self.rs.pts[b] else 0
        if m == _HILO:
            return p - 20 if p else 0
        return 0

    def _final_roll(self, card):
        rs = self.rs
        n = self.n
        sc = self.scale
        pts0 = self._pts0
        env = self._env
        mode = self._mode
        face = self._face
        opn = self._open
        k = self._nopen
        hlb = self._hlbox
        hl = self._hl
        v3 = self.v3
        for r in range(252):
            o = r * n
            best = -1
            for i in range(k):
                b = opn[i]
                p = hl[r] if b == hlb else pts0[o + b]
                m = mode[b]
                if m == _UPPER:
                    s = p // face[b]
                elif m == _PLAIN:
                    s = 0
                else:
                    s = self._slot(b, p)
                v = p * sc + env[b * _SLOTS + s]
                if v > best:
                    best = v
            v3[r] = best
        # five of a kind once the five box is used: Joker/Trump Card and extra bonus, from scoring
        fb = rs.five_box
        if fb >= 0 and (self.filled >> fb) & 1 and (rs.joker != _r.JOKER_NONE or rs.extra_bonus):
            d = self._five
            for face5 in range(1, 7):
                for i in range(5):
                    d[i] = face5
                scoring.load(d)
                v3[_k.find(5 << 3 * (face5 - 1), 5)] = self._score_best(card)

    def _score_best(self, card):
        """Best (points + bonus) * scale + next value over the legal boxes for the loaded dice; sets box_best."""
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
        self.box_best = bb
        return best

    def _score_value(self, card, b, x):
        # the loaded dice scored in open box b, plus extra bonus x, plus the next state's value
        p = scoring.points(self.rs, card, b)
        return (p + x) * self.scale + self._env[b * _SLOTS + self._slot(b, p)]

    def _averages(self, top, out):
        """out[k] = expected top-value of keeping multiset k, wide units (one rerolled die at a time)."""
        child = _k.CHILD
        for i in range(252):
            out[_L5 + i] = top[i]
        # un-normalised sums first: level j holds 6**(5-j) times its expectation
        for j in range(4, -1, -1):
            s0 = _k.START[j]
            s1 = _k.START[j + 1]
            for i in range(s1 - s0):
                c = 6 * (s0 + i)
                out[s0 + i] = (
                    out[s1 + child[c]]
                    + out[s1 + child[c + 1]]
                    + out[s1 + child[c + 2]]
                    + out[s1 + child[c + 3]]
                    + out[s1 + child[c + 4]]
                    + out[s1 + child[c + 5]]
                )
        mult = 1
        for j in range(6):
            for i in range(_k.START[j], _k.START[j + 1]):
                out[i] *= mult
            mult *= 6

    def _best_subkeeps(self, kv, out):
        """out[r] = best kv over the sub-multisets of roll r, back in table units (rounded)."""
        par = _k.PARENT
        m = self._m
        m[0] = kv[0]
        for j in range(1, 6):
            s0 = _k.START[j]
            sp = _k.START[j - 1]
            ps = _k.PSTART[j]
            for i in range(_k.START[j + 1] - s0):
                best = kv[s0 + i]
                p = ps + j * i
                for t in range(j):
                    v = m[sp + par[p + t]]
                    if v > best:
                        best = v
                m[s0 + i] = best
        for i in range(252):
            out[i] = (m[_L5 + i] + WIDE // 2) // WIDE

    def turn_value(self, card):
        """E at the start of `card`'s turn recomputed from the next states (table units): a check."""
        self.prepare(card)
        if self._v1 is None:
            self._v1 = zeros("l", 252)
        self._best_subkeeps(self.k1, self._v1)
        self._averages(self._v1, self._m)
        return (self._m[0] + WIDE // 2) // WIDE

    # -- hints --------------------------------------------------------------------------------------------
    def _keeps_for(self, rolls):
        return self.k1 if rolls == 1 else self.k2

    def keep_value(self, dice, rolls, mask):
        """Wide-unit value of holding the dice in `mask` and rolling (rolls = rolls taken, 1 or 2)."""
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

    def hint(self, card, dice, rolls, held):
        """The best action for the current roll; returns NONE, KEEP or SCORE and sets kind, value, best.

        rolls = rolls taken this turn (1..3); held = bit mask of the dice held now (ties keep it).
        """
        if rolls <= 0 or card.filled == self.rs.all_mask:
            self.kind = NONE
            return NONE
        self.prepare(card)
        scoring.load(dice)
        sbest = self._score_best(card) * WIDE
        if rolls >= 3:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        best = -1
        bm = 0
        for mask in range(31):  # keeping all five means scoring now (below)
            v = self.keep_value(dice, rolls, mask)
            if v > best or (v == best and mask == held):
                best = v
                bm = mask
        if sbest >= best:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        self.kind = KEEP
        self.value = bm
        self.best = best
        return KEEP

    def _optimum(self, card, dice, rolls):
        self.hint(card, dice, rolls, 0)
        return self.best

    def keep_loss(self, card, dice, rolls, held):
        """Expected points (wide units) lost by holding `held` and rolling, against the best action."""
        b = self._optimum(card, dice, rolls)
        return b - self.keep_value(dice, rolls, held)

    def score_loss(self, card, dice, rolls, box):
        """Expected points (wide units) lost by scoring `box` now, against the best action."""
        b = self._optimum(card, dice, rolls)
        return b - self.score_value(card, dice, box)

    def to_points_x100(self, wide):
        """Wide units as hundredths of a point (rounded), for display."""
        d = self.scale * WIDE
        return (wide * 100 + d // 2) // d
