"""Solver stability: wall time and page faults of repeated table builds, each in a fresh process.

    .venv/bin/python tests/bench/bench_solver.py [--runs 6] [--env NAME=VALUE ...] [rule ids...]

Each run is `python -m host_sim.solver --out TMP ID` in its own process (as `make tables` runs it);
the figures are the process's wall time and the minor page faults of it and its workers
(resource.getrusage(RUSAGE_CHILDREN), a delta per run). Prints min / median / max per rule set and
the sha256 of every table so a change can be checked for byte-identical output. A benchmark, not a test.
"""
import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one_run(rid, out, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "host_sim.solver", "--out", out, rid], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.path.join(out, rid + ".fdt"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return dt, r1.ru_minflt - r0.ru_minflt, digest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ids", nargs="*", default=["yahtzee"])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE added to the solver's environment")
    a = ap.parse_args(argv)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "lib") + os.pathsep + ROOT
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    print("solver runs: %d per rule set, %s%s" % (a.runs, os.cpu_count(), " cores" + ("; env " + " ".join(a.env) if a.env else "")))
    print("%-14s %7s %7s %7s  %10s %10s %10s  %s" % ("rule set", "min s", "med s", "max s", "flt min", "flt med", "flt max", "sha256"))
    with tempfile.TemporaryDirectory() as out:
        for rid in a.ids:
            ts, fs, ds = [], [], set()
            for i in range(a.runs):
                dt, flt, dg = one_run(rid, out, env)
                ts.append(dt)
                fs.append(flt)
                ds.add(dg)
                sys.stderr.write("  %s run %d: %.2f s, %d page faults\n" % (rid, i + 1, dt, flt))
            ts.sort()
            fs.sort()
            med = (ts[(len(ts) - 1) // 2] + ts[len(ts) // 2]) / 2
            fmed = (fs[(len(fs) - 1) // 2] + fs[len(fs) // 2]) // 2
            print("%-14s %7.2f %7.2f %7.2f  %10d %10d %10d  %s" % (
                rid, ts[0], med, ts[-1], fs[0], fmed, fs[-1], " ".join(d[:16] for d in sorted(ds))))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
