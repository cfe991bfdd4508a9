"""Dice from bytes: exact uniformity of the mapping, rejection, the whole path."""
from fivedice import rng


def test_every_face_has_the_same_number_of_accepted_byte_values():
    tally = [0] * 7
    for b in range(256):
        tally[rng.face_of_byte(b)] += 1
    assert tally[1:] == [42] * 6
    assert tally[0] == 4  # 252..255 are rejected


def test_rejected_bytes_are_skipped_not_folded():
    src = [bytes([255, 254, 253, 252, 0] + [5] * 27)]

    def source(n):
        return src.pop(0)

    d = rng.Dice(source)
    assert d.face() == 1
    assert d.face() == 6


def test_dice_use_the_injected_source_only():
    calls = []

    def source(n):
        calls.append(n)
        return bytes([7] * n)

    d = rng.Dice(source, pool=8)
    faces = [d.face() for _ in range(10)]
    assert faces == [2] * 10
    assert calls == [8, 8]


def test_a_short_read_from_the_source_is_a_start_up_failure():
    try:
        rng.Dice(lambda n: b"\x01")
    except rng.RandomSourceError as e:
        assert "returned 1 bytes" in str(e)
        return
    raise AssertionError("short read accepted")


def _flaky(fails, then=7):
    """A source whose first `fails` reads raise OSError (as os.urandom can), then give bytes."""
    left = [fails]

    def source(n):
        if left[0]:
            left[0] -= 1
            raise OSError(5)
        return bytes([then] * n)

    return source


def test_a_failing_read_of_the_source_is_retried():
    d = rng.Dice(_flaky(2))
    assert d.face() == 2 and d.failures == 2


def test_a_source_that_keeps_failing_is_a_start_up_failure():
    try:
        rng.Dice(_flaky(3))
    except rng.RandomSourceError as e:
        assert "failed 3 times" in str(e)
        return
    raise AssertionError("a dead source was accepted")


def test_a_failure_at_idle_keeps_the_pool_and_a_roll_that_needs_bytes_raises():
    calls = [0]

    def source(n):
        calls[0] += 1
        if calls[0] > 1:
            raise OSError(5)
        return bytes([7] * n)

    d = rng.Dice(source, pool=8)
    for _ in range(6):
        d.face()
    d.top_up()  # fails three times: counted, the two bytes left still roll
    assert d.failures == 3 and d.face() == 2 and d.face() == 2
    try:
        d.face()
    except rng.RandomSourceError:
        return
    raise AssertionError("a face without a random source")


def test_seeded_bytes_repeat_for_the_same_seed():
    a = rng.SeededBytes(42)(64)
    b = rng.SeededBytes(42)(64)
    assert a == b and a != rng.SeededBytes(43)(64)


def test_chi_square_of_many_rolls_from_os_urandom():
    d = rng.Dice()
    n = 60000
    tally = [0] * 7
    for _ in range(n):
        tally[d.face()] += 1
    e = n / 6
    chi2 = 0.0
    for f in range(1, 7):
        chi2 += (tally[f] - e) ** 2 / e
    # 5 degrees of freedom: P(chi2 > 20.52) = 0.001
    assert chi2 < 20.52, tally


def test_scripted_faces_refuse_impossible_faces():
    try:
        rng.ScriptedFaces([1, 7])
    except ValueError:
        return
    raise AssertionError("face 7 accepted")
