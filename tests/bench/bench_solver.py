"""Solver stability: wall time and page faults of repeated table builds, each in a fresh process.

    .venv/bin/python tests/bench/bench_solver.py [--runs 6] [--env NAME=VALUE ...] [rule ids...]

Each run is `python -m host_sim.solver --out TMP ID` in its own process (as `make tables` runs it);
the figures are the process's wall time, and the minor page faults and CPU seconds (user + system; system
alone) of it and its workers (resource.getrusage(RUSAGE_CHILDREN), a delta per run). CPU time shows the
work when other jobs share the cores and stretch the wall time. FIVEDICE_SOLVER_MALLOC=default (--env)
runs with glibc's own malloc thresholds, as before the fix. Prints min / median / max per rule set and
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


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2


def one_run(rid, out, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "host_sim.solver", "--out", out, rid], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.path.join(out, rid + ".fdt"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    return dt, r1.ru_minflt - r0.ru_minflt, cpu, r1.ru_stime - r0.ru_stime, digest


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
    print("%-14s %7s %7s %7s  %9s %9s %9s  %7s %7s  %s" % (
        "rule set", "min s", "med s", "max s", "flt min", "flt med", "flt max", "cpu med", "sys med", "sha256"))
    with tempfile.TemporaryDirectory() as out:
        for rid in a.ids:
            ts, fs, cs, ss, ds = [], [], [], [], set()
            for i in range(a.runs):
                dt, flt, cpu, sy, dg = one_run(rid, out, env)
                ts.append(dt)
                fs.append(flt)
                cs.append(cpu)
                ss.append(sy)
                ds.add(dg)
                sys.stderr.write("  %s run %d: %.2f s, %d page faults, %.2f s cpu (%.2f s system)\n" % (
                    rid, i + 1, dt, flt, cpu, sy))
            ts.sort()
            fs.sort()
            print("%-14s %7.2f %7.2f %7.2f  %9d %9d %9d  %7.2f %7.2f  %s" % (
                rid, ts[0], median(ts), ts[-1], fs[0], median(fs), fs[-1], median(cs), median(ss),
                " ".join(d[:16] for d in sorted(ds))))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
