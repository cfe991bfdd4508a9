"""Optimal-strategy tables on the device: the state model and a seek-based reader (no numpy, no typing).

State of a solitaire game at the start of a turn: (filled, u, z)
    filled  bitmask of used boxes (bit i = box i, as Card.filled); boxes 0..5 are the upper boxes
    u       upper total capped at the bonus threshold (always 0 when the rule set has no upper bonus)
    z       what else the rules need, as a small code:
            rule sets with an extra five-of-a-kind bonus: 1 if the five box holds its full score, else 0
            Yum: the value in High or Low while exactly one of them is filled (0 if scratched, else
            value - 20, i.e. 1..10); 0 otherwise
            others: 0
The table holds E(state): the expected points still to come under optimal play (bonuses included),
as unsigned 16-bit fixed point with `scale` units per point.

File layout (little endian), written by host_sim.solver.tablefile:
    0   b"FDT1"
    4   u8 rule-set index, u8 boxes, u8 U (u values), u8 Z (z codes), u16 scale, u16 base mask (boxes
        filled in every stored state: 0 for a whole game, more for a sub-game), u32 states,
        u32 SU (stored (upper-subset, u) pairs per z), u32 offset of values, u32 offset of lower index,
        u32 offset of upper index, u32 offset of u ranks; 4 bytes zero  (header: 40 bytes)
    lower index: per lower pattern (free lower bits compressed, in increasing order): u32 first state,
                 u16 reachable-z bitmask
    upper index: per upper pattern (free upper bits compressed): u32 first (upper, u) slot
    u ranks:     64 x U bytes: rank of u among the reachable totals of that upper set (255 = unreachable)
    values:      u16 per state; state = lower first + rank(z) * SU + upper first + u rank
"""
from fivedice.compat import const
from fivedice import rules as _rules

_HEAD = const(40)
_NONE = const(255)
MAGIC = b"FDT1"


# -- the state model (shared with the host solver) -----------------------------------------------------
def udim(rs):
    """How many u values a state can have (threshold + 1, or 1 without an upper bonus)."""
    return rs.upper_threshold + 1 if rs.upper_threshold else 1


def zdim(rs):
    """How many z codes the rule set needs (see the module docstring)."""
    if rs.extra_bonus and rs.five_box >= 0:
        return 2
    if rs.high_box >= 0:
        return 11
    return 1


def zreach(rs, filled):
    """Bitmask of the z codes a state with these filled boxes can have."""
    z = zdim(rs)
    if z == 2:
        return 3 if (filled >> rs.five_box) & 1 else 1
    if z == 11:
        h = (filled >> rs.high_box) & 1
        lo = (filled >> rs.low_box) & 1
        if h == lo:
            return 1
        return 0x7FF if lo else 0x7FD  # a High is at least 22: code 1 (21) cannot occur
    return 1


def u_of(rs, card):
    t = rs.upper_threshold
    if not t:
        return 0
    u = card.upper()
    return t if u > t else u


def z_of(rs, card):
    """The z code of a card (see the module docstring)."""
    z = zdim(rs)
    if z == 2:
        fb = rs.five_box
        return 1 if (card.filled >> fb) & 1 and card.pts[fb] == rs.pts[fb] else 0
    if z == 11:
        hb = rs.high_box
        lb = rs.low_box
        h = (card.filled >> hb) & 1
        lo = (card.filled >> lb) & 1
        if h == lo:
            return 0
        v = card.pts[hb] if h else card.pts[lb]
        return v - 20 if v else 0
    return 0


def z_after(rs, filled, box, pts, z):
    """z after scoring `pts` in `box` on a card with `filled` boxes and code z."""
    zd = zdim(rs)
    if zd == 2:
        if box == rs.five_box:
            return 1 if pts == rs.pts[box] else 0
        return z
    if zd == 11:
        if box == rs.high_box or box == rs.low_box:
            other = rs.low_box if box == rs.high_box else rs.high_box
            if (filled >> other) & 1:
                return 0
            return pts - 20 if pts else 0
        return z
    return z


