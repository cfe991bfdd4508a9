"""Power cuts at every byte and step of every save, on every store (tests/firmware/fakes/powercut.py).

    make bench-powercut
Prints what each save writes and how often the nvm sector is erased (delta records and
compaction at game boundaries), then, per store, the cut points tried and the failures (a boot that does
not resume the newest complete state, or a store that no longer saves afterwards), for one cut and for two
cuts in a row; the same for the file store before records (old-lfs, old-fat: the harness's control); and
every cut point of app-like games (saves, records, compaction) on the nvm store. The nvm store before delta
records (6415efe): run this file at b8900b1 (docs/testing.md, "Before figures"). The nvm
stores' failures inside the RP2040 sector erase-and-rewrite are printed apart (see firmware/fdfw/store/__init__.py).
Exit status 1 if any store of today's firmware has a failure outside that window.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tests", "firmware", "fakes"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "lib")]

import powercut  # noqa: E402

# W25Q16JV (the Pico's flash) datasheet, AC characteristics: sector erase (4 KB) 45 ms typical, 400 ms max;
# page program (256 bytes) 0.4 ms typical, 3 ms max. CircuitPython's rewrite erases the sector and programs
# all 16 pages; what the store keeps sits in the first page or two, so that is when the window closes.
T_SE = (45.0, 400.0)
T_PP = (0.4, 3.0)


def window_ms(pages):
    return tuple(T_SE[i] + pages * T_PP[i] for i in (0, 1))


def wear():
    print("wear per save, unrelated saves (every byte changes: no delta is smaller, full records):")
    for kind in ("nvm",):
        for ln, prog, erases in powercut.wear(kind):
            print("  %-8s %3d-byte save: %5.1f bytes programmed, %.4f sector erases (1 per %.0f saves)"
                  % (kind, ln, prog, erases, 1 / erases))
    for kind in ("lfs", "fat", "old-lfs", "old-fat"):
        for ln, written, steps, by in powercut.wear(kind):
            print("  %-8s %3d-byte save: %5.1f bytes written, %.0f file-system steps (%s)"
                  % (kind, ln, written, steps, ", ".join("%s %.0f" % kv for kv in sorted(by.items()))))
    print("app-like games (game_ops: saves as fivedice.app makes them), 30 games each:")
    for players in (1, 2, 4):
        for kind, compact, what in (("nvm", False, "deltas, rewrite when full"),
                                    ("nvm", True, "deltas + records + compaction at game boundaries")):
            saves, mid, edge, prog = powercut.game_wear(kind, players, 30, compact)
            print("  %d player%s %-50s %5.1f bytes/save, %3d erases (%2d mid-game, %2d at a boundary): 1 per %3.0f saves"
                  % (players, "s" if players > 1 else " ", what, prog / saves, mid + edge, mid, edge,
                     saves / max(1, mid + edge)))
    app_traces()
    for pages in (1, 2, 16):
        lo, hi = window_ms(pages)
        print("rewrite window, sector erase + %2d page programs: %.1f ms typical, %.0f ms at most (datasheet)"
              % (pages, lo, hi))


def app_traces():
    """The real app's saves: whole games of CPU seats in the simulator (host_sim), replayed 10 times
    through the nvm store (saves only: no records, no compaction)."""
    sys.path.insert(0, ROOT)
    from fakeflash import FakeNvm
    from fdfw.store.nvm_cp import NvmStore

    from fivedice.rng import Dice, SeededBytes
    from host_sim.device import SimDevice
    from host_sim.play import Player

    class Keep:
        def __init__(self):
            self.saves = []

        def read(self):
            return None

        def write(self, d):
            self.saves.append(bytes(d))

    print("the app's own saves (a whole CPU game in the simulator, replayed 10 times):")
    for players, rules_i in ((1, 0), (2, 0), (4, 0), (2, 5)):
        keep = Keep()
        dev = SimDevice(store=keep, dice=Dice(SeededBytes(players + rules_i)), cpu_step_ms=50, mute=True)
        Player(dev).setup(rules_i, players, cpu_seats=tuple(range(1, players + 1)))
        t = 0
        while not dev.app.session.game.over and t < 3000000:
            dev.step()
            t += 5
        line = "  %d player%s %-8s %3d saves of %2d bytes:" % (players, "s" if players > 1 else " ",
                                                               dev.app.session.game.rs.id, len(keep.saves), len(keep.saves[-1]))
        for cls in (NvmStore,):
            m = FakeNvm(4096)
            st = cls(m)
            for _ in range(10):
                for p in keep.saves:
                    st.write(p)
            n = 10 * len(keep.saves)
            line += "  %s %5.1f bytes/save, 1 erase per %3.0f saves" % (
                "nvm", m.programmed / n, n / max(1, m.erases))
        print(line)


if __name__ == "__main__":
    wear()
    t = time.time()
    results = powercut.full()
    print("120 unrelated saves (60-120 bytes) per store; two cuts in a row: every pair of cut points of saves"
          " 0-2 and around the first nvm rewrite, and the save after each")
    got = powercut.games(players=2, ngames=3)
    got += powercut.games(players=1, ngames=3)
    got += powercut.games(kinds=("nvm",), players=4, ngames=1)  # a 4-player game fills the log: a rewrite mid-game
    results += [g[0] for g in got]
    bad = [r for r in results if "old" not in r.kind and r.failures]
    total = sum(r.tried for r in results if "old" not in r.kind)
    print("today's stores: %d cut points tried, %d failures outside the nvm rewrite window (%.0f s)"
          % (total, sum(r.failures for r in bad), time.time() - t))
    for r in bad:
        print("first failure on %s at %s" % (r.kind, r.first))
    sys.exit(1 if bad else 0)
