"""The save record (docs/saves.md): its layout and its writing, kept loaded.
fivedice.savefile.decode reads it back and checks it: loaded only at start-up, dropped after."""
#   0      _SAVE_MAGIC (record format 2; format 1 began 0xA7)
#   1      the menu's rule set (index in rules.ALL)
#   2      bits 0-2 players (1-4), 3-4 dim, 5-6 sleep (power.CHOICES each), 7 muted
#   3-6    per seat: bits 0-1 the menu's seat kind (settings.HUMAN...);
#          bit 6 _SEATED: bits 4-5 hold the game's own
#   7-     the game in progress, if any (encode_game), then CRC-32 over the whole record
# The game: _GAME_MAGIC, _GAME_VERSION, rule set, players, player, rolls, held mask, turn, 5 faces
# (bit 7 of the first: the game is over); per player the filled mask (2 bytes, little-endian), extra
# bonuses, each box's points; its own CRC-32.
from fivedice.compat import const, crc32

# The layout's numbers, private here (kept out of the loaded module's dict); the reader states them
# again as its public names (decode.SAVE_MAGIC ...), and tests/test_savefile.py holds the two equal.
_SAVE_MAGIC = const(0xA8)
_SAVE_HEAD = const(7)
_SEATED = const(0x40)
_GAME_MAGIC = const(0xD5)
_GAME_VERSION = const(2)  # 2: CRC-32 and every field checked on load (1: an 8-bit checksum)
_GAME_HEAD = const(13)
_CRC_BYTES = const(4)


def record(s, game, seated):
    """The save record of the menu's settings `s` and `game` (None: none), seat p on seated[p]."""
    gb = encode_game(game) if game is not None else b""
    n = _SAVE_HEAD + len(gb)
    rec = bytearray(n + _CRC_BYTES)
    rec[0] = _SAVE_MAGIC
    rec[1] = s.rules_i
    rec[2] = s.players | s.dim_i << 3 | s.sleep_i << 5 | (0x80 if s.muted else 0)
    for i in range(4):
        rec[3 + i] = s.seats[i] | (_SEATED | seated[i] << 4 if game is not None else 0)
    rec[_SAVE_HEAD:n] = gb
    put_crc(rec, n)
    return bytes(rec)


def levels(data, out):
    """The seat kinds record `data` names (the menu's seats in play and the game's) into out[0:4]:
    their CPU code is loaded before the record is read. False if it is too short to name any."""
    if len(data) < _SAVE_HEAD:
        return False
    for i in range(4):
        out[i] = data[3 + i] & (0x33 if i < (data[2] & 7) else 0x30)
    return True


def encode_game(g):
    """A game's bytes (the layout above), sealed with their CRC-32."""
    n = g.rs.n
    out = bytearray(_GAME_HEAD + g.players * (3 + n) + _CRC_BYTES)
    out[0] = _GAME_MAGIC
    out[1] = _GAME_VERSION
    out[2] = g.rs.index
    out[3] = g.players
    out[4] = g.player
    out[5] = g.rolls
    out[6] = g.held
    out[7] = g.turn
    for i in range(5):
        out[8 + i] = g.dice[i]
    if g.over:
        out[8] |= 0x80  # faces need only 3 bits
    p = _GAME_HEAD
    for c in g.cards:
        out[p] = c.filled & 0xFF
        out[p + 1] = c.filled >> 8
        out[p + 2] = c.extra
        for i in range(n):
            out[p + 3 + i] = c.pts[i]
        p += 3 + n
    put_crc(out, p)
    return bytes(out)


def put_crc(buf, n):
    """Write CRC-32 (binascii, in C on every runtime) of buf[0:n] little-endian into buf[n:n+4]."""
    c = crc32(memoryview(buf)[0:n])
    for i in range(_CRC_BYTES):
        buf[n + i] = (c >> (8 * i)) & 0xFF
