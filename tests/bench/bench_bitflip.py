"""One bad bit or byte anywhere in a game's CircuitPython nvm log (tests/firmware/fakes/bitflip.py).

    make bench-bitflip            (or: python tests/bench/bench_bitflip.py [quick])
For whole app-like games of 1, 2 and 3 players (a compacted start, every save, the records), and the 2-player
game cut short at 16 points in a row (so the newest full record is at every distance from the end): every bit
of the log flipped in turn (the 2-player game; one bit per byte, which one turning with the byte, for the
others and in quick mode), and every byte inverted (eight bits wrong), each as a bit stuck in flash
(persistent) and as a misread of one boot (one-boot). Printed per store: flips tried, how many go back and how
far (saves older than the newest), how many resume nothing, lose the records, lose 2+ saves with no message,
say it twice, and the saves played after the flip's boot that the next boot loses, for
firmware/fdfw/store/nvm_cp.py (the store before, at 8902cd7: run this file at 462770d, docs/testing.md,
"Before figures"). Then what the full
records cost in flash (bytes per save, erases mid-game). Exit status 1 if the store today lets a bit flip go
back more than 8 saves, resume nothing, or lose what was played after it.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tests", "firmware", "fakes"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "lib")]

import bitflip  # noqa: E402
import powercut  # noqa: E402
from fdfw.store import nvm_cp as nvm_store  # noqa: E402

MAX_BACK = 8  # issue 23: no bit flip sends the board back more than 8 saves


def merge(into, f):
    if into is None:
        return f
    for k in ("flips", "lose", "total_back", "nothing", "rec_lost", "silent", "said_twice", "later", "later_flips"):
        setattr(into, k, getattr(into, k) + getattr(f, k))
    into.worst = max(into.worst, f.worst)
    return into


def main(quick=False):
    t = time.time()
    bad = []
    for label, cls in (("after", nvm_store.NvmStore),):
        for players in (1, 2, 3):
            for how in ("bits" if players == 2 and not quick else "bit", "byte"):
                figs, saves, n = bitflip.run(players, how, out=None, cls=cls)
                for f in figs:
                    print("%-6s %d player%s (%3d saves, %4d bytes) %s" % (label, players, "s" if players > 1 else " ",
                                                                        saves, n, f.line()))
                    if label == "after" and how.startswith("bit") and (f.worst > MAX_BACK or f.nothing or f.later):
                        bad.append(f.line())
        # the 2-player game cut short at 16 points in a row: the log as it stands mid-game
        for how in ("bit", "byte"):
            tot = [None, None]
            for upto in range(24, 40 if not quick else 28):
                figs, saves, n = bitflip.run(2, how, out=None, cls=cls, upto=upto)
                tot = [merge(tot[i], figs[i]) for i in (0, 1)]
            for f in tot:
                print("%-6s 2 players cut short after 24-%d saves: %s" % (label, 39 if not quick else 27, f.line()))
                if label == "after" and how.startswith("bit") and (f.worst > MAX_BACK or f.nothing or f.later):
                    bad.append(f.line())
    print("what the full records cost in flash (30 app-like games each, records and compaction at New game):")
    for players in (1, 2, 3, 4):
        line = "  %d player%s" % (players, "s" if players > 1 else " ")
        for label, cls in (("after", nvm_store.NvmStore),):
            saves, mid, edge, prog = powercut.game_wear("nvm", players, cls=cls)
            line += "  %s %.1f bytes/save, 1 erase per %3.0f saves, %2d mid-game" % (
                label, prog / saves, saves / max(1, mid + edge), mid)
        print(line)
    print("FULL_EVERY %d; %.0f s" % (nvm_store.FULL_EVERY, time.time() - t))
    for b in bad:
        print("FAILS: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(len(sys.argv) > 1 and sys.argv[1] == "quick"))
