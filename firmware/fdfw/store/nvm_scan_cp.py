"""Reading fdfw.store.nvm_cp's log back: the walk that finds the newest state of each kind, and the
mending of a record with one bit wrong. Loaded for the walk (NvmStore._scan, at boot and after a
failed write) and dropped after it: in play nothing of it is needed."""
from fdfw.store import record
from fdfw.store import ASIDES
from fdfw.store.nvm_cp import ALIGN, _up
from fivedice.compat import const, crc32

_M0 = const(0x46)  # a record's magic, b"FD" (fdfw.store.record)
_M1 = const(0x44)


def scan(store):
    """Walk the log: the newest state of each kind (save, set-aside save, records, set-aside
    records), the highest sequence number, the append point, and what a bad record cost
    (store.lost)."""
    nvm, s, n = store.nvm, store._s, store._n
    st = [None, None, None, None, None]  # by kind: (seq, payload bytes)
    good = [-1, -1, -1, -1, -1]  # by kind: the offset of the record that gave the state
    chain = [0, 0, 0, 0, 0]  # by kind: deltas since the last full record
    top = -1
    olds = ()  # set-aside saves before the newest (NvmStore._olds)
    # past the last byte that is not 0xFF nothing was ever written: the walk stops there, and the
    # append point is at or after it, so appending never lands on a programmed byte (never erases)
    limit = n
    while limit > 0:
        lo = max(0, limit - 256)
        chunk = nvm[s + lo:s + limit]
        i = len(chunk) - 1
        while i >= 0 and chunk[i] == 0xFF:
            i -= 1
        if i >= 0:
            limit = _up(lo + i + 1)
            break
        limit = lo
    o = 0
    end = 0
    # past every byte a refused header was read from: appending there never changes a verdict
    reach = 0
    last_bad = -1  # the offset of the last bytes no valid record explains
    mid_bad = -1  # the last such offset with a valid record after it
    run = -1  # the first bad offset since the last valid record, and how far its header said it ran
    run_to = 0
    # record headers in that run: a record torn by a power cut is one, the last in the log
    heads = 0
    rec_bad = -1  # the last bad run whose kind byte reads as records, or as no kind at all
    while o < limit and o + record.DHEADER <= n:
        h = nvm[s + o:s + min(n, o + record.HEADER)]
        got = _at(store, o, h, -1, st, False)
        # one bit off a record's magic at most: mend it
        if got is None and (h[0] == _M0 or h[1] == _M1):
            got = _mend(store, o, h, st, not _torn(store, o, h, limit))
        if got is not None:
            kind, seq, data, ln, delta = got
            a = st[kind]
            if kind == record.KIND_ASIDE and a is not None and a[0] != seq:
                olds = (olds + (a,))[1 - ASIDES:]
            st[kind] = (seq, data)  # the later in the log is the newer
            top = max(top, seq)
            good[kind] = o
            chain[kind] = chain[kind] + 1 if delta else 0
            o = _up(o + ln)
            end = o
            if run >= 0:
                mid_bad = last_bad
                run = -1
            continue
        claim = -1
        d = delta_header(h)
        if d is not None:
            claim = o + record.DOVERHEAD + d[1]
        else:
            p = record.parse_header(h)
            if p is not None:
                claim = o + record.size(p[2])
        # a torn record, a bit gone wrong, or bytes no record explains: look for the next record on
        # the next boundary (never jump by a length that may be the bad part)
        if h[0] != 0xFF or h[1] != 0xFF or h[2] != 0xFF or h[3] != 0xFF:
            last_bad = o
            if run < 0:
                run = o
                run_to = claim if claim >= 0 else o + record.HEADER
                heads = 0
                k = h[2] & 0x7F
                if k == record.KIND_RECORDS or not 0 < k <= record.KIND_RECORDS_ASIDE:
                    rec_bad = o  # (a save whose kind byte is bad reads so too: said, not silent)
            if claim >= 0:
                heads += 1
        reach = max(reach, o + record.HEADER)
        o += ALIGN
    store._st = st
    a = st[record.KIND_ASIDE]
    store._olds = () if a is None else tuple(x for x in olds if x[0] != a[0])
    store._chain = chain
    store._seq = top
    store._end = min(max(end, limit, _up(reach)), n)
    # A kind whose state may not be its newest (bad bytes after the record that gave it) writes its
    # next state as a full record: a delta of what this boot read could be applied to a newer state
    # by a later boot that reads the bad record right (a bit misread once), and refused there.
    store._stale = [last_bad > good[k] for k in range(5)]
    # Saves lost: bad bytes after the newest save, unless they are one record torn at the end of the
    # log (a power cut during the save being made: it reads as that cut, as it always has; a bad bit
    # in the newest record reads the same, one save back, with no message).
    g = good[record.KIND_SAVE]
    store.lost = mid_bad > g or (run > g and (heads > 1 or _up(run_to) < limit))
    # Records older than written: a bad record that may be records after the newest ones read
    store.rec_lost = rec_bad > good[record.KIND_RECORDS] and good[record.KIND_RECORDS] >= 0
    store._scanned = True


