"""The heap-lock harness shared by the MicroPython-only proofs in tests/heap_lock."""
import framebuf
import micropython


class Display(framebuf.FrameBuffer):
    """A 128x64 panel at the hardware boundary: the real framebuf, show() only counts."""

    def __init__(self):
        self.buf = bytearray(1024)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.shown = 0

    def show(self):
        self.shown += 1


def locked(fn):
    """Run fn() with the heap locked: 0 if it completed, 1 on MemoryError (it allocated), 2 on another error."""
    r = 0
    micropython.heap_lock()
    try:
        fn()
    except MemoryError:
        r = 1
    except Exception:
        r = 2
    finally:
        micropython.heap_unlock()
    return r


def assert_no_alloc(fn):
    """Warm fn up (first calls may intern or cache), then fail if a locked call allocates or errs."""
    fn()
    r = locked(fn)
    assert r != 1, "allocated under heap_lock"
    assert r == 0, "raised under heap_lock"
