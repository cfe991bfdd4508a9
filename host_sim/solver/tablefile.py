"""Write a solved E array as a device strategy table (format in fivedice.strategy_table)."""
import struct
import zlib

import numpy as np

from fivedice import strategy_table as st

HEAD = 48


def _expand(c, free):
    """Inverse of strategy_table._compress: spread the low bits of c over the set bits of `free`."""
    r = 0
    b = 0
    i = 0
    while free >> i:
        if (free >> i) & 1:
            r |= ((c >> b) & 1) << i
            b += 1
        i += 1
    return r


def choose_scale(emax):
    """Largest power of two <= 256 with emax * scale < 65536 (256 keeps the coach's ints small)."""
    s = 256
    while s > 1 and emax * s >= 65535.5:
        s //= 2
    return s


def layout(md):
    """(flat E positions in file order, lower index rows, upper firsts, u-rank table, SU)."""
    rs = md.rs
    base = md.base
    free_up = 63 & ~base
    free_low = rs.lower_mask & ~base
    nup = bin(free_up).count("1")
    nlow = bin(free_low).count("1")
    ups = [_expand(c, free_up) | (base & 63) for c in range(1 << nup)]
    ufirst = []
    su = 0
    for up in ups:
        ufirst.append(su)
        su += len(md.ureach[up])
    rank = np.full((64, md.U), 255, dtype=np.uint8)
    for up in range(64):
        for i, u in enumerate(md.ureach[up]):
            rank[up, u] = i
    order = []
    lows = []
    first = 0
    for c in range(1 << nlow):
        low = _expand(c, free_low) | (base & rs.lower_mask)
        zb = st.zreach(rs, low)
        lows.append((first, zb))
        for z in range(md.Z):
            if not (zb >> z) & 1:
                continue
            for up in ups:
                ur = md.ureach[up]
                order.append(md.flat(low | up, ur, z))
                first += len(ur)
    pos = np.concatenate(order) if order else np.zeros(0, dtype=np.int64)
    return pos, lows, ufirst, rank, su


def encode(md, E, block=st.BLOCK):
    """The table file's bytes for model `md` and solved array E (format FDT2, CRC per `block` bytes)."""
    rs = md.rs
    if rs.upper_mask != 63:
        raise ValueError("strategy tables need the six upper boxes as boxes 0..5")
    pos, lows, ufirst, rank, su = layout(md)
    vals = E[pos]
    scale = choose_scale(float(vals.max()) if len(vals) else 0.0)
    q = np.rint(vals * scale)
    if q.min() < 0 or q.max() > 65535:
        raise ValueError("values do not fit 16 bits")
    low_off = HEAD
    up_off = low_off + 6 * len(lows)
    rank_off = up_off + 4 * len(ufirst)
    val_off = rank_off + rank.size
    body = b"".join(
        [
            b"".join(struct.pack("<IH", a, b) for a, b in lows),
            struct.pack("<%dI" % len(ufirst), *ufirst),
            rank.tobytes(),
            q.astype("<u2").tobytes(),
        ]
    )
    end = HEAD + len(body)
    bs = block
    head = b"FDT2" + struct.pack(
        "<BBBBHHIIIIIIIHH", rs.index, rs.n, md.U, md.Z, scale, md.base, len(pos), su, val_off, low_off, up_off,
        rank_off, end, bs, 0
    )
    head += struct.pack("<I", zlib.crc32(head))
    assert len(head) == HEAD
    crcs = b"".join(struct.pack("<I", zlib.crc32(body[i : i + bs])) for i in range(0, len(body), bs))
    return head + body + crcs


def write(path, md, E):
    data = encode(md, E)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)
