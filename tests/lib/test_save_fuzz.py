"""Thousands of damaged saves (seeded, bounded): loading never raises, and never yields a game that cannot be
played to its end. Figures for docs/saves.md: run with -s to print them."""
import random

from fivedice import app as A
from fivedice import game as G
from fivedice import rules
from fivedice.rng import Dice, SeededBytes
from fivedice.savefile import decode as save_decode
from fivedice import savefile
from host_sim.hw import SimBoard

DISPLAY = SimBoard().display
RAW = 3000
RESEALED = 3000


class Slot:
    def __init__(self, data):
        self.data = data
        self.bad = None

    def read(self):
        return self.data

    def write(self, data):
        raise AssertionError("loading must not write")

    def set_aside(self):
        self.bad = self.data


def _records(rnd):
    """Valid records: every rule set, 1-4 players, at the start, mid-turn, mid-game and over."""
    out = []
    for rs in rules.ALL:
        for players in (1, 2, 4):
            for turns in (0, 3, rs.n * players - 1, rs.n * players):
                g = G.Game(rs, players, Dice(SeededBytes(rnd.randrange(1, 1 << 30))))
                for _ in range(turns):
                    g.roll()
                    if rnd.random() < 0.5 and g.roll() == 0:
                        g.hold(rnd.randrange(5))
                        g.roll()
                    m = g.legal()
                    boxes = [b for b in range(rs.n) if m >> b & 1]
                    g.score(rnd.choice(boxes))
                if not g.over and rnd.random() < 0.7:
                    g.roll()
                    g.hold(rnd.randrange(5))
                a = A.App(DISPLAY)
                a.session.game = g
                a.settings.rules_i = rs.index
                a.settings.players = players
                for i in range(4):
                    a.settings.seats[i] = rnd.randrange(4)
                out.append(a.session.save_bytes())
    return out


def _plays_to_the_end(g):
    """The loaded game is one that play can finish: every turn has a legal box, the game ends on time."""
    steps = 0
    limit = (g.rs.n + 1) * g.players
    while not g.over:
        if g.rolls < G.ROLLS_PER_TURN:
            g.held = 0
            assert g.roll() == G.OK
        m = g.legal()
        assert m, "a turn with no legal box"
        b = 0
        while not (m >> b) & 1:
            b += 1
        assert g.score(b) == G.OK
        steps += 1
        assert steps <= limit, "the game does not end"
    for c in g.cards:
        assert c.full() and c.total() >= 0


def _load(data):
    slot = Slot(data)
    app = A.App(DISPLAY, store=slot, dice=Dice(SeededBytes(9)))
    if app.session.save_bad:
        assert app.session.game is None and slot.bad == data and app.session.save_error
        return None
    if app.session.game is not None:
        _plays_to_the_end(app.session.game)
    return app


def _corrupt(rnd, rec):
    d = bytearray(rec)
    k = rnd.randrange(6)
    if k == 0:
        return bytes(d[: rnd.randrange(len(d))])  # truncated
    if k == 1:
        return bytes(d + bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8))))  # padded
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(len(d))
        if k == 2:
            d[i] = rnd.randrange(256)
        else:
            d[i] ^= 1 << rnd.randrange(8)
    return bytes(d)


def _reseal(d):
    """Give a damaged record valid checksums again (the game's own CRC and the record's)."""
    d = bytearray(d)
    if len(d) < 7 + 13 + 8:
        return bytes(d)
    n = len(d) - save_decode.CRC_BYTES
    body = bytearray(d[7 : n])
    savefile.put_crc(body, len(body) - save_decode.CRC_BYTES)
    d[7:n] = body
    savefile.put_crc(d, n)
    return bytes(d)


def test_random_corruptions_of_a_save_never_crash_and_never_load():
    rnd = random.Random(8)
    recs = _records(rnd)
    loaded = 0
    for i in range(RAW):
        rec = recs[i % len(recs)]
        bad = _corrupt(rnd, rec)
        if bad == rec:
            continue
        if _load(bad) is not None:
            loaded += 1
    print("\nsaves: %d random corruptions, %d loaded" % (RAW, loaded))
    assert loaded == 0


def test_every_random_two_bit_error_is_caught_by_the_crc():
    rnd = random.Random(2)
    recs = _records(rnd)
    for t in range(2000):
        rec = bytearray(recs[t % len(recs)])
        a, b = rnd.sample(range(8 * len(rec)), 2)
        rec[a // 8] ^= 1 << (a % 8)
        rec[b // 8] ^= 1 << (b % 8)
        assert not save_decode.crc_ok(rec)


def test_resealed_corruptions_load_only_games_that_play_to_the_end():
    rnd = random.Random(11)
    recs = _records(rnd)
    loaded = refused = 0
    for i in range(RESEALED):
        rec = recs[i % len(recs)]
        d = bytearray(rec)
        for _ in range(rnd.randint(1, 3)):
            d[rnd.randrange(len(d) - 8)] = rnd.choice((rnd.randrange(256), 0, 1, 255, 50))
        app = _load(_reseal(d))
        if app is None:
            refused += 1
        else:
            loaded += 1
    print("\nsaves: %d corruptions with valid checksums: %d refused and kept, %d loaded and played to the end"
          % (RESEALED, refused, loaded))
    assert refused > RESEALED // 2 and loaded > 0
