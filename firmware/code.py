"""CircuitPython entry point: the board runs this file at reset (see hardware/README.md)."""
from fdfw.loop import main

if __name__ == "__main__":
    main("cp")
