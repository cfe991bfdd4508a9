"""The start-up half of fdfw.start: board profile -> hardware -> fivedice.app -> button reader. Loaded for
start-up only; fdfw.start drops it (with the profile, the setup module and board_config) once the board is
built, so its code does not stay in the heap while the game runs.
"""
from fdfw.hw import StartupError, signal_failure


def build(runtime, save_path, say):
    """(hw, the fivedice.app module, the button reader, the profile's NAME) for runtime "cp" or "mp"; else the
    status word of why it could not start ("bad-profile", "no-display", "no-app", ...), said on the console."""
    from fdfw import profile

    try:
        prof = profile.load(profile.configured_name())
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"
    # The app's code first, then the drivers: the big imports load onto a clean heap, and the
    # long-lived driver objects do not end up scattered between their leftovers. Before it, the rarely used
    # screens once, so that what their imports leave for good lies under the game's code (intern_rare).
    why = None
    try:
        import gc

        from fivedice.screens import intern_rare

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
    from fdfw import buttons as buttons_mod

    return hw, appmod, buttons_mod.make(hw.button_inputs, ids), prof.NAME
