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

File layout (little endian), written by host_sim.solver.tablefile (format FDT2; an FDT1 table from an
older `make tables` is refused with "rebuild it with `make tables`"):
    0   b"FDT2"
    4   u8 rule-set index, u8 boxes, u8 U (u values), u8 Z (z codes), u16 scale, u16 base mask (boxes
        filled in every stored state: 0 for a whole game, more for a sub-game), u32 states,
        u32 SU (stored (upper-subset, u) pairs per z), u32 offset of values, u32 offset of lower index,
        u32 offset of upper index, u32 offset of u ranks, u32 offset of the block CRCs (= end of the
        data), u16 block size B, u16 zero, u32 CRC-32 of header bytes 0..43  (header: 48 bytes)
    lower index: per lower pattern (free lower bits compressed, in increasing order): u32 first state,
                 u16 reachable-z bitmask
    upper index: per upper pattern (free upper bits compressed): u32 first (upper, u) slot
    u ranks:     64 x U bytes: rank of u among the reachable totals of that upper set (255 = unreachable)
    values:      u16 per state; state = lower first + rank(z) * SU + upper first + u rank
    block CRCs:  u32 CRC-32 per B-byte block of the data (bytes 48 .. CRC offset, the last block shorter);
                 the file ends right after them.
Verified, then trusted: the header (its CRC, every offset, the file size) is checked at open; a data
block is checked against its CRC the first time a read touches it (the board reads with seeks and
never loads a table whole), then remembered as good. Any failure raises TableError (an OSError):
the app shows "Strategy table bad" and drops the coach for the rest of the game.
The check is allocation-free: CRC-32 over a block followed by its own CRC is the constant residue
0x2144DF1C (below 2**30, a small int on 32-bit ports too), so no long int is made for a good block.
"""
from fivedice.compat import const, crc32, popcount
from fivedice import rules as _rules

_HEAD = const(48)
_NONE = const(255)
MAGIC = b"FDT2"
OLD_MAGIC = b"FDT1"
BLOCK = const(512)  # bytes per checked block (the writer's default; the header says which)
RESIDUE = const(0x2144DF1C)  # crc32(data + le32(crc32(data))) for any data


class TableError(OSError):
    """The strategy table cannot be trusted (damaged, truncated, or from an older format)."""


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


class StrategyTable:
    """Read E(state) from an open binary file with seeks; keeps the header and a bit per block in RAM.

    `f` is any object with seek/readinto (a file opened "rb"); `rs` must be the rule set the table
    was built for. Lookups allocate nothing; a damaged table raises TableError (an OSError) at open
    or at the first read of a damaged block.
    """

    def __init__(self, f, rs):
        self.f = f
        self.rs = rs
        h = bytearray(_HEAD)
        f.seek(0)
        n = f.readinto(h)
        if n >= 4 and h[0:4] == OLD_MAGIC:
            raise TableError("strategy table %s.fdt is an old format (FDT1): rebuild it with `make tables`" % rs.id)
        if n != _HEAD or h[0:4] != MAGIC:
            raise TableError("not a fivedice strategy table (bad magic)")
        if crc32(h) != RESIDUE:
            raise TableError("strategy table header is damaged (CRC mismatch)")
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
        self._end = self._u32(h, 36)
        bs = h[40] | h[41] << 8
        if rs.upper_mask != 63:
            raise ValueError("strategy tables need the six upper boxes as boxes 0..5")
        self.free_upper = rs.upper_mask & ~self.base
        self.free_lower = rs.lower_mask & ~self.base
        nlow = 1 << popcount(self.free_lower)
        nup = 1 << popcount(self.free_upper)
        if (bs < 16 or self._low != _HEAD or self._up != self._low + 6 * nlow or self._rank != self._up + 4 * nup
                or self._vals != self._rank + 64 * self.U or self._end != self._vals + 2 * self.states):
            raise TableError("strategy table header is inconsistent")
        nb = (self._end - _HEAD + bs - 1) // bs
        f.seek(0, 2)
        size = f.tell()
        if size != self._end + 4 * nb:
            raise TableError("strategy table is %d bytes, not %d: truncated or padded" % (size, self._end + 4 * nb))
        self.block = bs
        self.blocks = nb
        self._ok = bytearray((nb + 7) // 8)  # bit i: block i was checked and is good
        last = self._end - _HEAD - (nb - 1) * bs if nb else 0
        self._last = last
        self._buf = bytearray(bs + 4)
        mv = memoryview(self._buf)
        self._mvfull = mv
        self._mvlast = mv[0 : last + 4]
        self._mvlast_crc = mv[last : last + 4]
        self._mvfull_crc = mv[bs : bs + 4]
        self._mvfull_data = mv[0:bs]
        self._mvlast_data = mv[0:last]
        self._b6 = bytearray(6)
        self._mv6 = memoryview(self._b6)
        self._mv4 = self._mv6[0:4]
        self._mv2 = self._mv6[0:2]
        self._mv1 = self._mv6[0:1]
        self.err = TableError("strategy table is damaged: rebuild it with `make tables`")  # raised without allocating

    @staticmethod
    def _u32(b, o):
        return b[o] | b[o + 1] << 8 | b[o + 2] << 16 | b[o + 3] << 24

    def _check(self, blk):
        """Check data block `blk` against its CRC once; raise self.err if it is damaged."""
        if (self._ok[blk >> 3] >> (blk & 7)) & 1:
            return
        f = self.f
        if blk == self.blocks - 1:
            data = self._mvlast_data
            crc = self._mvlast_crc
            whole = self._mvlast
        else:
            data = self._mvfull_data
            crc = self._mvfull_crc
            whole = self._mvfull
        f.seek(_HEAD + blk * self.block)
        if f.readinto(data) != len(data):
            raise self.err
        f.seek(self._end + 4 * blk)
        if f.readinto(crc) != 4:
            raise self.err
        if crc32(whole) != RESIDUE:
            raise self.err
        self._ok[blk >> 3] |= 1 << (blk & 7)

    def verify_all(self):
        """Check every block now (tests and tools; the app checks blocks as it reads them)."""
        for b in range(self.blocks):
            self._check(b)

    def _read(self, pos, mv):
        n = len(mv)
        if pos < _HEAD or pos + n > self._end:
            raise self.err
        b0 = (pos - _HEAD) // self.block
        b1 = (pos + n - 1 - _HEAD) // self.block
        self._check(b0)
        if b1 != b0:
            self._check(b1)
        self.f.seek(pos)
        if self.f.readinto(mv) != n:
            raise self.err
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
        zr = popcount(zb & ((1 << z) - 1))
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
