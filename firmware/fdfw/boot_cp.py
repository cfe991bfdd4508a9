"""CircuitPython boot logic: no remount. Saves go to microcontroller.nvm, so CIRCUITPY stays writable
over USB (and read-only to code) at every reset; no button needs holding to copy new files."""


def boot(storage):
    """Returns False: / is never remounted writable by code (storage is not used)."""
    print("fivedice boot: CIRCUITPY stays writable over USB; the game saves to microcontroller.nvm")
    return False
