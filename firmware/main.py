"""MicroPython entry point: the board runs this file after boot (see hardware/README.md)."""
from fdfw.loop import main

if __name__ == "__main__":
    main("mp")
