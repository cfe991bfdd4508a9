"""Every rule set's strategy table, decoded state by state against a fresh solve (make check-tables).

    python tests/bench/bench_tables.py [rule ids...]      (default: all six; 4-6 minutes on 2 shared cores)

For each rule set: solve, encode (format FDT3), then read every reachable state back through the device
reader (fivedice.strategy_table, the same code the board runs) and compare with the solver's value rounded
to the table's 16-bit fixed point: the format must be lossless. Prints the table size, bytes per state,
the FDT2 size it replaces, the size goal of issue #10 and the reader's CPython time per state.
make test covers the small tables, Yahtzee and 5 of a Kind free (tests/test_solver*.py); this covers the rest.
Exit status 1 if a value differs or a table misses its size goal.
"""
import os
import sys
import time

sys.path[:0] = [os.path.join(os.path.dirname(__file__), "..", ".."), os.path.join(os.path.dirname(__file__), "..", "host"),
                os.path.join(os.path.dirname(__file__), "..", "support"),
                os.path.join(os.path.dirname(__file__), "..", "..", "lib")]

from fivedice import rules  # noqa: E402
from fivedice import strategy_table as st  # noqa: E402
from host_sim.solver import core, tablefile  # noqa: E402
from test_solver import check_every_state  # noqa: E402

# issue #10's goals: Yahtzee / 5 of a Kind <= 640 KB, Yum and Yatzy <= 1.25 MB (taken as 1,250,000 bytes)
GOAL = {"yahtzee": 640 * 1024, "fiveok_forced": 640 * 1024, "fiveok_free": 640 * 1024, "yum": 1250000,
        "yatzy": 1250000}


def fdt2_size(rs, states):
    body = 6 * (1 << (rs.n - 6)) + 4 * 64 + 64 * st.udim(rs) + 2 * states
    return 48 + body + 4 * -(-body // 512)


def main(ids):
    bad = 0
    print("%-14s %10s %9s %8s %11s %11s %9s %8s" % ("rule set", "bytes", "states", "B/state", "FDT2 bytes", "goal",
                                                     "decode", "us/state"))
    for rid in ids:
        rs = rules.get(rid)
        md, E, _ = core.solve(rs)
        data = tablefile.encode(md, E)
        t0 = time.time()
        try:
            n = check_every_state(md, E, data)
            ok = "ok"
        except AssertionError as e:
            n = md.state_count()
            ok = "FAILED: %s" % e
            bad += 1
        dt = time.time() - t0
        goal = GOAL.get(rid)
        if goal and len(data) > goal:
            ok += ", over the size goal"
            bad += 1
        print("%-14s %10d %9d %8.3f %11d %11s %9s %8.1f" % (rid, len(data), n, len(data) / n, fdt2_size(rs, n),
                                                           goal or "-", ok, dt * 1e6 / n))
        sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or list(rules.IDS)))
