"""A passive piezo on a PWM pin, with the tone(freq_hz, ms) / off() protocol of fivedice.sounds.Sounder.

tone() sets the frequency and a 50 % duty and returns at once; off() sets duty 0. Sounder times the notes.
"""


class CPBuzzer:
    """CircuitPython: pwm is pwmio.PWMOut(pin, duty_cycle=0, frequency=440, variable_frequency=True)."""

    def __init__(self, pwm):
        self._pwm = pwm

    def tone(self, freq, ms):
        self._pwm.frequency = freq
        self._pwm.duty_cycle = 32768

    def off(self):
        self._pwm.duty_cycle = 0


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
