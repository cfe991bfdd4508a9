"""A stand-in for the `time` module where the firmware sleeps (setup_mp's time.sleep_ms, setup_cp's time.sleep):
sleeping moves the fake board's clock (fakehw.sleep_ms) instead of the test's wall clock. The tests put it in
place of the setup module's `time` global; everything else keeps the real module."""
import fakehw


def sleep_ms(ms):
    fakehw.sleep_ms(ms)


def sleep(s):
    fakehw.sleep_ms(int(s * 1000 + 0.5))


def monotonic():
    return fakehw.clock[0] / 1000
