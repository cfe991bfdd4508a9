"""The menu's values live in one Settings object: every setter applies the value and marks the save due, and the
save record's settings bytes (1-6) round-trip through it."""
from fivedice import power, save_check
from fivedice.settings import Settings
from fivedice.sounds import Sounder


def _settings():
    calls = []
    pw = power.Power(None)
    snd = Sounder(lambda hz: None)  # a buzzer may be a plain callable (fivedice.sounds)
    return Settings(pw, snd, lambda: calls.append(1)), pw, snd, calls


def test_every_setter_marks_the_save_due_and_applies_the_value():
    s, pw, snd, calls = _settings()
    s.set("rules_i", 3)
    s.set("players", 4)
    s.set_seat(2, 3)
    s.set("muted", True)
    s.set("dim_i", 1)
    s.set("sleep_i", 2)
    assert len(calls) == 6
    assert (s.rules_i, s.players, s.seats[2], s.muted) == (3, 4, 3, True)
    assert (pw.dim_i, pw.sleep_i, snd.mute) == (1, 2, True)


def test_the_settings_bytes_round_trip_without_marking_the_save_due():
    s, _, _, _ = _settings()
    s.set("rules_i", 5)
    s.set("players", 3)
    s.set_seat(0, 2)
    s.set("muted", True)
    s.set("sleep_i", 1)
    rec = bytearray(7)
    s.put(rec)
    assert save_check.settings_ok(rec)
    s2, pw2, snd2, calls2 = _settings()
    save_check.read_settings(s2, rec)
    assert calls2 == []
    assert (s2.rules_i, s2.players, bytes(s2.seats), s2.muted, s2.dim_i, s2.sleep_i) == (5, 3, b"\x02\x01\x01\x01", True, 0, 1)
    assert (pw2.sleep_i, snd2.mute) == (1, True)


def test_impossible_settings_bytes_are_refused():
    good = bytearray(b"\xa8\x00\x02\x00\x01\x01\x01")
    assert save_check.settings_ok(good)
    for i, v in ((1, 6), (2, 0), (2, 5), (2, 0x1A), (2, 0x62)):  # no rule set 6; 0 or 5 players; dim 3; sleep 3
        bad = bytearray(good)
        bad[i] = v
        assert not save_check.settings_ok(bad), (i, v)
