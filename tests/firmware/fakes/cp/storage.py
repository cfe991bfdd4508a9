"""Fake CircuitPython `storage`: records remounts."""
import fakehw


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    fakehw.remounts.append((mount_path, readonly))
