"""High scores and lifetime stats (fivedice.records): the top-5 tie rule, stats, the pinned format, and a
damaged record refused with a plain message. Runs on CPython and on the MicroPython unix port."""
from fivedice import records as R
from fivedice import rules
from fivedice.scorecard import Card


def _refused(data):
    try:
        R.decode(data)
    except ValueError as e:
        return str(e)
    return None


def _table(r, rs=0):
    return [(r.score(rs, i), r.initials(rs, i), r.order(rs, i)) for i in range(r.entries(rs))]


def test_top5_keeps_the_five_best_and_an_equal_score_ranks_below_the_earlier_one():
    r = R.Records()
    got = []
    for s, who in ((120, b"AAA"), (200, b"BBB"), (150, b"CCC"), (200, b"DDD"), (90, b"EEE"), (300, b"FFF"),
                   (120, b"GGG"), (121, b"HHH")):
        g = r.add_game(0, s)
        got.append(r.insert(0, s, who, g))
    assert got == [0, 0, 1, 1, 4, 0, -1, 4]  # 120 again: the table is full and it ties the fifth: out
    assert _table(r) == [(300, b"FFF", 6), (200, b"BBB", 2), (200, b"DDD", 4), (150, b"CCC", 3), (121, b"HHH", 8)]
    assert r.qualifies(0, 121) == -1 and r.qualifies(0, 122) == 4 and r.qualifies(0, 300) == 1
    assert r.qualifies(0, 301) == 0


def test_a_table_with_room_takes_any_score_even_zero():
    r = R.Records()
    assert r.qualifies(3, 0) == 0
    g = r.add_game(3, 0)
    assert r.insert(3, 0, b"Z 9", g) == 0 and r.entries(3) == 1 and r.qualifies(3, 0) == 1


def test_stats_per_rule_set_mean_best_fives_bonuses_and_loss_per_decision():
    r = R.Records()
    r.add_game(0, 250, fives=2, bonus=1, loss_x100=1240, decisions=40, coached=True)
    r.add_game(0, 181, fives=0, bonus=0)  # no table: games and scores count, the loss does not
    r.add_game(5, 77)
    assert (r.games(0), r.total(0), r.best(0), r.fives(0), r.bonuses(0)) == (2, 431, 250, 2, 1)
    assert r.mean_x10(0) == 2155 and r.coached_games(0) == 1
    assert r.loss_per_decision_x100(0) == 31  # 12.40 points over 40 decisions
    assert r.loss_per_decision_x100(5) == -1 and r.mean_x10(5) == 770 and r.games(1) == 0
    assert r.mean_x10(1) == 0 and r.entries(1) == 0


def test_game_stats_counts_the_five_box_in_full_the_extra_bonuses_and_the_upper_bonus():
    rs = rules.get("yahtzee")
    c = Card(rs)
    for f in range(1, 7):
        c.fill(rs.upper_box[f], 4 * f)  # 84: bonus
    c.fill(rs.five_box, 50)
    c.extra = 2
    assert R.game_stats(rs, c) == (c.total(), 3, 1)
    d = Card(rs)
    d.fill(rs.five_box, 0)
    assert R.game_stats(rs, d) == (0, 0, 0)


def test_record_format_is_pinned():
    r = R.Records()
    assert r.encode()[:4] == b"FR\x02\x00" and len(r.encode()) == 8
    g = r.add_game(2, 0x0102, fives=1, bonus=1)
    r.insert(2, 0x0102, b"ABC", g)
    r.add_test(2, 0x030201)
    b = r.encode()
    assert len(b) == 99 == r.size() and b[:5] == b"FR\x02\x01\x02"
    assert b[5:9] == b"\x01\x00\x00\x00" and b[9:13] == b"\x02\x01\x00\x00" and b[13:15] == b"\x02\x01"
    assert b[33:42] == b"\x02\x01ABC\x01\x00\x00\x00"
    assert b[78:80] == b"\x01\x00" and b[80:85] == b"\x01\x02\x03\x01\x00" and b[85:95] == bytes(10)
    full = R.Records()
    for i in range(6):
        full.add_game(i, 1)
    assert len(full.encode()) == R.MAX_BYTES == 554


