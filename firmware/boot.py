"""CircuitPython boot.py: let the game save to flash, unless the boot button is held at reset.

CircuitPython's drive is writable either by the computer over USB or by code, not both. Without a
remount the game cannot save. Held at reset, the profile's BOOT_BUTTON (BACK) keeps the drive
writable from USB (to copy new files); the game then runs without saving. On MicroPython this
file does nothing (and `make deploy-mp` does not copy it).
"""
try:
    import storage
except ImportError:
    storage = None

if storage is not None:
    from fdfw.boot_cp import boot

    boot(storage)
