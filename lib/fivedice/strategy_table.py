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

File layout (little endian), written by host_sim.solver.tablefile (format FDT3; an FDT1 or FDT2 table
from an older `make tables` is refused with "rebuild it with `make tables`"):
    0   b"FDT3"
    4   u8 rule-set index, u8 boxes, u8 U (u values), u8 Z (z codes), u16 scale, u16 base mask (boxes
        filled in every stored state: 0 for a whole game, more for a sub-game), u32 states, u32 segments,
        u32 offset of the row index, u32 offset of the prototypes, u32 offset of the rows, u32 offset of
        the block CRCs (= end of the data), u16 block size B, u16 zero, u32 zero, u32 CRC-32 of header
        bytes 0..43  (header: 48 bytes)
    lower index: per lower pattern (free lower bits compressed, in increasing order): u32 first segment,
                 u16 reachable-z bitmask. A segment is one (lower pattern, z): its rows are the upper
                 patterns in order, a row is one (lower, z, upper) with its values over the reachable u.
    upper index: per upper pattern (free upper bits compressed): u32 offset of its prototype, u8 k0, u8 n:
                 every row of this upper pattern is constant over its first k0 + 1 u ranks, and stores the
                 n values of ranks k0 .. k0 + n - 1 (a rank below k0 reads rank k0)
    u ranks:     64 x U bytes: rank of u among the reachable totals of that upper set (255 = unreachable)
    row index:   per segment: u32 offset of its rows, then nup + 1 u16 offsets of each row's start (and
                 the end) relative to it
    prototypes:  per upper pattern: n - 1 i16, the median over its rows of the step from rank to rank
    rows:        per row: u16 value at rank k0, then n - 1 residuals r (value step = prototype step + r),
                 each in a byte code: b < 240: r = b - 120; 240 <= b < 255: r = ((b - 240) << 8 | next)
                 - 1920; b = 255: r = the next 3 bytes as a signed 24-bit int
    block CRCs:  u32 CRC-32 per B-byte block of the data (bytes 48 .. CRC offset, the last block shorter);
                 the file ends right after them.