def _v1(rec):
    """rec's bytes in format 1 (blocks of 74 bytes, no tests), as an older fivedice wrote them."""
    from fivedice.compat import crc32

    b = rec.encode()
    k = b[3]
    out = bytearray(b"FR\x01" + bytes([k]))
    for i in range(k):
        out += b[4 + 91 * i:4 + 91 * i + 74]
    c = crc32(bytes(out)) & 0xFFFFFFFF
    return bytes(out) + bytes((c >> (8 * i)) & 0xFF for i in range(4))


def test_old_records_format_1_are_read_and_written_back_as_format_2():
    r = R.Records()
    for i in range(7):
        g = r.add_game(i % 2 * 3, 120 + 11 * i, i % 2, i % 3 == 0, 5 * i, 10, True)
        r.insert(i % 2 * 3, 120 + 11 * i, b"AB%d" % i, g)
    old = _v1(r)
    assert len(old) == 8 + 74 * 2 and old[2] == 1
    q = R.decode(old)
    assert q.encode() == r.encode() and q.tests(0) == 0 and q.test_entries(3) == 0
    assert q.games(3) == r.games(3) and q.score(0, 0) == r.score(0, 0) and q.initials(3, 0) == r.initials(3, 0)
    q.add_test(3, 1234)
    assert R.decode(q.encode()).test_loss_x100(3, 0) == 1234 and R.decode(q.encode()).encode()[2] == 2


def test_the_best_three_tests_are_kept_fewest_points_given_away_first():
    r = R.Records()
    assert r.add_test(1, 2500) == 0  # test 1
    assert r.add_test(1, 1200) == 0  # test 2
    assert r.add_test(1, 2500) == 2  # test 3: a tie ranks below the earlier one
    assert r.add_test(1, 9000) == -1  # test 4: not among the best three
    assert r.add_test(1, 0) == 0  # test 5: a perfect test
    q = R.decode(r.encode())
    assert q.tests(1) == 5 and q.test_entries(1) == 3 and q.games(1) == 0
    assert [(q.test_loss_x100(1, i), q.test_number(1, i)) for i in range(3)] == [(0, 5), (1200, 2), (2500, 1)]
    assert q.test_entries(0) == 0 and q.tests(0) == 0


def test_a_test_table_no_play_can_make_is_refused_even_with_a_valid_crc():
    r = R.Records()
    r.add_test(0, 300)
    r.add_test(0, 100)
    good = bytearray(r.encode())
    t0 = 4 + 76
    cases = []
    b = bytearray(good)
    b[t0:t0 + 3], b[t0 + 5:t0 + 8] = b[t0 + 5:t0 + 8], b[t0:t0 + 3]  # losses out of order
    cases.append(b)
    b = bytearray(good)
    b[t0 + 3] = 7  # test 7 of 2 taken
    cases.append(b)
    b = bytearray(good)
    b[t0 + 13] = 1  # a third entry with number 0 but a loss: a gap
    b[t0 + 10] = 1
    cases.append(b)
    b = bytearray(good)
    b[t0 + 8] = b[t0 + 3]  # two entries of one test
    cases.append(b)
    for c in cases:
        why = _refused(_sealed(bytes(c)))
        assert why and "test table" in why, why


def test_a_round_trip_keeps_everything():
    r = R.Records()
    for i in range(9):
        s = 100 + 37 * i % 90
        g = r.add_game(i % 3, s, i % 2, i % 3 == 0, 7 * i, 10 + i, i % 2 == 0)
        r.insert(i % 3, s, b"A%dZ" % (i % 10), g)
    b = r.encode()
    q = R.decode(b)
    assert q.encode() == b and q.k == 3 and _table(q, 1) == _table(r, 1)


def test_damaged_records_are_refused_with_one_plain_sentence():
    r = R.Records()
    g = r.add_game(0, 200, bonus=1)
    r.insert(0, 200, b"ABC", g)
    good = r.encode()
    assert _refused(b"") and _refused(None) and _refused(good[:-1]) and _refused(good + b"\x00")
    for i in range(len(good)):
        for bit in (1, 128):
            bad = bytearray(good)
            bad[i] ^= bit
            assert _refused(bytes(bad)), (i, bit)
    assert "format 3" in _refused(b"FR\x03\x00" + bytes(4))


