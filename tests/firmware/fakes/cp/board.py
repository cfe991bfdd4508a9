"""Fake CircuitPython `board`: the Pico's GPn names and the Feather RP2040's names, by RP2040 GPIO; with
fakehw.board[0] = "macropad" instead the MacroPad RP2040's names (CircuitPython 10's adafruit_macropad_rp2040
pins.c) and its board.DISPLAY (None once displayio.release_displays() ran, as on the board).

On a board `board` is C and its pins cost no heap; here each pin object is made the first time a
name is asked for (a module __getattr__, on CPython and MicroPython alike), and names of the same
GPIO share one object as on the real board, so the heap proxy (tests/bench/cp_heap.py) counts only
the pins the firmware touches.
"""
import fakehw
from microcontroller import Pin


_FEATHER = {"TX": 0, "RX": 1, "D0": 0, "D1": 1, "SDA": 2, "SCL": 3, "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10,
            "D11": 11, "D12": 12, "D13": 13, "LED": 13, "NEOPIXEL": 16, "SCK": 18, "MOSI": 19, "MISO": 20,
            "D24": 24, "D25": 25, "A0": 26, "A1": 27, "A2": 28, "A3": 29}
_made = {}


_PICO = {"VOLTAGE_MONITOR": 29, "SMPS_MODE": 23, "VBUS_SENSE": 24}  # the Pico's own signals (not on the header)


# the MacroPad's pins.c: KEY1..KEY12 = GPIO1..12, and these
_MACROPAD = {"LED": 13, "SPEAKER_ENABLE": 14, "SPEAKER": 16, "ENCODER_SWITCH": 0, "BUTTON": 0, "ENCODER_A": 17,
             "ROTA": 17, "ENCODER_B": 18, "ROTB": 18, "NEOPIXEL": 19, "SDA": 20, "SCL": 21, "OLED_CS": 22,
             "OLED_RESET": 23, "OLED_DC": 24, "SCK": 26, "MOSI": 27, "MISO": 28}


def _gpio(name):
    if fakehw.board[0] == "macropad":
        if name.startswith("KEY") and name[3:].isdigit() and 1 <= int(name[3:]) <= 12:
            return int(name[3:])
        return _MACROPAD.get(name, -1)
    if name in _FEATHER:
        return _FEATHER[name]
    if name in _PICO:
        return _PICO[name]
    if name.startswith("GP") and name[2:].isdigit() and int(name[2:]) < 30:
        return int(name[2:])
    return -1


_buses = {}


def _bus(name):
    import busio

    def make():
        key = "SPI" if name == "SPI" else "I2C"
        if key not in _buses:
            _buses[key] = (busio.SPI(__getattr__("SCK"), __getattr__("MOSI"), __getattr__("MISO")) if key == "SPI"
                           else busio.I2C(__getattr__("SCL"), __getattr__("SDA")))
        return _buses[key]

    return make


def __getattr__(name):
    if name == "board_id":
        return "adafruit_macropad_rp2040" if fakehw.board[0] == "macropad" else "fake_rp2040"
    if fakehw.board[0] == "macropad":
        if name == "DISPLAY":
            return fakehw.board_display[0]
        if name in ("I2C", "STEMMA_I2C", "SPI"):  # the board's default buses, made at the first call
            return _bus(name)
    g = _gpio(name)
    if g < 0:
        raise AttributeError("'module' object has no attribute '%s'" % name)
    p = _made.get(g)
    if p is None:
        p = _made[g] = Pin(g, name)
    return p
