"""Sound cues and the non-blocking Sounder (runs on CPython and MicroPython)."""
from fivedice import sounds
from fivedice.sounds import CUES, FIVE_KIND, LAND, REFUSED, ROLL, SCORE, Sounder
from fivedice.ticks import TICKS_MAX


class Buzzer:
    """Records what the Sounder does: ('tone', f, ms, t) and ('off', t)."""

    def __init__(self):
        self.log = []
        self.now = 0

    def tone(self, f, ms):
        self.log.append(("tone", f, ms, self.now))

    def off(self):
        self.log.append(("off", self.now))

    def tones(self):
        return [(e[1], e[2]) for e in self.log if e[0] == "tone"]


def run(snd, bz, start, dur, step=1):
    t = 0
    while t <= dur:
        bz.now = (start + t) & TICKS_MAX
        snd.update(bz.now)
        t += step


def test_cues_are_flat_pairs_of_positive_ints():
    assert len(CUES) == len(sounds.CUE_NAMES)
    for cue in CUES:
        assert len(cue) >= 2 and len(cue) % 2 == 0
        for i in range(0, len(cue), 2):
            f = cue[i]
            ms = cue[i + 1]
            assert f == 0 or 100 <= f <= 5000
            assert 5 <= ms <= 1000
        assert cue[0] != 0  # a cue starts with sound
        assert sounds.duration(cue) <= 1500


def test_play_sounds_first_note_at_once():
    bz = Buzzer()
    snd = Sounder(bz)
    assert snd.play(SCORE, 0)
    assert bz.log == [("tone", 523, 70, 0)]
    assert snd.playing and snd.cue is SCORE


def test_cue_plays_every_note_in_order_then_goes_quiet():
    bz = Buzzer()
    snd = Sounder(bz)
    snd.play(FIVE_KIND, 0)
    run(snd, bz, 0, 2000)
    want = []
    for i in range(0, len(FIVE_KIND), 2):
        if FIVE_KIND[i]:
            want.append((FIVE_KIND[i], FIVE_KIND[i + 1]))
    assert bz.tones() == want
    assert bz.log[-1][0] == "off"
    assert not snd.playing and snd.cue is None


def test_notes_keep_their_timing():
    bz = Buzzer()
    snd = Sounder(bz)
    bz.now = 1000
    snd.play(SCORE, 1000)
    run(snd, bz, 1000, 1000)
    starts = [e[3] for e in bz.log if e[0] == "tone"]
    assert starts == [1000, 1070, 1140]
    assert bz.log[-1] == ("off", 1270)


def test_rests_switch_the_buzzer_off():
    bz = Buzzer()
    snd = Sounder(bz)
    snd.play(LAND, 0)
    run(snd, bz, 0, 500)
    assert [e[0] for e in bz.log] == ["tone", "off", "tone", "off"]
    assert bz.log[1] == ("off", 40)


def test_coarse_polling_keeps_the_rhythm():
    bz = Buzzer()
    snd = Sounder(bz)
    snd.play(SCORE, 0)
    run(snd, bz, 0, 1000, step=10)
    starts = [e[3] for e in bz.log if e[0] == "tone"]
    assert starts == [0, 70, 140]


def test_mute_plays_nothing_and_silences_a_running_cue():
    bz = Buzzer()
    snd = Sounder(bz, mute=True)
    assert not snd.play(ROLL, 0)
    run(snd, bz, 0, 500)
    assert bz.log == []
    snd.mute = False
    snd.play(ROLL, 600)
    snd.mute = True
    assert bz.log[-1][0] == "off" and not snd.playing


def test_new_cue_interrupts_unless_told_not_to():
    bz = Buzzer()
    snd = Sounder(bz)
    snd.play(ROLL, 0)
    assert not snd.play(REFUSED, 5, interrupt=False)
    assert snd.cue is ROLL
    assert snd.play(FIVE_KIND, 6)
    assert snd.cue is FIVE_KIND and bz.log[-1] == ("tone", 523, 90, 0)


def test_callable_buzzer_gets_zero_for_silence():
    calls = []

    def buzz(f, ms):
        calls.append((f, ms))

    snd = Sounder(buzz)
    snd.play(LAND, 0)
    t = 0
    while t < 300:
        snd.update(t)
        t += 1
    assert calls == [(660, 40), (0, 0), (880, 70), (0, 0)]


def test_cue_across_tick_wrap():
    bz = Buzzer()
    snd = Sounder(bz)
    start = TICKS_MAX - 60
    bz.now = start
    snd.play(SCORE, start)
    run(snd, bz, start, 1000)
    assert len(bz.tones()) == 3
    assert bz.log[-1] == ("off", (start + 270) & TICKS_MAX)


def test_bad_buzzer_is_refused():
    try:
        Sounder(42)
    except TypeError:
        return
    assert False
