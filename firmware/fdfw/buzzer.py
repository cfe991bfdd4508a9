"""A passive piezo on a PWM pin, with the tone(freq_hz, ms) / off() protocol of
fivedice.sounds.Sounder.

tone() sets the frequency and a 50 % duty and returns at once; off() sets duty 0. Sounder times the
notes.
"""


class CPBuzzer:
    """CircuitPython: pwm is pwmio.PWMOut(pin, duty_cycle=0, frequency=440,
    variable_frequency=True); enable: a DigitalInOut output switching the speaker's amplifier (the
    MacroPad's SPEAKER_ENABLE), on only while a tone plays, or None."""

    def __init__(self, pwm, enable=None):
        self._pwm = pwm
        self._en = enable
        if enable is not None:
            enable.value = False

    def tone(self, freq, ms):
        self._pwm.frequency = freq
        self._pwm.duty_cycle = 32768
        if self._en is not None:
            self._en.value = True

    def off(self):
        self._pwm.duty_cycle = 0
        if self._en is not None:
            self._en.value = False


class MPBuzzer:
    """MicroPython: pwm is machine.PWM(Pin(n))."""

    def __init__(self, pwm):
        self._pwm = pwm
        pwm.duty_u16(0)

    def tone(self, freq, ms):
        self._pwm.freq(freq)
        self._pwm.duty_u16(32768)

    def off(self):
        self._pwm.duty_u16(0)
