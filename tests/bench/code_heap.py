"""What the board's code alone holds at the worst moment of a table game (issue #7's memory goal).

    python tests/bench/code_heap.py [--runtime cp|mp] [--heap KB]

Plays the heap proxy's game (tests/firmware/fakes/game_drive.py: a human with a hint after every roll
against the perfect CPU, Yahtzee table, lib as .py and as .mpy) and has the driver write
which modules were loaded at its peak live heap. Then, in a fresh MicroPython process, it imports the C
stand-ins first and those modules one by one, and prints what each import leaves on the heap after a
collection: the module's code (bytecode, function and class objects, the names it interns) and its
module-level tables. The game's buffers and screens are made later, by the app, and are not in it.
Attribution between modules is approximate (a qstr pool that fills up is charged to whichever import
needs the next one); the total is not. The qstr pools the game's names grew are shown apart: on a board
the names are counted at their least (a pointer and a length byte each, and their characters) and the
rest of the code scaled by the project's rule.

Compared with the goal: a Pico under CircuitPython 10 has about 162 KB free, so keeping 64 KB free
leaves the game 98 KB. A 32-bit board needs about 0.58-0.68 x the 64-bit port's heap (the project's
rule, measured on both builds for this game).
"""
import argparse
import ast
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import board_heap  # noqa: E402

PROBE = """import gc, sys
with open(sys.argv[1]) as f:
    standins = f.read().split("\\n")[0].split()
with open(sys.argv[2]) as f:
    game = f.read().split()
for m in standins:
    __import__(m)
import micropython
micropython.qstr_info()
out = []
for m in game:
    gc.collect()
    a = gc.mem_alloc()
    __import__(m)
    gc.collect()
    out.append([m, gc.mem_alloc() - a])
print(out)
micropython.qstr_info()
"""
FREE_KB, KEEP_KB = 162, 64  # a Pico under CircuitPython 10; the goal


def peak_modules(top, path, runtime, heap_kb, board="pico"):
    """Play the proxy's game in the staged folder top; its JSON, with "modules_file": the modules
    loaded at its peak (the C stand-ins on the first line, the game's on the second)."""
    mods = os.path.join(top, "peak_modules.txt")
    out = board_heap.run(top, path, heap_kb, runtime, modules=mods, board=board)
    if out["status"] != "done":
        raise SystemExit("the game did not finish at %d KB: %s" % (heap_kb, out))
    out["modules_file"] = mods
    return out


def source(top, mod):
    """The staged .py of a module, or None (the .mpy builds: ask the .py folder)."""
    rel = mod.replace(".", os.sep)
    for d in (os.path.join(top, "lib"), top):
        for c in (rel + ".py", os.path.join(rel, "__init__.py")):
            if os.path.isfile(os.path.join(d, c)):
                return os.path.join(d, c)
    return None


def import_order(mods, src_top):
    """mods with each one after the modules it imports at its top level (read from the .py sources in
    src_top), ties in name order: each import then holds mostly its own module."""
    deps = {}
    for m in mods:
        deps[m] = set()
        p = source(src_top, m)
        if p is None:
            continue
        with open(p) as f:
            tree = ast.parse(f.read())
        for node in tree.body:  # top level only: imports inside functions load on demand
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [node.module + "." + a.name for a in node.names]
            for n in names:
                parts = n.split(".")
                for i in range(1, len(parts) + 1):  # a package is imported before its submodule
                    pkg = ".".join(parts[:i])
                    if pkg in mods and pkg != m:
                        deps[m].add(pkg)
    order, done = [], set()

    def visit(m, seen):
        if m in done or m in seen:
            return
        seen.add(m)
        for d in sorted(deps[m]):
            visit(d, seen)
        done.add(m)
        order.append(m)

    for m in sorted(mods):
        visit(m, set())
    return order


