"""The order tests are handed to `make test`'s 2 workers (pytest-xdist, --dist worksteal) in.

worksteal gives each worker one contiguous block of the collection, then lets an idle worker take half of the
other's queue. The long tests (a whole game on the MicroPython port over the CircuitPython fakes is 10-30 s of
CPU, a full solve 15-30 s) are dealt alternately to the front of each block, so both workers start on them
and none of them starts last, when the other worker has nothing left to share. Without workers (plain
pytest) the order is the collection's.
"""
import os
import sys

# fivedice.lazy drops a module after use and the next use imports it again, as on a board: the nvm store's log
# walk (fdfw.store.nvm_scan_cp) is imported anew at every simulated boot, 11,000 times in a power-cut test. Where
# PYTHONDONTWRITEBYTECODE is set, each of those imports compiled the source again (3 ms); the bytecode is
# cached under build/ instead (the tree stays clean; a fresh clone's first import writes it).
sys.dont_write_bytecode = False
sys.pycache_prefix = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "pycache")

LONG = ("test_board_heap.py", "test_solver_anchors.py")  # the files whose tests take tens of seconds each


def pytest_collection_modifyitems(config, items):
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        return
    long = [it for it in items if it.path.name in LONG]
    rest = [it for it in items if it.path.name not in LONG]
    blocks = [long[w::workers] for w in range(workers)]
    # worksteal's first split: worker w gets len // (workers - w) of what is left, in order
    left = len(items)
    for w in range(workers):
        size = left // (workers - w)
        take = max(0, size - len(blocks[w]))
        blocks[w] += rest[:take]
        del rest[:take]
        left -= len(blocks[w])
    blocks[-1] += rest
    items[:] = [it for b in blocks for it in b]
