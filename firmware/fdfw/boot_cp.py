"""CircuitPython boot logic for an older fivedice's boot.py, which runs `from fdfw.boot_cp import
boot; boot(storage)`: no remount. Saves go to microcontroller.nvm, so CIRCUITPY stays writable over
USB (and read-only to code) at every reset; no button needs holding to copy new files. fivedice
ships no boot.py (with one, CircuitPython waits 1 s at boot whenever boot_out.txt's text changes);
deploy-cp removes that one."""


def boot(storage):
    """Returns False: / is never remounted writable by code (storage is not used)."""
    print("fivedice boot: CIRCUITPY stays writable over USB; the game saves to microcontroller.nvm")
    return False
