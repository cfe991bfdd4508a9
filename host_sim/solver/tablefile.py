"""Write a solved E array as a device strategy table (format FDT3, documented in fivedice.strategy_table)."""
import struct
import zlib

import numpy as np

from fivedice import strategy_table as st

HEAD = st.HEAD


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


def varint(e, out):
    """Append residual e in the rows' byte code (see fivedice.strategy_table) to bytearray out."""
    if -120 <= e <= 119:
        out.append(e + 120)
    elif -1920 <= e <= 1919:
        k = e + 1920
        out.append(240 + (k >> 8))
        out.append(k & 0xFF)
    elif -(1 << 23) <= e < 1 << 23:
        out.append(255)
        out += struct.pack("<i", e)[:3]
    else:
        raise ValueError("residual %d does not fit 24 bits" % e)


def layout(md):
    """(ups, segs, rows, rank): the upper patterns in file order, the segments (low, z) in file order (every
    lower pattern times every z code; None where z cannot occur), rows[(segment, upper number)] = flat E
    positions of the row's reachable u (increasing), and the rank table rank[up, u]."""
    rs = md.rs
    base = md.base
    free_up = 63 & ~base
    free_low = rs.lower_mask & ~base
    ups = [_expand(c, free_up) | (base & 63) for c in range(1 << bin(free_up).count("1"))]
    rank = np.full((64, md.U), 255, dtype=np.uint8)
    for up in range(64):
        for i, u in enumerate(md.ureach[up]):
            rank[up, u] = i
    segs = []
    for c in range(1 << bin(free_low).count("1")):
        low = _expand(c, free_low) | (base & rs.lower_mask)
        zb = st.zreach(rs, low)
        for z in range(md.Z):
            segs.append((low, z) if (zb >> z) & 1 else None)
    rows = {}
    for s, sg in enumerate(segs):
        if sg is None:
            continue
        low, z = sg
        for j, up in enumerate(ups):
            rows[(s, j)] = md.flat(low | up, md.ureach[up], z)
    return ups, segs, rows, rank


def encode(md, E, block=st.BLOCK):
    """The table file's bytes for model `md` and solved array E (format FDT3, CRC per `block` bytes)."""
    rs = md.rs
    if rs.upper_mask != 63:
        raise ValueError("strategy tables need the six upper boxes as boxes 0..5")
    ups, segs, rows, rank = layout(md)
    nup = len(ups)
    U = md.U
    live = [s for s, sg in enumerate(segs) if sg is not None]
    states = sum(len(p) for p in rows.values())
    emax = max((float(E[p].max()) for p in rows.values() if len(p)), default=0.0)
    scale = choose_scale(emax)
    q = {}
    for key, p in rows.items():
        v = np.rint(E[p] * scale).astype(np.int64)
        if len(v) and (v.min() < 0 or v.max() > 65535):
            raise ValueError("values do not fit 16 bits")
        q[key] = v
    # per upper pattern: k0 = first stored rank (every row of it is constant up to k0), the prototype steps
    k0 = []
    protos = []
    for j, up in enumerate(ups):
        n = len(md.ureach[up])
        k = n - 1
        for s in live:
            v = q[(s, j)]
            run = 0
            while run + 1 < n and v[run + 1] == v[0]:
                run += 1
            k = min(k, run)
        k0.append(k)
        p = np.zeros(n - 1 - k, np.int64)
        if n - 1 - k and live:
            d = np.array([np.diff(q[(s, j)][k:]) for s in live])
            p = np.rint(np.median(d, axis=0)).astype(np.int64)
        if len(p) and (p.min() < -32768 or p.max() > 32767):
            raise ValueError("prototype steps do not fit 16 bits")
        protos.append(p)
    up_off = HEAD
    ustride = st.upper_stride(U)
    seg_off = up_off + nup * ustride
    sstride = st.segment_stride(nup)
    rows_off = seg_off + len(segs) * sstride
    upper = bytearray()
    for j, up in enumerate(ups):
        rec = bytearray(ustride)
        rec[0] = k0[j]
        rec[1] = len(protos[j]) + 1
        rec[2 : 2 + U] = rank[up].tobytes()
        pb = protos[j].astype("<i2").tobytes()
        rec[2 + U : 2 + U + len(pb)] = pb
        upper += rec
    segrec = bytearray()
    data = bytearray()
    for s, sg in enumerate(segs):
        if sg is None:
            segrec += struct.pack("<I", 0xFFFFFFFF) + bytes(sstride - 4)
            continue
        start = len(data)
        offs = []
        for j in range(nup):
            offs.append(len(data) - start)
            v = q[(s, j)][k0[j]:]
            data += struct.pack("<H", int(v[0]))
            d = np.diff(v) - protos[j]
            for e in d.tolist():
                varint(e, data)
        offs.append(len(data) - start)
        if offs[-1] > 65535:
            raise ValueError("segment %d is %d bytes: too long for the u16 row offsets" % (s, offs[-1]))
        segrec += struct.pack("<I%dH" % (nup + 1), rows_off + start, *offs)
    data += bytes(st.ROW_READ)  # a row is read as ROW_READ bytes from its start: the last rows' reads stay inside
    body = bytes(upper) + bytes(segrec) + bytes(data)
    end = HEAD + len(body)
    assert rows_off + len(data) == end
    bs = block
    head = st.MAGIC + struct.pack("<BBBBHHIIIIIIHHI", rs.index, rs.n, U, md.Z, scale, md.base, states, len(segs),
                                  up_off, seg_off, rows_off, end, bs, 0, 0)
    head += struct.pack("<I", zlib.crc32(head))
    assert len(head) == HEAD
    crcs = b"".join(struct.pack("<I", zlib.crc32(body[i : i + bs])) for i in range(0, len(body), bs))
    return head + body + crcs


def write(path, md, E):
    data = encode(md, E)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)