def _at(store, o, h, fix_i, st, fix_rest):
    """The record at offset o, its header read as h: (kind, seq, payload, length, is a delta), or
    None when it is not a valid record (a delta: not one of the state before it). fix_i >= 0: h is a
    header with a bit put right (fix_i: that byte). fix_rest: try each bit of the rest put right in
    turn."""
    n = store._n
    d = delta_header(h)
    if d is not None:
        kind, m = d
        ln = record.DOVERHEAD + m
        cur = st[kind]
        if cur is None:
            return None  # a delta of nothing (its base bad or compacted away)
        seq = cur[0] + 1
    else:
        p = record.parse_header(h)
        if p is None:
            return None
        kind, seq, m = p
        ln = record.size(m)
        cur = None
    if o + ln > n:
        return None
    rec = store.nvm[store._s + o:store._s + o + ln]
    if 0 <= fix_i < min(len(h), ln):
        rec[fix_i] = h[fix_i]
    k = record.DHEADER if cur is not None else record.HEADER  # where the rest starts
    got = _valid(rec, kind, seq, m, cur)
    if got is not None or not fix_rest:
        return got if got is None else (kind, seq, got, ln, cur is not None)
    for j in range(k, ln):
        for b in range(8):
            rec[j] ^= 1 << b
            got = _valid(rec, kind, seq, m, cur)
            rec[j] ^= 1 << b
            if got is not None:
                store.mended += 1
                return kind, seq, got, ln, cur is not None
    return None


def _valid(rec, kind, seq, m, cur):
    if cur is not None:
        return apply_delta(cur[1], rec, m)
    return record.payload(rec, m) if record.valid(rec, m) else None


def _torn(store, o, h, limit):
    """True if the record at o looks cut short by a power cut: the last in the log, and what its
    header says it holds runs past the last programmed byte or ends in erased bytes (its CRC's last
    two bytes 0xFF: 1 in 65,536 for a whole record). Only its header is mended there: a torn record
    is many bits off, and trying every bit of it at each boot would cost a Pico a second."""
    d = delta_header(h)
    if d is not None:
        ln = record.DOVERHEAD + d[1]
    else:
        p = record.parse_header(h)
        if p is None:
            return len(h) < record.HEADER or h[-1] == 0xFF  # a header cut short
        ln = record.size(p[2])
    if o + ln > limit:
        return True
    if _up(o + ln) < limit:
        return False  # something was programmed after it: not the record a cut stopped
    e = store._s + o + ln
    return store.nvm[e - 1] == 0xFF and store.nvm[e - 2] == 0xFF


def _mend(store, o, h, st, body):
    """The record at o with one bit put right (a bit gone wrong in flash, or misread), or None: each
    bit of the header in turn, then (body) each bit of the rest. A CRC-32 over at most 1,037 bytes
    tells one bit wrong from none (its Hamming distance is 4 at these lengths), so the record mended
    is the one written."""
    h = bytearray(h)
    heads = record.DHEADER if delta_header(h) is not None else len(h)  # a delta's header: 4 bytes
    for i in range(heads):
        for b in range(8):
            h[i] ^= 1 << b
            got = _at(store, o, h, i, st, False)
            h[i] ^= 1 << b
            if got is not None:
                store.mended += 1
                return got
    return _at(store, o, h, -1, st, True) if body else None


# Delta records (layout: fdfw.store.record) are read only here; in play the log only appends them.
def delta_header(h):
    """(kind, body length) if h (at least DHEADER bytes) starts a delta record, else None."""
    if len(h) < record.DHEADER or h[0] != _M0 or h[1] != _M1 or not h[2] & record.DELTA:
        return None
    kind = h[2] & 0x7F
    if kind != record.KIND_SAVE and kind != record.KIND_RECORDS:
        return None
    return kind, h[3]


def apply_delta(old, rec, m):
    """The payload delta record `rec` (body length m, at least DOVERHEAD + m bytes) makes of `old`,
    or None if its runs do not fit `old` or its CRC does not match (torn, or another base's)."""
    if len(rec) < record.DOVERHEAD + m:
        return None
    new = bytearray(old)
    n = len(new)
    o = 0
    i = record.DHEADER
    end = record.DHEADER + m
    while i < end:
        if i + 2 > end:
            return None
        o += rec[i]
        k = rec[i + 1]
        i += 2
        if i + k > end or o + k > n:
            return None
        new[o:o + k] = rec[i:i + k]
        o += k
        i += k
    c = crc32(new, crc32(memoryview(rec)[:end])) & 0xFFFFFFFF
    if c != rec[end] | (rec[end + 1] << 8) | (rec[end + 2] << 16) | (rec[end + 3] << 24):
        return None
    return bytes(new)