def u_after(rs, u, box, pts):
    t = rs.upper_threshold
    if not t or rs.kinds[box] != _rules.UPPER:
        return u
    u += pts
    return t if u > t else u


def _compress(x, free):
    """Pack the bits of x that are set in `free` into consecutive low bits (free's order)."""
    r = 0
    b = 0
    while free:
        if free & 1:
            r |= (x & 1) << b
            b += 1
        free >>= 1
        x >>= 1
    return r


def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


class StrategyTable:
    """Read E(state) from an open binary file with seeks; keeps only the header in RAM.

    `f` is any object with seek/readinto (a file opened "rb"); `rs` must be the rule set the table
    was built for. Lookups allocate nothing.
    """

    def __init__(self, f, rs):
        self.f = f
        self.rs = rs
        h = bytearray(_HEAD)
        f.seek(0)
        if f.readinto(h) != _HEAD or h[0:4] != MAGIC:
            raise ValueError("not a fivedice strategy table (bad magic)")
        if h[4] != rs.index or h[5] != rs.n:
            raise ValueError("strategy table is for rule set %d, not %s" % (h[4], rs.id))
        self.U = h[6]
        self.Z = h[7]
        if self.U != udim(rs) or self.Z != zdim(rs):
            raise ValueError("strategy table state layout does not match rule set %s" % rs.id)
        self.scale = h[8] | h[9] << 8
        self.base = h[10] | h[11] << 8
        self.states = self._u32(h, 12)
        self.su = self._u32(h, 16)
        self._vals = self._u32(h, 20)
        self._low = self._u32(h, 24)
        self._up = self._u32(h, 28)
        self._rank = self._u32(h, 32)
        if rs.upper_mask != 63:
            raise ValueError("strategy tables need the six upper boxes as boxes 0..5")
        self.free_upper = rs.upper_mask & ~self.base
        self.free_lower = rs.lower_mask & ~self.base
        self._b6 = bytearray(6)
        self._mv6 = memoryview(self._b6)
        self._mv4 = self._mv6[0:4]
        self._mv2 = self._mv6[0:2]
        self._mv1 = self._mv6[0:1]

    @staticmethod
    def _u32(b, o):
        return b[o] | b[o + 1] << 8 | b[o + 2] << 16 | b[o + 3] << 24

    def _read(self, pos, mv):
        self.f.seek(pos)
        if self.f.readinto(mv) != len(mv):
            raise OSError("strategy table is truncated")

    def index(self, filled, u, z):
        """Position of state (filled, u, z) among the stored values, or -1 if it is not stored."""
        if filled & self.base != self.base:
            return -1
        rs = self.rs
        lc = _compress(filled >> 6, self.free_lower >> 6)
        b = self._b6
        self._read(self._low + 6 * lc, self._mv6)
        first = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        zb = b[4] | b[5] << 8
        if not (zb >> z) & 1:
            return -1
        zr = _popcount(zb & ((1 << z) - 1))
        up = filled & rs.upper_mask
        uc = _compress(up, self.free_upper)
        self._read(self._up + 4 * uc, self._mv4)
        ufirst = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        self._read(self._rank + up * self.U + u, self._mv1)
        r = b[0]
        if r == _NONE:
            return -1
        return first + zr * self.su + ufirst + r

    def value(self, filled, u, z):
        """E(state) in table units (scale per point), or -1 if the state is not stored."""
        i = self.index(filled, u, z)
        if i < 0:
            return -1
        self._read(self._vals + 2 * i, self._mv2)
        b = self._b6
        return b[0] | b[1] << 8

    def card_value(self, card):
        """E for the state of `card` at the start of its next turn (table units), or -1."""
        rs = self.rs
        return self.value(card.filled, u_of(rs, card), z_of(rs, card))
