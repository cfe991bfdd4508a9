"""The saved game as one file on the board's flash, with the store protocol of fivedice.app.App:
read() -> bytes or None, write(data), and set_aside() for a save the app cannot read.

A write goes to `<path>.tmp` first and is then renamed over the save, so a power cut mid-write
leaves the old save (or the complete new one in .tmp, which read() falls back to).
A failed write (CircuitPython's drive is read-only to code unless boot.py remounted it) prints one
plain line, the first time, and raises OSError, which the app shows as "save failed".
set_aside() renames an unreadable save to `<path>.bad` so no later write destroys it.
"""
import os


class FileStore:
    def __init__(self, path):
        self.path = path
        self._tmp = path + ".tmp"
        self.error = None
        self.writes = 0

    def read(self):
        for p in (self.path, self._tmp):
            try:
                with open(p, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            if data:
                return data
        return None

    def write(self, data):
        try:
            with open(self._tmp, "wb") as f:
                f.write(data)
            _replace(self._tmp, self.path)
        except OSError as e:
            if self.error is None:
                self.error = "cannot save the game to " + self.path + " (" + _why(e) + ")"
                print("fivedice: " + self.error)
            raise
        self.writes += 1

    def set_aside(self):
        """Keep an unreadable save as <path>.bad (replacing an older .bad)."""
        try:
            _replace(self.path, self.path + ".bad")
        except OSError:
            pass


def _replace(src, dst):
    os.stat(src)  # a missing src raises here, before dst could be removed for nothing
    try:
        os.rename(src, dst)
    except OSError:  # FAT (CircuitPython) will not rename over an existing file
        os.remove(dst)
        os.rename(src, dst)


def _why(e):
    code = e.args[0] if e.args else 0
    if code == 30:  # EROFS
        return "the drive is read-only to code: on CircuitPython, reset without holding the boot button"
    if code == 28:  # ENOSPC
        return "the flash is full"
    return "OSError " + str(code)
