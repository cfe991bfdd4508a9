"""Optimal-strategy tables on the device: the state model and a seek-based reader (no numpy, no
typing)."""
# State of a solitaire game at the start of a turn: (filled, u, z)
#     filled  bitmask of used boxes (bit i = box i, as Card.filled); boxes 0..5 are the upper boxes
#     u       upper total capped at the bonus threshold (always 0 when the rule set has no upper
#     bonus)
#     z       what else the rules need, as a small code:
#             rule sets with an extra five-of-a-kind bonus: 1 if the five box holds its full score,
#             else 0
#             Yum: the value in High or Low while exactly one of them is filled (0 if scratched,
#             else
#             value - 20, i.e. 1..10); 0 otherwise
#             others: 0
# The table holds E(state): the expected points still to come under optimal play (bonuses included),
# as unsigned 16-bit fixed point with `scale` units per point.
#
# File layout (little endian), written by host_sim.solver.tablefile (format FDT3; an FDT1 or FDT2
# table from an older `make tables` is refused with "rebuild it with `make tables`"):
#     0   b"FDT3"
#     4   u8 rule-set index, u8 boxes, u8 U (u values), u8 Z (z codes), u16 scale, u16 base mask
#     (boxes
#         filled in every stored state: 0 for a whole game, more for a sub-game), u32 states, u32
#         segments,
#         u32 offset of the upper records, u32 offset of the segment records, u32 offset of the
#         rows,
#         u32 offset of the block CRCs (= end of the data), u16 block size B, u16 zero, u32 zero,
#         u32 CRC-32 of header bytes 0..43  (header: 48 bytes)
#     A row is one (lower pattern, z, upper pattern) with its values over the reachable u, in
#     increasing u;
#     a segment is one (lower pattern, z): the rows of every upper pattern, in order. Patterns are
#     the
#     free boxes' bits compressed (a whole game: the bits themselves).
#     upper records, one per upper pattern, upper_stride(U) = 2 + U + 2 (U - 1) bytes each:
#                  u8 k0, u8 n: every row of this pattern is constant over its first k0 + 1 u ranks
#                  and
#                  stores the n values of ranks k0 .. k0 + n - 1 (a lookup below k0 reads rank k0);
#                  U bytes: the rank of each u among the reachable totals (255 = unreachable);
#                  n - 1 i16 (then zeros): the prototype, the median over the pattern's rows of the
#                  step
#                  from one stored rank to the next
#     segment records, one per (lower pattern, z) in that order, segment_stride(nup) = 4 + 2 (nup +
#     1)
#                  bytes: u32 offset of its rows (0xFFFFFFFF: this z cannot occur with these boxes),
#                  then
#                  nup + 1 u16: each row's start (and the end) relative to it
#     rows:        per row: u16 value at rank k0, then n - 1 residuals r (value step = prototype
#     step + r),
#                  each in a byte code: b < 240: r = b - 120; 240 <= b < 255: r = ((b - 240) << 8 |
#                  next)
#                  - 1920; b = 255: r = the next 3 bytes as a signed 24-bit int. Then ROW_READ zero
#                  bytes
#                  (a row is read as ROW_READ bytes from its start).
#     block CRCs:  u32 CRC-32 per B-byte block of the data (bytes 48 .. CRC offset, the last block
#     shorter);
#                  the file ends right after them.
# The values change slowly with the upper total u (flat while the bonus is out of reach, then much
# the same curve in every row of one upper pattern), so the residuals are small: 0.78 bytes per
# state for Yahtzee against 2 in FDT2 (docs/coach.md has the sizes). A lookup reads at most 3
# records (segment, upper, row: one seek + readinto each) and keeps each; it decodes the row only up
# to the rank it needs, with integer arithmetic into a preallocated buffer, and goes on from there
# for a later rank. The six values of an upper box's next state share a row; the lower boxes' next
# states share an upper record. Verified, then trusted: the header (its CRC, every offset, the file
# size) is checked at open; a data block is checked against its CRC the first time a read touches it
# (the board reads with seeks and never loads a table whole), then remembered as good. Any failure
# raises TableError (an OSError): the app shows "Strategy table bad" and drops the coach for the
# rest of the game. The check is allocation-free: CRC-32 over a block followed by its own CRC is the
# constant residue 0x2144DF1C (below 2**30, a small int on 32-bit ports too), so no long int is made
# for a good block.
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


# -- the state model (shared with the host solver)
# -----------------------------------------------------
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


# bytes read for a row (the longest row is 2 + 63 * 4 bytes; the writer pads the end)
_RB = const(256)
ROW_READ = _RB
_NOSEG = const(-2)


def upper_stride(U):
    """Bytes per upper record: k0, n, U ranks, U - 1 prototype steps."""
    return 2 + U + 2 * (U - 1)


def segment_stride(nup):
    """Bytes per segment record: u32 offset of the rows, nup + 1 u16 row starts."""
    return 4 + 2 * (nup + 1)


