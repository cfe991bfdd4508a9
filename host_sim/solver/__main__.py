"""Build the device strategy tables: python -m host_sim.solver [--out DIR] [--workers N] [rule ids...]"""
import os
import sys
import time

from fivedice import rules
from host_sim.cli import ArgParser, whole
from host_sim.solver import core, tablefile


def _refuse(ids, out, workers):
    """Why the command line cannot work, checked before minutes of solving (None: it can)."""
    for rid in ids:
        try:
            rules.get(rid)
        except ValueError as e:
            return str(e)
    if workers is not None and workers < 1:
        return "--workers must be 1 or more"
    try:
        os.makedirs(out, exist_ok=True)
    except FileExistsError:
        return "--out %s is a file, not a folder" % out
    except OSError as e:
        return "--out %s: cannot make the folder (%s)" % (out, e.strerror or e)
    if not os.path.isdir(out):
        return "--out %s is a file, not a folder" % out
    if not os.access(out, os.W_OK | os.X_OK):
        return "--out %s: the folder cannot be written" % out
    return None


def main(argv=None):
    ap = ArgParser(prog="fivedice solve", description=__doc__)
    ap.add_argument("ids", nargs="*", help="rule set ids (default: all): " + ", ".join(rules.IDS))
    ap.add_argument("--out", default="tables", help="folder for the <id>.fdt tables (made if missing)")
    ap.add_argument("--workers", type=whole, default=None)
    a = ap.parse_args(argv)
    ids = a.ids or list(rules.IDS)
    why = _refuse(ids, a.out, a.workers)
    if why:
        print("fivedice solve: %s" % why, file=sys.stderr)
        return 2
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