def held(top, path, mods_file, src_top):
    """[module, bytes its import holds] for the game's modules at the peak, leaves first."""
    with open(mods_file) as f:
        game = f.read().split("\n")[1].split()
    order_file = os.path.join(top, "import_order.txt")
    with open(order_file, "w") as f:
        f.write(" ".join(import_order(set(game), src_top)))
    probe = os.path.join(top, "code_probe.py")
    with open(probe, "w") as f:
        f.write(PROBE)
    r = subprocess.run([os.path.join(board_heap.BIN, "micropython"), "-X", "heapsize=4M", probe, mods_file,
                        order_file],
                       cwd=top, env=dict(os.environ, MICROPYPATH=path), capture_output=True, text=True,
                       timeout=600)
    if r.returncode:
        raise SystemExit("probe failed: %s" % (r.stdout + r.stderr)[-400:])
    lines = r.stdout.strip().splitlines()
    mods = json.loads([ln for ln in lines if ln.startswith("[")][-1].replace("'", '"'))
    # "qstr pool: n_pool=.., n_qstr=.., n_str_data_bytes=.., n_total_bytes=..", before and after the game's imports
    pools = [dict(kv.split("=") for kv in ln.split(": ", 1)[1].split(", ")) for ln in lines if ln.startswith("qstr pool:")]
    before, after = pools[0], pools[-1]
    names = dict((k, int(after[key]) - int(before[key])) for k, key in
                 (("n", "n_qstr"), ("chars", "n_str_data_bytes"), ("pools", "n_total_bytes")))
    return mods, names


def measure(runtime="cp", heap_kb=600, build=None, board="pico"):
    """{"py"|"mpy": {"modules": [[name, bytes]], "code": total, "peak": peak live - fakes}}."""
    build = build or os.path.join(board_heap.ROOT, "build", "code-heap" + ("" if board == "pico" else "-" + board))
    res = {}
    for kind in ("py", "mpy"):
        top = "%s-%s-%s" % (build, runtime, kind)
        path = board_heap.stage(top, kind == "mpy", runtime=runtime, board=board)
        game = peak_modules(top, path, runtime, heap_kb, board)
        mods, names = held(top, path, game["modules_file"], "%s-%s-py" % (build, runtime))
        res[kind] = {"modules": mods, "code": sum(b for _, b in mods), "names": names,
                     "peak": game["peak_live"] - game["fake_bytes"]}
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", choices=("cp", "mp"), default="cp")
    ap.add_argument("--heap", type=int, default=600, help="-X heapsize in KB for the game (roomy: the peak's modules)")
    ap.add_argument("--board", default="pico", choices=("pico", "macropad"),
                    help="macropad: the MacroPad's install (CircuitPython only)")
    a = ap.parse_args(argv)
    res = measure(a.runtime, a.heap, board=a.board)
    py, mpy = res["py"], res["mpy"]
    names = [m for m, _ in py["modules"]] + [m for m, _ in mpy["modules"] if m not in dict(py["modules"])]
    by = dict((k, dict(res[k]["modules"])) for k in res)
    print("%s entry point, the modules loaded at the game's peak live heap; bytes each import holds "
          "(MicroPython unix port, 64-bit):" % ("CircuitPython code.py" if a.runtime == "cp" else "MicroPython main.py"))
    print("%-32s %9s %9s" % ("module", ".py", ".mpy"))
    for n in names:
        print("%-32s %9s %9s" % (n, by["py"].get(n, "-"), by["mpy"].get(n, "-")))
    lo, hi = board_heap.BOARD_32BIT
    for kind in ("py", "mpy"):
        r, q = res[kind], res[kind]["names"]
        code, rest = r["code"] / 1024, (r["peak"] - r["code"]) / 1024
        print(".%s: %d modules, code and module tables %.1f KB + the rest of the peak (buffers, screens, objects) "
              "%.1f KB = peak live %.1f KB" % (kind, len(r["modules"]), code, rest, r["peak"] / 1024))
        # A name on a 32-bit board: a 4-byte pointer and a length byte in its pool (hash bytes, if any, and the
        # pool's doubling slack left out: at least), and its characters; the rest of the code scales by the rule.
        names_board = (5 * q["n"] + q["chars"]) / 1024
        other = code - q["pools"] / 1024
        print("     of it, the qstr pools the game's %d new names grew: %.1f KB (%d bytes of characters); the rest "
              "%.1f KB" % (q["n"], q["pools"] / 1024, q["chars"], other))
        print("     on a 32-bit board: the rest x %.2f-%.2f + the names at least %.1f KB = code %.0f-%.0f KB; peak "
              "%.0f-%.0f KB (x %.2f-%.2f); keeping %d KB free of a CircuitPython Pico's %d leaves the game %d KB"
              % (lo, hi, names_board, other * lo + names_board, other * hi + names_board, r["peak"] / 1024 * lo,
                 r["peak"] / 1024 * hi, lo, hi, KEEP_KB, FREE_KB, FREE_KB - KEEP_KB))
    return 0


if __name__ == "__main__":
    sys.exit(main())