The values change slowly with the upper total u (they are flat where the bonus is out of reach, and
follow much the same curve in every row of one upper pattern), so the residuals are small: about 0.76
bytes per state for Yahtzee against 2 in FDT2 (docs/coach.md has the sizes).
A lookup decodes its row only up to the rank it needs, with integer arithmetic into a preallocated
buffer, and keeps it: the next lookup in the same row (the six u of an upper box, a later rank) reads
nothing. The last lower-index entry, segment offset, rank row and prototype are kept the same way.
Verified, then trusted: the header (its CRC, every offset, the file size) is checked at open; a data
block is checked against its CRC the first time a read touches it (the board reads with seeks and
never loads a table whole), then remembered as good. Any failure raises TableError (an OSError):
the app shows "Strategy table bad" and drops the coach for the rest of the game.
The check is allocation-free: CRC-32 over a block followed by its own CRC is the constant residue
0x2144DF1C (below 2**30, a small int on 32-bit ports too), so no long int is made for a good block.
"""
from fivedice.compat import const, crc32, popcount, zeros
from fivedice import rules as _rules

_HEAD = const(48)
_NONE = const(255)
HEAD = _HEAD
MAGIC = b"FDT3"
OLD_MAGICS = (b"FDT1", b"FDT2")
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


_RB = const(256)  # bytes read for a row (the longest row is 2 + 63 * 4 bytes; the writer pads the end)
ROW_READ = _RB
_PB = const(128)  # bytes read for a prototype (at most 63 i16)


class StrategyTable:
    """Read E(state) from an open binary file with seeks; keeps the header, a bit per block and one row in RAM.

    `f` is any object with seek/readinto (a file opened "rb"); `rs` must be the rule set the table
    was built for. Lookups allocate nothing; a damaged table raises TableError (an OSError) at open
    or at the first read of a damaged block. RAM: a 516-byte block buffer, 256 + 128 bytes of row and
    prototype, 64 values and 64 ranks (about 1.1 KB with the block bits, 264 bytes for Yahtzee).
    """

    def __init__(self, f, rs):
        self.f = f
        self.rs = rs
        h = bytearray(_HEAD)
        f.seek(0)
        n = f.readinto(h)
        if n >= 4 and (h[0:4] == OLD_MAGICS[0] or h[0:4] == OLD_MAGICS[1]):
            raise TableError("strategy table %s.fdt is an old format (%s): rebuild it with `make tables`"
                             % (rs.id, bytes(h[0:4]).decode()))
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
        u32 = self._u32
        self.scale = h[8] | h[9] << 8
        self.base = h[10] | h[11] << 8
        self.states = u32(h, 12)
        self.segments = u32(h, 16)
        self._rowidx = u32(h, 20)
        self._protos = u32(h, 24)
        self._rows = u32(h, 28)
        self._end = u32(h, 32)
        bs = h[36] | h[37] << 8
        if rs.upper_mask != 63:
            raise ValueError("strategy tables need the six upper boxes as boxes 0..5")
        self.free_upper = rs.upper_mask & ~self.base
        self.free_lower = rs.lower_mask & ~self.base
        nlow = 1 << popcount(self.free_lower)
        nup = 1 << popcount(self.free_upper)
        self.nup = nup
        self._low = _HEAD
        self._up = _HEAD + 6 * nlow
        self._rank = self._up + 6 * nup
        self._stride = 4 + 2 * (nup + 1)  # bytes per segment in the row index
        if (bs < 16 or self._rowidx != self._rank + 64 * self.U or self._protos != self._rowidx + self.segments * self._stride
                or self._rows < self._protos or self._end < self._rows + _RB or self.segments > nlow * self.Z):
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
        self._mv1 = self._mv6[0:1]
        self._rb = bytearray(_RB)  # the bytes of the cached row
        self._pb = bytearray(_PB)  # its prototype
        self._rk = bytearray(self.U)  # the u ranks of the cached upper pattern
        self._v = zeros("H", 64)  # the cached row's values decoded so far (64 u16)
        self.err = TableError("strategy table is damaged: rebuild it with `make tables`")  # raised without allocating
        self.forget()

    def forget(self):
        """Drop the cached row and index entries (the next lookup reads them again)."""
        self._lc = -1  # lower pattern of the cached lower-index entry: first segment, z bits
        self._seg0 = 0
        self._zb = 0
        self._sk = -1  # segment whose rows offset is cached
        self._sbase = 0
        self._uc = -1  # upper pattern of the cached upper-index entry: prototype offset, k0, n
        self._poff = 0
        self._k0 = 0
        self._n = 0
        self._pk = -1  # upper pattern whose prototype is in _pb
        self._ru = -1  # upper pattern whose ranks are in _rk
        self._row = -1  # segment * nup + upper pattern of the cached row
        self._dn = 0  # values decoded, and the position of the next residual in _rb
        self._rp = 0

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

    def value(self, filled, u, z):
        """E(state) in table units (scale per point), or -1 if the state is not stored."""
        if filled & self.base != self.base:
            return -1
        b = self._b6
        lc = _compress(filled >> 6, self.free_lower >> 6)
        if lc != self._lc:
            self._lc = -1
            self._read(self._low + 6 * lc, self._mv6)
            self._seg0 = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
            self._zb = b[4] | b[5] << 8
            self._lc = lc
        zb = self._zb
        if not (zb >> z) & 1:
            return -1
        seg = self._seg0 + popcount(zb & ((1 << z) - 1))
        up = filled & 63
        if up != self._ru:
            self._ru = -1
            self._read(self._rank + up * self.U, self._rk)
            self._ru = up
        r = self._rk[u]
        if r == _NONE:
            return -1
        uc = _compress(up, self.free_upper)
        if uc != self._uc:
            self._uc = -1
            self._read(self._up + 6 * uc, self._mv6)
            self._poff = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
            self._k0 = b[4]
            self._n = b[5]
            self._uc = uc
        i = r - self._k0
        if i < 0:
            i = 0
        row = seg * self.nup + uc
        if row != self._row:
            self._start(seg, uc, row)
        if i >= self._dn:
            self._more(i)
        return self._v[i]

    def _start(self, seg, uc, row):
        """Read row `row` (segment seg, upper pattern uc) and its prototype; decode its first value."""
        self._row = -1
        b = self._b6
        if seg >= self.segments or self._n > 64:
            raise self.err
        if seg != self._sk:
            self._sk = -1
            self._read(self._rowidx + seg * self._stride, self._mv4)
            self._sbase = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
            self._sk = seg
        self._read(self._rowidx + seg * self._stride + 4 + 2 * uc, self._mv4)
        start = self._sbase + (b[0] | b[1] << 8)
        if (b[2] | b[3] << 8) - (b[0] | b[1] << 8) > _RB:
            raise self.err
        if uc != self._pk:
            self._pk = -1
            self._read(self._poff, self._pb)
            self._pk = uc
        self._read(start, self._rb)
        rb = self._rb
        self._v[0] = rb[0] | rb[1] << 8
        self._dn = 1
        self._rp = 2
        self._row = row

    def _more(self, i):
        """Decode the cached row's values up to index i (integer arithmetic, into the preallocated _v)."""
        if i >= self._n:
            raise self.err
        rb = self._rb
        pb = self._pb
        vals = self._v
        n = self._dn
        p = self._rp
        v = vals[n - 1]
        while n <= i:
            if p > _RB - 4:
                raise self.err
            c = rb[p]
            if c < 240:
                v += c - 120
                p += 1
            elif c < 255:
                v += ((c - 240) << 8 | rb[p + 1]) - 1920
                p += 2
            else:
                c = rb[p + 1] | rb[p + 2] << 8 | rb[p + 3] << 16
                v += c - 0x1000000 if c & 0x800000 else c
                p += 4
            q = 2 * n - 2
            c = pb[q] | pb[q + 1] << 8
            v += c - 65536 if c & 0x8000 else c
            if v & ~0xFFFF:
                raise self.err
            vals[n] = v
            n += 1
        self._dn = n
        self._rp = p

    def card_value(self, card):
        """E for the state of `card` at the start of its next turn (table units), or -1."""
        rs = self.rs
        return self.value(card.filled, u_of(rs, card), z_of(rs, card))
