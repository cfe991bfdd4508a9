"""CircuitPython boot.py: leaves the CIRCUITPY drive as it is, writable by the computer over USB.

The game saves to the microcontroller's nvm (fdfw/store/nvm.py, NvmStore), not to a file, so nothing is
remounted: the computer can always copy new files, and no button has to be held at reset.
Firmware before nvm saves had a boot.py that remounted the drive writable by code; deploying this file
over it ends that. On MicroPython this file does nothing (and `make deploy-mp` does not copy it).
"""
try:
    import storage
except ImportError:
    storage = None

if storage is not None:
    from fdfw.boot_cp import boot

    boot(storage)
