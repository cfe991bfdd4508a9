"""CircuitPython boot logic: remount / writable by code unless the boot button is held."""
import board
import digitalio

from fdfw import profile


def boot(storage):
    """Returns True if / was remounted writable for the game, False if left to USB."""
    try:
        prof = profile.load(profile.configured_name())
        name = profile.button_pin(prof, prof.BOOT_BUTTON)[0]
        p = getattr(board, name, None)
        if p is None:
            raise profile.ProfileError("this board has no pin board." + name)
    except profile.ProfileError as e:
        print("fivedice boot: " + str(e) + "; drive left writable over USB, no saves")
        return False
    btn = digitalio.DigitalInOut(p)
    btn.switch_to_input(pull=digitalio.Pull.UP)
    held = not btn.value
    btn.deinit()
    if held:
        print("fivedice boot: " + prof.BOOT_BUTTON + " held: drive writable over USB, the game will not save")
        return False
    try:
        storage.remount("/", readonly=False)
    except (RuntimeError, OSError) as e:
        print("fivedice boot: could not remount / for saves (" + str(e) + ")")
        return False
    print("fivedice boot: / writable by the game (hold " + prof.BOOT_BUTTON + " at reset to edit files over USB)")
    return True
