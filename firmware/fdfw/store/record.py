"""One saved record, the same bytes in every save backend (nvm log, slot files, the set-aside copy).
"""
#     offset  size  field
#     0       2     magic b"FD" (0x46 0x44: never erased flash 0xFF 0xFF)
#     2       1     kind: KIND_SAVE (a game the app wrote) or KIND_ASIDE (a save the app could not
#     read, kept)
#     3       4     sequence number, little-endian; the newest valid record has the highest
#     7       2     payload length n, little-endian, at most MAX_PAYLOAD
#     9       n     payload (the app's save bytes)
#     9+n     4     CRC-32 (binascii.crc32) of bytes 0 .. 9+n-1, little-endian
#
# Kinds: KIND_SAVE (a game the app wrote), KIND_ASIDE (a save the app could not read, kept),
# KIND_RECORDS (the high scores and stats, fivedice.records bytes) and KIND_RECORDS_ASIDE (records
# that would not decode).
#
# A delta record (the nvm log only) is the next state of a stream as a few changed bytes against the
# state before it (the newest save or records the log holds), so most saves append ~20-30 bytes, not
# ~60-110:
#
#     0       2     magic b"FD"
#     2       1     kind | DELTA (0x80)
#     3       1     body length m (at most 255)
#     4       m     body: runs of (skip, count, count bytes): skip unchanged bytes, then count new
#     ones
#     4+m     4     CRC-32 of bytes 0 .. 4+m-1 continued over the whole NEW payload (crc32(new,
#     crc32(head)))
#
# Its sequence number is the base's plus one. The CRC covers the payload the delta produces, so a
# delta read against the wrong base (or torn) never yields a state: it is skipped like a torn
# record.
#
# A record is valid when its header parses and its CRC matches. parse_header() refuses a length
# above MAX_PAYLOAD before anything is read, so a torn or corrupt length never makes a reader
# allocate more than HEADER + MAX_PAYLOAD + TRAILER bytes. The app's payload is 60-120 bytes today;
# MAX_PAYLOAD (1 KB) leaves room to grow.
from fivedice.compat import const, crc32  # crc32: binascii's (C), or the same CRC-32 in Python

HEADER = const(9)
TRAILER = const(4)
OVERHEAD = const(13)
MAX_PAYLOAD = const(1024)
KIND_SAVE = const(1)
KIND_ASIDE = const(2)
KIND_RECORDS = const(3)
KIND_RECORDS_ASIDE = const(4)
DELTA = const(0x80)
DHEADER = const(4)
DOVERHEAD = const(8)
_MAX_BODY = const(255)
_M0 = const(0x46)
_M1 = const(0x44)


def size(n):
    """Bytes of a record with an n-byte payload."""
    return OVERHEAD + n


def encode(seq, payload, kind=KIND_SAVE):
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("save of %d bytes is over the %d-byte limit" % (n, MAX_PAYLOAD))
    rec = bytearray(OVERHEAD + n)
    rec[0] = _M0
    rec[1] = _M1
    rec[2] = kind
    for i in range(4):
        rec[3 + i] = (seq >> (8 * i)) & 0xFF
    rec[7] = n & 0xFF
    rec[8] = n >> 8
    rec[HEADER:HEADER + n] = payload
    c = crc32(memoryview(rec)[:HEADER + n]) & 0xFFFFFFFF
    for i in range(4):
        rec[HEADER + n + i] = (c >> (8 * i)) & 0xFF
    return rec


def parse_header(h):
    """(kind, seq, payload length) from the first HEADER bytes, or None if they are not a record
    header."""
    if len(h) < HEADER or h[0] != _M0 or h[1] != _M1 or not KIND_SAVE <= h[2] <= KIND_RECORDS_ASIDE:
        return None
    n = h[7] | (h[8] << 8)
    if n > MAX_PAYLOAD:
        return None
    return h[2], h[3] | (h[4] << 8) | (h[5] << 16) | (h[6] << 24), n


def valid(rec, n):
    """True if rec (at least size(n) bytes, header already parsed with length n) has the right CRC.
    """
    if len(rec) < OVERHEAD + n:
        return False
    return crc32(memoryview(rec)[:HEADER + n]) & 0xFFFFFFFF == check_value(rec, n)


def payload(rec, n):
    return bytes(rec[HEADER:HEADER + n])


def check_value(rec, n):
    """The stored CRC of a valid record: with the sequence number, what identifies it."""
    end = HEADER + n
    return rec[end] | (rec[end + 1] << 8) | (rec[end + 2] << 16) | (rec[end + 3] << 24)


def encode_delta(kind, old, new):
    """A delta record turning payload `old` into `new` (the same length), or None when it would not
    be smaller than a full record (lengths differ, or too much changed)."""
    n = len(new)
    if len(old) != n:
        return None
    body = bytearray()
    i = 0
    last = 0
    while i < n:
        if old[i] == new[i]:
            i += 1
            continue
        j = i + 1
        # a run ends at 3 unchanged bytes in a row (a new run costs 2 bytes)
        while j < n and not (new[j] == old[j] and (j + 1 >= n or new[j + 1] == old[j + 1]) and (
                j + 2 >= n or new[j + 2] == old[j + 2])):
            j += 1
        j = min(j, i + 255)
        skip = i - last
        while skip > 255:
            body.append(255)
            body.append(0)
            skip -= 255
        body.append(skip)
        body.append(j - i)
        body.extend(new[i:j])
        if len(body) > _MAX_BODY or DOVERHEAD + len(body) >= OVERHEAD + n:
            return None
        last = i = j
    m = len(body)
    rec = bytearray(DOVERHEAD + m)
    rec[0] = _M0
    rec[1] = _M1
    rec[2] = kind | DELTA
    rec[3] = m
    rec[DHEADER:DHEADER + m] = body
    c = crc32(new, crc32(memoryview(rec)[:DHEADER + m])) & 0xFFFFFFFF
    for k in range(4):
        rec[DHEADER + m + k] = (c >> (8 * k)) & 0xFF
    return rec
