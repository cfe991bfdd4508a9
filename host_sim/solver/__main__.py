"""Build the device strategy tables: python -m host_sim.solver [--out DIR] [--workers N] [rule ids...]"""
import argparse
import os
import sys
import time

from fivedice import rules
from host_sim.solver import core, tablefile


def main(argv=None):
    ap = argparse.ArgumentParser(prog="fivedice solve", description=__doc__)
    ap.add_argument("ids", nargs="*", help="rule set ids (default: all)")
    ap.add_argument("--out", default="tables")
    ap.add_argument("--workers", type=int, default=None)
    a = ap.parse_args(argv)
    ids = a.ids or list(rules.IDS)
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    print("%-14s %12s %9s %10s %8s  %s" % ("rule set", "E(start)", "states", "bytes", "solve s", "file"))
    for rid in ids:
        rs = rules.get(rid)
        md, E, dt = core.solve(rs, workers=a.workers, progress=sys.stderr)
        path = os.path.join(a.out, rid + ".fdt")
        size = tablefile.write(path, md, E)
        n = md.state_count()
        print("%-14s %12.6f %9d %10d %8.2f  %s" % (rid, core.start_value(md, E), n, size, dt, path))
        sys.stdout.flush()
    print("all tables in %.1f s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
