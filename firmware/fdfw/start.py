"""Start-up, shared by code.py (CircuitPython) and main.py (MicroPython): board profile -> hardware
-> the app's module -> button reader. fdfw.loop drops this module, with the profile, the setup
module, fdfw.hardware (the built board's record and the setup modules' helpers) and board_config
(fivedice.lazy "startup"), once the board is built: its code does not stay in the heap while the
game runs.
"""
from fdfw.hardware import StartupError


def signal_failure(hw):
    """Red pixels and three low beeps: the board's way to say 'look at the serial console'."""
    if hw is None:
        return
    px = hw.pixels
    if px is not None:
        for i in range(hw.pixel_count):
            px[i] = 0x300000  # a dim red
        px.show()
    bz = hw.buzzer
    sleep = hw.sleep_ms
    if bz is not None and sleep is not None:
        for _ in range(3):
            bz.tone(220, 150)
            sleep(150)
            bz.off()
            sleep(100)


def build(runtime, save_path, say):
    """(hw, the fivedice.app module, the button reader, the profile's NAME) for runtime "cp" or
    "mp"; else the status word of why it could not start ("bad-profile", "no-display", "no-app",
    ...), said on the console."""
    from fdfw import profile

    try:
        prof = profile.load(profile.configured_name())
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"
    if not profile.runs_on(prof, runtime):
        say(
            "the "
            + prof.NAME
            + " profile runs on "
            + " and ".join(["CircuitPython" if r == "cp" else "MicroPython" for r in prof.RUNTIMES])
            + " only: install that"
        )
        return "bad-profile"
    # The app's code first, then the drivers: the big imports load onto a clean heap, and the
    # long-lived driver objects do not end up scattered between their leftovers. Before it, the
    # rarely used screens once, so that what their imports leave for good lies under the game's code
    # (intern_rare).
    why = None
    try:
        import gc

        from fivedice.screens import intern_rare

        if runtime == "mp":
            # MicroPython's firmware holds half CircuitPython's names, so the game's pass 1,260
            # while the App is built, after the coaches' arrays, and the next qstr pool is one
            # 7.7 KB block (docs/memory.md). The good CPU's names first move that point 17 names
            # earlier: with a 64 KB ballast start-up then passes, and fails without
            from fivedice import lazy

            lazy.load("good")
            lazy.drop("good")
        intern_rare()
        gc.collect()  # their room, for the game's code
        import fivedice.app as appmod
    except ImportError as e:
        why = str(e)
    if runtime == "cp":
        from fdfw import setup_cp as setup
    else:
        from fdfw import setup_mp as setup
    try:
        hw = setup.build(prof, save_path)
    except StartupError as e:
        say(e.message)
        signal_failure(e.hw)
        return e.status
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"

    if why is not None:
        say("cannot import fivedice.app (" + why + "): copy lib/fivedice to the board's /lib")
        signal_failure(hw)
        return "no-app"
    ids = [getattr(appmod, "B_" + name) for name in hw.button_names]
    buttons = reader(hw.button_inputs, ids)
    if hw.encoder is not None:  # the MacroPad's knob: its detents are UP/DOWN presses
        from fdfw.encoder import Keys

        buttons = Keys(buttons, hw.encoder, appmod.B_UP, appmod.B_DOWN)
    return hw, appmod, buttons, prof.NAME


def reader(inputs, ids):
    """The buttons' reader for hw.button_inputs: on a keypad.Keys fdfw.keys_cp' alone (fdfw.buttons'
    other readers are never loaded: their code would be heap), else fdfw.buttons.make's."""
    if hasattr(inputs, "events"):
        from fdfw.keys_cp import KeypadButtons

        return KeypadButtons(inputs, ids)
    from fdfw import buttons

    return buttons.make(inputs, ids)
