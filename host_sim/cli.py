"""fivedice: the simulator and the host tools (also `python -m host_sim ...`).

usage: fivedice [COMMAND] [ARGS...]      fivedice COMMAND --help for each command's options

commands:
  sim         (default) play in the terminal; a CPU demo when stdin is not a terminal
  play        a scripted game: play --rules R --players N --faces F --script FILE [--screenshots DIR]
  score       rules oracle: JSON requests on stdin, JSON answers on stdout
  solve       build the device strategy tables: solve [--out DIR] [--workers N] [rule ids...]
  screenshot  a scripted game with a PNG after every action: screenshot DIR --script FILE [play options]
"""
import argparse
import sys

SCORE_HELP = """usage: fivedice score [--tables DIR] < REQUESTS

The rules oracle: reads one JSON request per line on stdin and writes one JSON answer per line, using the
same lib/ code as the device, e.g.
  {"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 0, "fours": 12}}
  {"op": "totals", "rules": "yum", "card": {...}, "bonus": 0}
  {"op": "advise", "rules": "yahtzee", "card": {...}, "bonus": 0, "dice": [5,5,2,3,6], "rolls_left": 2}
advise needs the rule set's strategy table: DIR/<rules>.fdt (default: the checkout's tables/, `make tables`).
A bad line gets {"error": "<plain message>"}; the exit status is 1 if any line was refused, else 0."""

SCREENSHOT_HELP = """usage: fivedice screenshot DIR --script FILE [play options]

Plays a scripted game (the same as `fivedice play`, every option of which it takes) and writes a PNG of the
OLED and the NeoPixels after every action into DIR. See `fivedice play --help` for the options."""


class ArgParser(argparse.ArgumentParser):
    """argparse, but a bad command line gets one plain line ("fivedice play: --players: must be a whole
    number, not 'abc'; try: fivedice play --help") and exit 2, not the usage block."""

    def error(self, message):
        if message.startswith("argument "):
            message = message[9:]  # "--players: must be a whole number, not 'abc'"
        self.exit(2, "%s: %s; try: %s --help\n" % (self.prog, message, self.prog))


SHOW = 60  # characters of a bad value a message quotes, at most (the rules oracle's cap too)


def quoted(text):
    """text for a message, its first SHOW characters at most: a 100,000-character argument is not echoed."""
    if len(text) <= SHOW:
        return repr(text)
    return "%r... (%d characters)" % (text[:SHOW - 3], len(text))


def whole(text):
    """An argparse type: a whole number ("must be a whole number, not 'abc'" otherwise)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a whole number, not %s" % quoted(text))


def rule_set(text):
    """The rule set with id `text`; ValueError with a plain message (the id cut short) if there is none."""
    from fivedice import rules

    if text not in rules.IDS:
        raise ValueError("unknown rule set %s (known: %s)" % (quoted(text), ", ".join(rules.IDS)))
    return rules.get(text)


def _help(text):
    print(text)
    return 0


def main(argv=None):
    """Dispatch to the tool behind each command; returns the exit status (the console script exits with it)."""
    if argv is None:
        argv = sys.argv[1:]
    argv = list(argv)
    cmd = argv[0] if argv and not argv[0].startswith("-") else "sim"
    rest = argv[1:] if argv and argv[0] == cmd else argv
    if cmd == "sim":
        if argv and argv[0] in ("-h", "--help"):
            return _help(__doc__.strip())  # the top-level help; `fivedice sim --help` gives the simulator's
        from host_sim import sim

        return sim.main(rest)
    if cmd == "play":
        from host_sim import play

        return play.main(rest)
    if cmd == "score":
        if any(a in ("-h", "--help") for a in rest):
            return _help(SCORE_HELP)
        tables = None
        if len(rest) == 2 and rest[0] == "--tables":
            tables = rest[1]
        elif rest:
            print("score takes only --tables DIR (requests come on stdin); try: fivedice score --help", file=sys.stderr)
            return 2
        from host_sim import oracle

        return oracle.main(tables=tables)
    if cmd == "solve":
        from host_sim.solver.__main__ import main as solve

        return solve(rest)
    if cmd == "screenshot":
        if any(a in ("-h", "--help") for a in rest):
            return _help(SCREENSHOT_HELP)
        if not rest or rest[0].startswith("-"):
            print("fivedice screenshot: %s; %s" % ("DIR comes first" if rest else "DIR is missing",
                                                   SCREENSHOT_HELP.split("\n")[0]), file=sys.stderr)
            return 2
        if "--screenshots" in rest:
            print("fivedice screenshot: DIR is the folder for the PNGs (no --screenshots); "
                  + SCREENSHOT_HELP.split("\n")[0], file=sys.stderr)
            return 2
        from host_sim import play

        return play.main(rest[1:] + ["--screenshots", rest[0]], prog="fivedice screenshot")
    if cmd == "help":
        return _help(__doc__.strip())
    print("unknown command %r; try: fivedice --help" % cmd, file=sys.stderr)
    return 2

