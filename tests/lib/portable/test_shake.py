"""Shake detection on recorded-style sample streams (runs on CPython and MicroPython).

Switch streams are the times (ms, relative) at which the tilt switch toggles, polled
every 5 ms; accelerometer streams are 100 Hz (x, y, z) milli-g samples.
"""
from fivedice.shake import AccelShake, SwitchShake
from fivedice.ticks import TICKS_MAX, ticks_add, ticks_diff, ticks_less

# --- tilt-switch streams --------------------------------------------------------
# A hand shake, ~4 strokes a second: each stroke end flips the ball (plus chatter).
SWITCH_SHAKE = [
    100, 103, 106,
    230, 232,
    350, 353, 355,
    480,
    610, 612,
    730, 734,
    860,
]
# One knock on the case: the contact rings for ~15 ms, then nothing.
SWITCH_KNOCK = [100, 102, 105, 109, 114]
# The table is bumped: a knock, the case rocks once more 80 ms later, then settles.
SWITCH_BUMP = [100, 103, 107, 180, 184]
# Two knocks half a second apart ("is this on?") - still not a shake.
SWITCH_TWO_KNOCKS = [100, 103, 600, 604]


def _long_switch_shake():
    t = []
    for i in range(40):  # 40 strokes, 110..140 ms apart, ~5 s
        base = 100 + i * 125 + (i % 3) * 10
        t.append(base)
        if i % 2:
            t.append(base + 3)
    return t


def run_switch(det, toggles, start=0, dur=2500, poll=5):
    """Poll det over dur ms; return (list of start times, list of stop times), relative."""
    starts = []
    stops = []
    level = 1  # pulled up at rest
    i = 0
    r = 0
    while r <= dur:
        while i < len(toggles) and toggles[i] <= r:
            level ^= 1
            i += 1
        det.update(level, (start + r) & TICKS_MAX)
        if det.started:
            starts.append(r)
        if det.stopped:
            stops.append(r)
        r += poll
    return starts, stops


def test_switch_shake_burst_starts_and_stops_once():
    starts, stops = run_switch(SwitchShake(), SWITCH_SHAKE)
    assert len(starts) == 1 and len(stops) == 1
    # the 4th counted edge is at 350 ms (100, 230, 350 ... counted: 100, 230, 350, 480)
    assert 350 <= starts[0] <= 485, starts
    # stops 400 ms after the last edge (860), to the next poll
    assert 1260 <= stops[0] <= 1265, stops


def test_single_knock_is_not_a_shake():
    det = SwitchShake()
    starts, stops = run_switch(det, SWITCH_KNOCK, poll=1)
    assert starts == [] and stops == []
    assert not det.shaking


def test_knock_chatter_is_what_the_gap_filters():
    # without the chatter gap the ringing of one knock would look like a burst
    starts, _ = run_switch(SwitchShake(min_gap_ms=0), SWITCH_KNOCK, poll=1)
    assert len(starts) == 1


def test_table_bump_is_not_a_shake():
    starts, _ = run_switch(SwitchShake(), SWITCH_BUMP)
    assert starts == []


def test_two_separate_knocks_are_not_a_shake():
    starts, _ = run_switch(SwitchShake(), SWITCH_TWO_KNOCKS)
    assert starts == []


def test_long_switch_shake_is_one_shake():
    det = SwitchShake()
    toggles = _long_switch_shake()
    starts, stops = run_switch(det, toggles, dur=toggles[-1] + 1000)
    assert len(starts) == 1 and len(stops) == 1
    assert stops[0] - toggles[-1] >= 400
    assert stops[0] - toggles[-1] < 410


def test_switch_shake_across_tick_wrap():
    start = TICKS_MAX - 300  # the clock wraps ~300 ms into the shake
    starts, stops = run_switch(SwitchShake(), SWITCH_SHAKE, start=start)
    assert len(starts) == 1 and len(stops) == 1
    assert 1260 <= stops[0] <= 1265


def test_first_switch_sample_is_not_an_edge():
    det = SwitchShake(edges=1, window_ms=100)
    det.update(0, 0)  # switch happens to rest closed: no edge
    assert not det.shaking and not det.started
    det.update(1, 5)
    assert det.shaking and det.started


def test_started_and_stopped_last_one_update():
    det = SwitchShake(edges=2, window_ms=100, min_gap_ms=0, holdoff_ms=50)
    det.update(1, 0)
    det.update(0, 10)
    det.update(1, 20)
    assert det.started and det.shaking
    det.update(1, 30)
    assert not det.started and det.shaking
    det.update(1, 70)
    assert det.stopped and not det.shaking
    det.update(1, 80)
    assert not det.stopped and not det.shaking


def test_edges_spread_wider_than_window_do_not_start():
    det = SwitchShake(edges=4, window_ms=700, min_gap_ms=25)
    starts, _ = run_switch(det, [100, 400, 700, 1000, 1300], dur=2000)
    assert starts == []


def test_switch_reset_forgets_a_shake():
    det = SwitchShake()
    run_switch(det, SWITCH_SHAKE, dur=700)
    assert det.shaking
    det.reset()
    assert not det.shaking and not det.started and not det.stopped


