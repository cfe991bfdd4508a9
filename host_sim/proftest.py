"""The proficiency test's positions: generated once, by the seeded procedure below, into lib/fivedice/proftest_data.py.

    python -m host_sim.proftest          # rewrites lib/fivedice/proftest_data.py (tests/lib/test_proftest_positions.py
                                         # regenerates it and compares with the shipped file)

The procedure, per rule set (fivedice.rules.ALL order), needs no strategy table and only lib/ code, so
it gives the same bytes on any machine and Python version:
- dice: fivedice.rng.Dice on rng.SeededBytes(SEED + rule set index) (xorshift32, the simulator's seeded dice);
- players: the easy CPU (fivedice.cpu.Cpu), solitaire, one game per position, the games one after another
  on the same dice stream;
- position j (0..24) of a rule set of n boxes is taken in game j at turn j * n // 25 (so the 25 spread over a
  whole game, from the first turn to the last) after roll 1 + j % 3 of that turn (at most roll 2 on the last
  turn, whose third roll has one box to go in: nothing to decide), before the CPU decides; if the CPU scores
  before that roll, the position is the one where it scored (a decision either way).
Record (RECORD + n bytes): rolls taken (1-3), the five faces as rolled, the filled mask (2 bytes, little
endian), the extra bonuses, then the points of each box (0 where open). The card's bonus and totals follow
from these as in a save.
"""
import os
import sys

from fivedice import cpu as _cpu
from fivedice import rules
from fivedice.game import Game
from fivedice.proftest import COUNT, HALF, RECORD
from fivedice.rng import Dice, SeededBytes

SEED = 0x5EED25
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib", "fivedice", "proftest_data.py")


def positions(rs):
    """The COUNT position records of rule set rs, as bytes (COUNT * (RECORD + rs.n))."""
    dice = Dice(SeededBytes(SEED + rs.index))
    cpu = _cpu.Cpu()
    cpu.prepare(rs)
    out = bytearray()
    for j in range(COUNT):
        g = Game(rs, 1, dice)
        turn = j * rs.n // COUNT
        want = 1 + j % 3
        if turn == rs.n - 1 and want == 3:
            want = 2  # the last turn's third roll has only one box to go in
        while g.turn < turn:
            _cpu.play_turn(g, cpu)
        while True:
            a = cpu.decide(g) if g.rolls else _cpu.ROLL
            if g.rolls == want or (g.rolls and a == _cpu.SCORE):
                break
            if g.rolls:
                for i in range(5):
                    if (cpu.keep >> i) & 1:
                        g.hold(i)
                    else:
                        g.release(i)
            g.roll()
        c = g.cards[0]
        out += bytes([g.rolls]) + bytes(g.dice) + bytes([c.filled & 0xFF, c.filled >> 8, c.extra]) + bytes(c.pts[:rs.n])
    return bytes(out)


def _literal(data, indent, width=100):
    """`data` as adjacent bytes literals (one constant to the compiler), no line over `width`."""
    out, line = [], ""
    room = width - len(indent) - 4  # b"", and the comma after the last
    for b in data:
        if b == 0x22 or b == 0x5C:
            tok = "\\" + chr(b)
        else:
            tok = ascii(bytes([b]))[2:-1]
        if len(line) + len(tok) > room:
            out.append('%sb"%s"' % (indent, line))
            line = ""
        line += tok
    out.append('%sb"%s",' % (indent, line))
    return out


def source():
    """The text of lib/fivedice/proftest_data.py."""
    lines = [
        '"""The proficiency test\'s positions, 25 per rule set: written by `python -m host_sim.proftest`',
        "(its docstring has the seeded procedure and the record layout; tests/lib/test_proftest_positions.py",
        'regenerates them)."""',
        "# POSITIONS[rule set index]: two constants, positions 0-12 and 13-24, each position a record of",
        "# 9 + boxes bytes: rolls taken, the five faces, filled mask (2 bytes, little endian), extra bonuses,",
        "# each box's points. Two constants a rule set, not one joined at import: none compiled on the board",
        "# passes 512 bytes, and taking a rule set's pair keeps no copy (fivedice.proftest.data).",
        "POSITIONS = (",
    ]
    for rs in rules.ALL:
        data = positions(rs)
        n = RECORD + rs.n
        lines.append("    (  # %s" % rs.id)
        for part in (data[:HALF * n], data[HALF * n:]):
            lines.extend(_literal(part, "        "))
        lines.append("    ),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv=None):
    text = source()
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s (%d positions per rule set)" % (OUT, COUNT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