class StrategyTable:
    """Read E(state) from an open binary file with seeks; keeps the header, a bit per block and one
    row in RAM.

    `f` is any object with seek/readinto (a file opened "rb"); `rs` must be the rule set the table
    was built for. Lookups allocate nothing; a damaged table raises TableError (an OSError) at open
    or at the first read of a damaged block. RAM: a 516-byte block buffer, the cached segment record
    (134 bytes), upper record (192), row (256) and its values (64 u16), plus a bit per block.
    """

    def __init__(self, f, rs):
        self.f = f
        self.rs = rs
        h = bytearray(_HEAD)
        f.seek(0)
        n = f.readinto(h)
        if n >= 4 and (h[0:4] == OLD_MAGICS[0] or h[0:4] == OLD_MAGICS[1]):
            raise TableError(
                "strategy table %s.fdt is an old format (%s): rebuild it with `make tables`"
                % (rs.id, bytes(h[0:4]).decode())
            )
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
        self._upr = u32(h, 20)
        self._segr = u32(h, 24)
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
        self._us = upper_stride(self.U)
        self._ss = segment_stride(nup)
        if (
            bs < 16
            or self.segments != nlow * self.Z
            or self._upr != _HEAD
            or self._segr != _HEAD + nup * self._us
            or self._rows != self._segr + self.segments * self._ss
            or self._end < self._rows + _RB
        ):
            raise TableError("strategy table header is inconsistent")
        nb = (self._end - _HEAD + bs - 1) // bs
        f.seek(0, 2)
        size = f.tell()
        if size != self._end + 4 * nb:
            raise TableError(
                "strategy table is %d bytes, not %d: truncated or padded"
                % (size, self._end + 4 * nb)
            )
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
        self._sb = bytearray(self._ss)  # the cached segment record
        self._ub = bytearray(self._us)  # the cached upper record
        self._rb = bytearray(_RB)  # the bytes of the cached row
        mv = memoryview(self._rb)
        # a row is read through the smallest of these that holds it (a short read is cheaper)
        self._rb32 = mv[0:32]
        self._rb64 = mv[0:64]
        self._rb128 = mv[0:128]
        self._v = zeros("H", 64)  # its values decoded so far
        # raised without allocating
        self.err = TableError("strategy table is damaged: rebuild it with `make tables`")
        self.forget()

    def forget(self):
        """Drop the cached records and row (the next lookup reads them again)."""
        self._sk = -1  # segment of the record in _sb
        self._sbase = 0  # its rows' offset, or _NOSEG
        self._uk = -1  # upper pattern of the record in _ub
        self._row = -1  # segment * nup + upper pattern of the row in _rb
        self._dn = 0  # values decoded, and the position of the next residual in _rb
        self._rp = 0
        self._rl = 0  # the row's length

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

    def _read(self, pos, buf):
        n = len(buf)
        if pos < _HEAD or pos + n > self._end:
            raise self.err
        ok = self._ok
        b = (pos - _HEAD) // self.block
        # the check, inline when it is done already (a call costs)
        if not (ok[b >> 3] >> (b & 7)) & 1:
            self._check(b)
        b = (pos + n - 1 - _HEAD) // self.block
        if not (ok[b >> 3] >> (b & 7)) & 1:
            self._check(b)
        f = self.f
        f.seek(pos)
        if f.readinto(buf) != n:
            raise self.err

    def value(self, filled, u, z):
        """E(state) in table units (scale per point), or -1 if the state is not stored."""
        if filled & self.base != self.base or z >= self.Z:
            return -1
        if self.base:
            lc = _compress(filled >> 6, self.free_lower >> 6)
            uc = _compress(filled & 63, self.free_upper)
        else:  # a whole game: every box is free, the patterns are the bits themselves
            lc = filled >> 6
            uc = filled & 63
        seg = lc * self.Z + z
        if seg != self._sk:
            self._sk = -1
            self._read(self._segr + seg * self._ss, self._sb)
            sb = self._sb
            self._sbase = _NOSEG if sb[3] == 255 else sb[0] | sb[1] << 8 | sb[2] << 16 | sb[3] << 24
            self._sk = seg
        if self._sbase == _NOSEG:
            return -1
        ub = self._ub
        if uc != self._uk:
            self._uk = -1
            self._read(self._upr + uc * self._us, ub)
            if ub[1] > 64 or ub[1] == 0:
                raise self.err
            self._uk = uc
        r = ub[2 + u]
        if r == _NONE:
            return -1
        i = r - ub[0]
        if i < 0:
            i = 0
        row = seg * self.nup + uc
        if row != self._row:
            self._row = -1
            sb = self._sb
            q = 4 + 2 * uc
            a = sb[q] | sb[q + 1] << 8
            q = (sb[q + 2] | sb[q + 3] << 8) - a  # the row's length
            if q <= 32:
                self._read(self._sbase + a, self._rb32)
            elif q <= 64:
                self._read(self._sbase + a, self._rb64)
            elif q <= 128:
                self._read(self._sbase + a, self._rb128)
            elif q <= _RB:
                self._read(self._sbase + a, self._rb)
            else:
                raise self.err
            self._rl = q
            rb = self._rb
            self._v[0] = rb[0] | rb[1] << 8
            self._dn = 1
            self._rp = 2
            self._row = row
        if i >= self._dn:
            self._more(i)
        return self._v[i]

    def _more(self, i):
        """Decode the cached row's values up to index i (integer arithmetic, into the preallocated
        _v)."""
        ub = self._ub
        if i >= ub[1]:
            raise self.err
        rb = self._rb
        vals = self._v
        n = self._dn
        p = self._rp
        rl = self._rl
        q = self.U + 2 * n  # the prototype step into value n: ub[2 + U + 2 (n - 1)]
        v = vals[n - 1]
        while n <= i:
            if p >= rl:
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
            c = ub[q] | ub[q + 1] << 8
            v += c - 65536 if c & 0x8000 else c
            if v & ~0xFFFF:
                raise self.err
            vals[n] = v
            n += 1
            q += 2
        if p > rl:
            raise self.err
        self._dn = n
        self._rp = p

    def card_value(self, card):
        """E for the state of `card` at the start of its next turn (table units), or -1."""
        rs = self.rs
        return self.value(card.filled, u_of(rs, card), z_of(rs, card))