# --- accelerometer streams (100 Hz, milli-g) ------------------------------------
REST = (0, 0, 1000)
# one stroke cycle of a hand shake along x, ~6 Hz, peaks 2.6 g
SHAKE_CYCLE_X = [0, 900, 1700, 2300, 2600, 2300, 1700, 900, 0, -900, -1700, -2300, -2600, -2300, -1700, -900]
# a knock: one sharp spike, the case rings for 30 ms
KNOCK = [(0, 0, 3500), (0, 0, -300), (0, 0, 2100), (0, 0, 1300)]
# a table bump: a spike, the device hops and lands 90 ms later, settles
BUMP = [(200, 0, 2900), (0, 0, 1200), (0, 0, 800)] + [REST] * 6 + [(0, 100, 2400), (0, 0, 1100)]


def accel_stream(shake_cycles=0, events=None, lead=20, tail=80):
    """A list of samples: lead rest samples, then shake cycles or the event list, then rest."""
    out = [REST] * lead
    for _ in range(shake_cycles):
        for x in SHAKE_CYCLE_X:
            out.append((x, 150, 1000))
    if events:
        out.extend(events)
    out.extend([REST] * tail)
    return out


def run_accel(det, samples, start=0, period=10):
    starts = []
    stops = []
    for i in range(len(samples)):
        s = samples[i]
        r = i * period
        det.update_accel(s[0], s[1], s[2], (start + r) & TICKS_MAX)
        if det.started:
            starts.append(r)
        if det.stopped:
            stops.append(r)
    return starts, stops


def test_accel_shake_burst_starts_and_stops_once():
    samples = accel_stream(shake_cycles=4)
    starts, stops = run_accel(AccelShake(), samples)
    assert len(starts) == 1 and len(stops) == 1
    # shake begins at 200 ms; 4 counted peaks need about 1.5 cycles (160 ms each)
    assert 200 < starts[0] < 200 + 2 * 160, starts
    last_over = 200 + (4 * 16 - 3) * 10  # last sample over 1.8 g
    assert 0 <= stops[0] - last_over - 350 <= 10, (stops, last_over)


def test_accel_single_knock_is_not_a_shake():
    det = AccelShake()
    starts, _ = run_accel(det, accel_stream(events=KNOCK))
    assert starts == [] and not det.shaking


def test_accel_table_bump_is_not_a_shake():
    starts, _ = run_accel(AccelShake(), accel_stream(events=BUMP))
    assert starts == []


def test_accel_resting_tilted_is_not_a_shake():
    tilted = [(700, 0, 714)] * 200  # lying on a slope: still 1 g
    starts, _ = run_accel(AccelShake(), tilted)
    assert starts == []


def test_accel_long_shake_is_one_shake():
    starts, stops = run_accel(AccelShake(), accel_stream(shake_cycles=25))
    assert len(starts) == 1 and len(stops) == 1


def test_accel_shake_across_tick_wrap():
    samples = accel_stream(shake_cycles=4)
    a = run_accel(AccelShake(), samples, start=TICKS_MAX - 250)
    b = run_accel(AccelShake(), samples, start=1000)
    assert a == b and len(a[0]) == 1


def test_accel_raw_counts_with_shift():
    # LIS3DH +-2 g, 16-bit left-justified: 16384 counts per g; shift 4 -> 1024 per g
    raw = []
    for s in accel_stream(shake_cycles=4):
        raw.append((s[0] * 16384 // 1000, s[1] * 16384 // 1000, s[2] * 16384 // 1000))
    starts, stops = run_accel(AccelShake(threshold_mg=1843, shift=4), raw)
    assert len(starts) == 1 and len(stops) == 1


def test_accel_magnitude_is_clamped_to_small_ints():
    det = AccelShake()
    det.update_accel(100000, -100000, 100000, 0)
    assert det.magnitude2 == 3 * 16383 * 16383
    assert det.magnitude2 < (1 << 30)


def test_accel_free_fall_floor_counts_when_enabled():
    toss = []
    for _ in range(8):
        toss.extend([(0, 0, 100)] * 3 + [REST] * 5)
    a, _ = run_accel(AccelShake(), accel_stream(events=toss))
    b, _ = run_accel(AccelShake(low_mg=300), accel_stream(events=toss))
    assert a == [] and len(b) == 1


# --- ticks ------------------------------------------------------------------------
def test_ticks_diff_is_wrap_safe():
    assert ticks_diff(5, TICKS_MAX - 4) == 10
    assert ticks_diff(TICKS_MAX - 4, 5) == -10
    assert ticks_add(TICKS_MAX, 1) == 0
    assert ticks_add(0, -1) == TICKS_MAX
    assert ticks_less(TICKS_MAX, 3)
    assert not ticks_less(3, TICKS_MAX)
    assert ticks_diff(1 << 27, 0) == 1 << 27


def test_ticks_add_refuses_huge_delta():
    try:
        ticks_add(0, 1 << 28)
    except OverflowError:
        return
    assert False, "no OverflowError"