def _sealed(b):
    b = bytearray(b)
    n = len(b) - 4
    from fivedice.compat import crc32

    c = crc32(bytes(b[:n])) & 0xFFFFFFFF
    for i in range(4):
        b[n + i] = (c >> (8 * i)) & 0xFF
    return bytes(b)


def test_records_no_play_can_make_are_refused_even_with_a_valid_crc():
    r = R.Records()
    for s in (150, 100):
        g = r.add_game(0, s)
        r.insert(0, s, b"ABC", g)
    good = bytearray(r.encode())
    e0 = 4 + 29
    cases = []
    b = bytearray(good)
    b[e0:e0 + 2], b[e0 + 9:e0 + 11] = b[e0 + 9:e0 + 11], b[e0:e0 + 2]  # scores out of order
    cases.append(b)
    b = bytearray(good)
    b[e0 + 5] = 9  # set at game 9 of 2
    cases.append(b)
    b = bytearray(good)
    b[e0 + 2] = ord("a")  # lower case initial
    cases.append(b)
    b = bytearray(good)
    b[4 + 9] = 10  # best 10, below the table's 150
    cases.append(b)
    b = bytearray(good)
    b[4] = 7  # rule set 7 does not exist
    cases.append(b)
    b = bytearray(good)
    b[e0 + 18:e0 + 27] = b[e0 + 9:e0 + 18]  # a third entry copied: the same game twice
    cases.append(b)
    b = bytearray(good)
    b[e0 + 9:e0 + 18] = bytes(9)  # a gap before... nothing: entry 1 emptied is fine only if it is the last
    b[e0 + 18:e0 + 20] = b"\x05\x00"  # but entry 2 still holds a score
    cases.append(b)
    b = bytearray(good)
    b[4 + 15] = 3  # 3 upper bonuses in 2 games
    cases.append(b)
    for b in cases:
        assert _refused(_sealed(b)), bytes(b)
    assert _refused(_sealed(good)) is None


def test_refused_bytes_leave_the_records_as_they_were():
    r = R.Records()
    r.add_game(1, 99)
    before = r.encode()
    try:
        r.load(b"FR\x01\x01" + bytes(78))
    except ValueError:
        pass
    assert r.encode() == before


def test_an_unknown_rule_set_or_bad_initials_are_refused_by_the_updates():
    r = R.Records()
    for bad in ((6, 10), (0, -1), (0, 10000)):
        try:
            r.add_game(*bad)
            assert False, bad
        except ValueError:
            pass
    g = r.add_game(0, 10)
    for initials in (b"ab", b"abc", b"A\x00C"):
        try:
            r.insert(0, 10, initials, g)
            assert False, initials
        except ValueError:
            pass
    assert r.entries(0) == 0


def test_initials_can_be_set_after_the_score_is_stored():
    r = R.Records()
    g = r.add_game(4, 222)
    rank = r.insert(4, 222, b"   ", g)
    before = r.encode()
    r.set_initials(4, rank, b"JMB")
    assert r.initials(4, 0) == b"JMB" and R.decode(r.encode()).initials(4, 0) == b"JMB" and before != r.encode()
    for bad in ((4, 1, b"ABC"), (4, 0, b"ab!")):
        try:
            r.set_initials(*bad)
            assert False, bad
        except ValueError:
            pass


def test_two_seats_of_one_game_find_their_entries_by_game_number():
    r = R.Records()
    a = r.add_game(0, 180)
    b = r.add_game(0, 200)
    assert r.insert(0, 180, b"   ", a) == 0 and r.insert(0, 200, b"   ", b) == 0
    assert r.rank_of(0, a) == 1 and r.rank_of(0, b) == 0 and r.rank_of(0, 99) == -1
    r.set_initials(0, r.rank_of(0, a), b"AAA")
    assert r.initials(0, 1) == b"AAA" and r.initials(0, 0) == b"   "
