"""MicroPython entry point: the board runs this file after boot (see hardware/README.md)."""
from fdfw.start import main


def run(max_iters=0, on_iter=None, save_path="/fivedice.sav", tables_dir="/tables"):
    return main("mp", max_iters, on_iter, save_path, tables_dir)


if __name__ == "__main__":
    run()
