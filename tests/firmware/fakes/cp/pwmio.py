"""Fake CircuitPython `pwmio.PWMOut`: logs (gpio, frequency, duty) on every duty change."""
import fakehw


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        fakehw.claim(pin.gpio, "PWMOut")
        self.gpio = pin.gpio
        self._freq = frequency
        self._var = variable_frequency
        self._duty = duty_cycle

    def deinit(self):
        fakehw.free(self.gpio)

    @property
    def frequency(self):
        return self._freq

    @frequency.setter
    def frequency(self, f):
        if not self._var:
            raise AttributeError("Cannot change frequency: PWMOut was not created with variable_frequency=True")
        self._freq = f

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, d):
        if not 0 <= d <= 65535:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = d
        fakehw.pwm_log.append((self.gpio, self._freq, d))
