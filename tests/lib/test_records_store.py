"""Records (issue #9 part 2) through the stores: the format round-trips for any play (hypothesis), a power
cut at every byte and step of a records write loses at most that write on every store, and damaged
records are set aside with one message, never crash, and are never written over."""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivedice import records as R

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
FIRMWARE = os.path.join(ROOT, "firmware")

games = st.lists(
    st.tuples(
        st.integers(0, 5),  # rule set
        st.integers(0, 1575),  # score
        st.integers(0, 13),  # five-of-a-kinds
        st.booleans(),  # upper bonus
        st.integers(0, 5000),  # loss x100
        st.integers(0, 60),  # decisions
        st.booleans(),  # a table was present
        st.text("ABCXYZ09 ", min_size=3, max_size=3),
    ),
    max_size=40,
).map(lambda gs: [g if g[5] else g[:4] + (0,) + g[5:] for g in gs])  # no loss without decisions


@settings(max_examples=150, deadline=None)
@given(games)
def test_records_round_trip_and_the_table_is_the_reference_top5(played):
    r = R.Records()
    ref = {}
    for rs, score, fives, bonus, loss, decs, coached, who in played:
        g = r.add_game(rs, score, fives, bonus, loss, decs, coached)
        rank = r.insert(rs, score, who.encode(), g)
        table = ref.setdefault(rs, [])
        # reference: the best five by score, an equal score ranking below the earlier one
        table.append((-score, g, who.encode()))
        table.sort()
        want = table.index((-score, g, who.encode()))
        del table[5:]
        assert rank == (want if want < 5 else -1)
    data = r.encode()
    q = R.decode(data)
    assert q.encode() == data and len(data) == 8 + 91 * len(ref)
    for rs in range(6):
        got = [(-q.score(rs, i), q.order(rs, i), q.initials(rs, i)) for i in range(q.entries(rs))]
        assert got == ref.get(rs, [])
        mine = [x for x in played if x[0] == rs]
        assert q.games(rs) == len(mine) and q.total(rs) == sum(x[1] for x in mine)
        assert q.best(rs) == max([x[1] for x in mine] or [0])
        assert q.fives(rs) == sum(x[2] for x in mine) and q.bonuses(rs) == sum(1 for x in mine if x[3])
        decs = sum(x[5] for x in mine if x[6])
        loss = sum(x[4] for x in mine if x[6])
        assert q.loss_per_decision_x100(rs) == (-1 if not decs else (2 * loss + decs) // (2 * decs))


@settings(max_examples=300, deadline=None)
@given(games, st.data())
def test_any_changed_byte_of_a_records_record_is_refused(played, data):
    r = R.Records()
    for rs, score, fives, bonus, loss, decs, coached, who in played:
        r.insert(rs, score, who.encode(), r.add_game(rs, score, fives, bonus, loss, decs, coached))
    good = r.encode()
    i = data.draw(st.integers(0, len(good) - 1))
    x = data.draw(st.integers(1, 255))
    bad = bytearray(good)
    bad[i] ^= x
    with pytest.raises(ValueError):
        R.decode(bytes(bad))


def _fw(monkeypatch):
    monkeypatch.syspath_prepend(FAKES)
    monkeypatch.syspath_prepend(FIRMWARE)
    import fakeflash
    import powercut

    return powercut.Stores, fakeflash, powercut


def _records(n):
    r = R.Records()
    for i in range(n):
        r.insert(i % 2, 100 + i, b"ABC", r.add_game(i % 2, 100 + i, 1, 1, 30 * i, 20, True))
    return r.encode()


@pytest.mark.parametrize("kind", ["nvm", "lfs", "fat"])
def test_a_power_cut_at_every_byte_of_a_records_write_loses_at_most_that_write(monkeypatch, kind):
    """Every cut point of every records write, and of the save before and after it and of the compaction
    after it, in three games (real fivedice.records bytes); two cuts in a row at a spread of pairs there.
    The nvm store's cuts inside a sector rewrite are counted apart (the RP2040's one-sector window)."""
    _, _, pc = _fw(monkeypatch)
    ops = pc.game_ops(1, 3)
    k = 0
    for i in range(len(ops)):
        if ops[i][0] == "r":
            k += 1
            ops[i] = ("r", _records(k))
    rig = pc.Rig(kind)
    snaps, states = pc.prefix_snapshots(rig, ops)
    res = pc.Result(kind)
    rs = [i for i in range(len(ops)) if ops[i][0] == "r"]
    for i in rs:
        for j in (i - 1, i, i + 1, i + 2):
            if j + 1 < len(ops):
                pc.single(rig, res, ops, snaps, states, j)
        pc.double(rig, res, ops, snaps, states, i, pc.KS_SMALL, pc.KS_SMALL)
        pc.double(rig, res, ops, snaps, states, i - 1, pc.KS_SMALL, pc.KS_SMALL)
    assert res.tried > 600, res.line()
    assert res.failures == 0, res.line() + " first at " + str(res.first)
    if kind == "nvm":
        assert rig.medium.erases >= 1 and res.window_cuts > 0  # a compaction was among the cut operations


@pytest.mark.parametrize("kind", ["nvm", "lfs"])
def test_damaged_records_are_set_aside_once_kept_and_never_written_over(monkeypatch, kind, capsys):
    store, ff, _ = _fw(monkeypatch)
    if kind == "nvm":
        m = ff.FakeNvm(4096)
        make = lambda: store.NvmStore(m)  # noqa: E731
    else:
        m = ff.FakeFS()
        make = lambda: store.FileStore("/fivedice.sav", m)  # noqa: E731
    s = make()
    s.write(b"\xa8 the game")
    bad = bytearray(_records(3))
    bad[20] ^= 0x10  # then re-sealed: a CRC-valid record whose stats do not add up
    from fivedice.compat import crc32

    c = crc32(bytes(bad[:-4])) & 0xFFFFFFFF
    bad[-4:] = bytes((c >> (8 * i)) & 0xFF for i in range(4))
    s.write_records(bytes(bad))
    recs = R.Records()
    s = make()
    msg = R.load(s, recs)
    assert msg.startswith("records have") and "kept aside" in msg and recs.k == 0
    assert make().read_records() is None and R.load(make(), R.Records()) is None  # said once, not every boot
    assert make().read() == b"\xa8 the game"  # the save is untouched
    recs.insert(0, 50, b"NEW", recs.add_game(0, 50))
    assert R.save(make(), recs) is None
    for i in range(40):  # many saves and records later, through nvm rewrites
        s = make()
        s.write(b"\xa8 game %d " % i + bytes([i]) * 30)
        if i % 10 == 9:
            recs.add_game(0, i)
            R.save(s, recs)
            if s.compact_due():
                s.compact()
    assert R.decode(make().read_records()).games(0) == 5
    if kind == "nvm":
        t = make()
        t._scan()
        assert t._st[4][1] == bytes(bad) and m.erases >= 1  # the set-aside copy survived the rewrites
    else:
        r = make()._load("/fivedice.rec.bad")
        assert r[4][9:-4] == bytes(bad)
        assert sorted(m.files) == ["/fivedice.rec.0", "/fivedice.rec.1", "/fivedice.rec.bad", "/fivedice.sav.0",
                                   "/fivedice.sav.1"]


def test_a_store_without_records_support_or_a_failing_one_gives_a_message_not_a_crash(monkeypatch):
    class Old:
        def read(self):
            return None

    assert R.load(Old(), R.Records()) is None and R.save(Old(), R.Records()) is None

    class Broken:
        def read_records(self):
            raise OSError(5, "EIO")

        def write_records(self, data):
            raise OSError(28, "the flash is full")

    recs = R.Records()
    assert R.load(Broken(), recs) is None
    assert R.save(Broken(), recs) == "could not save the records (the flash is full)"


def test_nvm_plan_save_and_records_share_the_sector(monkeypatch):
    """The space plan: a 4-player save (92 bytes) and all six rule sets' records (554 bytes) plus a set-aside
    copy of each fit one compacted 4 KB sector with room for the log."""
    store, ff, _ = _fw(monkeypatch)
    m = ff.FakeNvm(4096)
    s = store.NvmStore(m)
    big = R.Records()
    for i in range(6):
        big.add_game(i, 10)
    s.write(b"\xa8" + bytes(91))
    s.write_records(big.encode())
    s.set_aside()
    s.set_aside_records()
    s.write(b"\xa8" + bytes(90) + b"\x01")
    s.compact()
    assert s.free() > 2800  # (92+13) + (554+13) + the two set-aside copies, 4-byte aligned: 1,344 bytes
    t = store.NvmStore(m)
    assert t.read() == b"\xa8" + bytes(90) + b"\x01" and t.read_records() is None


def test_host_sim_store_keeps_records_beside_the_save_and_sets_bad_ones_aside(tmp_path):
    from host_sim.sim import FileStore

    s = FileStore(str(tmp_path / "fivedice.sav"))
    assert s.read_records() is None
    s.write_records(_records(2))
    assert s.read_records() == _records(2) and (tmp_path / "fivedice.rec").exists()
    (tmp_path / "fivedice.rec").write_bytes(b"FR\x01\x09junk")
    recs = R.Records()
    assert "kept aside" in R.load(s, recs)
    assert (tmp_path / "fivedice.rec.bad").read_bytes() == b"FR\x01\x09junk" and s.read_records() is None
