"""Power cuts at every byte and step of every save, on every store (tests/firmware_fakes/powercut.py).

    make bench-powercut
Prints, per store, the cut points tried and the failures (a boot that does not resume the newest complete
state, or a store that no longer saves afterwards), for one cut and for two cuts in a row; and the same
for the file store before records (old-lfs, old-fat) as the before figure. The nvm store's failures inside
the RP2040 sector erase-and-rewrite are printed apart (see firmware/fdfw/store.py).
Exit status 1 if any store of today's firmware has a failure outside that window.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tests", "firmware_fakes"), os.path.join(ROOT, "firmware")]

import powercut  # noqa: E402

def wear():
    print("wear per save (app saves of 37, 53, 85 bytes: 1, 2, 4 players):")
    for ln, prog, erases in powercut.wear("nvm"):
        print("  nvm      %3d-byte save: %5.1f bytes programmed, %.4f sector erases (1 per %.0f saves)"
              % (ln, prog, erases, 1 / erases))
    for kind in ("lfs", "fat", "old-lfs", "old-fat"):
        for ln, written, steps, by in powercut.wear(kind):
            print("  %-8s %3d-byte save: %5.1f bytes written, %.0f file-system steps (%s)"
                  % (kind, ln, written, steps, ", ".join("%s %.0f" % kv for kv in sorted(by.items()))))


if __name__ == "__main__":
    wear()
    t = time.time()
    results, comp, at = powercut.full()
    print("saves per store: 120 (payloads 60-120 bytes); nvm sector rewrites at saves %s" % comp)
    print("two cuts in a row: every pair of cut points of saves %s and the save after each" % at)
    bad = [r for r in results if not r.kind.startswith("old") and r.failures]
    total = sum(r.tried for r in results if not r.kind.startswith("old"))
    print("today's stores: %d cut points tried, %d failures (%.0f s)" % (total, sum(r.failures for r in bad),
                                                                         time.time() - t))
    for r in bad:
        print("first failure on %s at %s" % (r.kind, r.first))
    sys.exit(1 if bad else 0)
