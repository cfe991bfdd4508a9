"""MicroPython: the small run-time callables fdfw.setup_mp hands to the built board (hw.battery, hw.make_sleep,
hw.start_watchdog). They live here and not in the setup module because a function keeps its module's globals,
hence the whole module, in the heap: fdfw.loop drops fdfw.setup_mp once the board is built, this module stays
while the game runs. Keep it small.
"""


def battery(read, div):
    """hw.battery: the supply in mV from read() (ADC.read_u16) behind a 1/div divider."""
    from fivedice.power import read_mv

    def mv():
        return read_mv(read(), div)

    return mv


def light_sleep(machine, hw):
    """hw.make_sleep: light sleep until a button, machine.lightsleep in bounded slices (fdfw.sleep_mp.MPSleep)."""

    def make(buttons, feed):
        ring = getattr(buttons, "_ring", None)
        if ring is None:
            return None
        from fdfw.sleep_mp import MPSleep

        return MPSleep(getattr(machine, "lightsleep", None), hw.sleep_ms, ring, feed).sleep

    return make


def watchdog_start(machine, hw):
    """hw.start_watchdog(ms): a machine.WDT as hw.watchdog."""

    def start(ms):
        hw.watchdog = machine.WDT(timeout=ms)
        hw.watchdog_ms = ms
        return hw.watchdog

    return start
