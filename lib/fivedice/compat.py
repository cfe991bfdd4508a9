"""Tiny shims so the same module runs on CPython, MicroPython and CircuitPython."""
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(x):
        return x


try:
    import micropython as _mp

    native = _mp.native  # decorator on ports that have the native emitter
except (ImportError, AttributeError):

    def native(f):
        return f
