"""Fake CircuitPython `board`: the Pico's GPn names and the Feather RP2040's names, by RP2040 GPIO."""
from microcontroller import Pin

board_id = "fake_rp2040"

for _n in range(30):
    globals()["GP%d" % _n] = Pin(_n, "GP%d" % _n)

_FEATHER = {"TX": 0, "RX": 1, "D0": 0, "D1": 1, "SDA": 2, "SCL": 3, "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10,
            "D11": 11, "D12": 12, "D13": 13, "LED": 13, "NEOPIXEL": 16, "SCK": 18, "MOSI": 19, "MISO": 20,
            "D24": 24, "D25": 25, "A0": 26, "A1": 27, "A2": 28, "A3": 29}
for _k, _v in _FEATHER.items():
    globals()[_k] = Pin(_v, _k)
