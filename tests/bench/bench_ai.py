"""make bench-ai: each CPU level plays solitaire games; prints mean +- 95% CI per level.

    python tests/bench/bench_ai.py [--rules yahtzee] [--games 4000] [--levels easy,good,perfect]

"perfect" needs tables/<rules>.fdt (make tables) and should land on the optimum within its CI.
Games use seeded dice (SeededBytes(seed + game number)), so a run is repeatable.
"""
import argparse
import math
import multiprocessing as mp
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "lib"), ROOT]

from fivedice import cpu_levels, rules  # noqa: E402
from fivedice.game import Game  # noqa: E402
from fivedice.rng import Dice, SeededBytes  # noqa: E402
from fivedice.strategy_table import StrategyTable  # noqa: E402

OPTIMUM = {"yahtzee": 254.5877, "fiveok_forced": 254.5877, "fiveok_free": 254.5896, "yatzy": 248.44}


def play(game, player):
    while not game.over:
        a = player.decide(game)
        if a == cpu_levels.SCORE:
            r = game.score(player.box)
        else:
            for i in range(5):
                if (player.keep >> i) & 1:
                    game.hold(i)
                else:
                    game.release(i)
            r = game.roll()
        if r:
            raise RuntimeError("CPU made a refused move (code %d)" % r)
    return game.cards[0].total()


def _run(args):
    rid, level, table_path, seeds = args
    rs = rules.get(rid)
    table = StrategyTable(open(table_path, "rb"), rs) if table_path else None
    player = cpu_levels.make(rs, level, table)
    out = []
    for s in seeds:
        g = Game(rs, 1, Dice(SeededBytes(s)))
        out.append(play(g, player))
    return out


def stats(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd, 1.96 * sd / math.sqrt(n)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--levels", default="easy,good,perfect")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--tables", default=os.path.join(ROOT, "tables"))
    a = ap.parse_args(argv)
    path = os.path.join(a.tables, a.rules + ".fdt")
    print("rules %s, %d games per level, seeds %d.., %d workers" % (a.rules, a.games, a.seed, a.workers))
    ok = True
    for name in a.levels.split(","):
        level = cpu_levels.NAMES.index(name)
        tp = None
        if level == cpu_levels.PERFECT:
            if not os.path.exists(path):
                print("%-8s skipped: %s is missing (run make tables)" % (name, path))
                continue
            tp = path
        seeds = list(range(a.seed, a.seed + a.games))
        chunks = [(a.rules, level, tp, seeds[i :: a.workers]) for i in range(a.workers)]
        t0 = time.time()
        if a.workers > 1:
            with mp.get_context("fork").Pool(a.workers) as pool:
                res = [x for part in pool.map(_run, chunks) for x in part]
        else:
            res = _run(chunks[0])
        dt = time.time() - t0
        m, sd, ci = stats(res)
        line = "%-8s mean %7.2f +- %5.2f (95%% CI)  sd %5.1f  min %3d max %4d  %6.1f ms/game" % (
            name, m, ci, sd, min(res), max(res), 1000 * dt * a.workers / len(res))
        if level == cpu_levels.PERFECT and a.rules in OPTIMUM:
            opt = OPTIMUM[a.rules]
            inside = abs(m - opt) <= ci
            ok = ok and inside
            line += "  optimum %.4f %s" % (opt, "inside CI" if inside else "OUTSIDE CI")
        print(line)
        sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
