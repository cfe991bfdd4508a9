"""One bad bit in the CircuitPython nvm log (fdfw.store.nvm_cp on fakeflash.FakeNvm): what it costs.

A game's log: one app-like game (powercut.game_ops) played on a sector that a compaction has just rewritten
(the game before it kept as the newest save, the records beside it), then that game's records. For a flip of
one bit at a byte of the log (every byte; every bit, or one bit per byte), two trials:

- persistent (a bit stuck wrong in flash): boot, read. `back` = how many saves older than the newest the
  resumed state is (None resumed: `nothing`); the records read must be the newest or the ones before them.
  Did the store say it lost saves (`lost`), when it did? Then the player goes on (AFTER more saves), the board
  boots again with the bit still wrong: the newest of those must be read, and no second message.
- one-boot (a bit misread once): the same first boot, the player goes on, then a clean boot (the flip gone):
  the newest of the AFTER saves must be read (today's log loses them: `later` counts the saves lost).

Runs on CPython and the MicroPython unix port (python bitflip.py [bits|bit|byte] [players]).
"""

from fakeflash import FakeNvm
from fdfw.store.nvm_cp import NvmStore
import powercut

AFTER = 5


def game_log(players=2, seed=11, upto=None, cls=NvmStore):
    """(nvm, saves, records): the medium after a compacted start and one whole game, every save payload in
    order (the compacted one first) and the records payloads in order."""
    ops = powercut.game_ops(players, 2, seed)
    first = ops.index(("c", None))
    m = FakeNvm(4096)
    s = cls(m)
    for op in ops[:first]:
        powercut.run_op(s, op)
    s.compact()  # the app's compaction at New game, done whether due or not: the log starts rewritten
    saves = [s.read()]
    recs = [s.read_records()]
    s = cls(m)
    s.read()
    for op in ops[first + 1:]:
        if op[0] == "c" or (upto is not None and len(saves) > upto):
            continue
        powercut.run_op(s, op)
        if op[0] == "s":
            saves.append(op[1])
        else:
            recs.append(op[1])
    return m, saves, recs


def used(m):
    """Bytes of the log that were ever programmed (the log's extent, the tally left out)."""
    n = len(m.data) - 8
    while n > 0 and m.data[n - 1] == 0xFF:
        n -= 1
    return n


def _later(last, k):
    b = bytearray(last)
    b[-1] ^= 0x5A
    b[-2] = (b[-2] + 1 + k) & 0xFF
    b[12] = (b[12] + k + 1) & 0xFF
    return bytes(b)


class Figures:
    def __init__(self, what):
        self.what = what
        self.flips = 0
        self.lose = 0  # flips whose first boot resumed an older save
        self.worst = 0
        self.total_back = 0
        self.nothing = 0
        self.rec_lost = 0  # records read neither the newest nor the ones before them
        self.silent = 0  # lost 2 saves or more and said nothing
        self.said_twice = 0
        self.later = 0  # saves played after the flip's boot, lost at the next boot
        self.later_flips = 0
        self.examples = []

    def line(self):
        return ("%-10s %5d flips: %4d go back (max %d saves, %.3f saves per flip), %d resume nothing, "
                "%d lose the records, %d lose 2+ saves silently, %d say it twice; then %d flips lose %d "
                "later saves" % (self.what, self.flips, self.lose, self.worst, self.total_back / max(1, self.flips),
                                 self.nothing, self.rec_lost, self.silent, self.said_twice, self.later_flips,
                                 self.later))


def trial(m, saves, recs, at, mask, persistent, fig, cls=NvmStore):
    snap = m.snapshot()
    index = {}
    for i in range(len(saves)):
        index[saves[i]] = i
    m.data[at] ^= mask
    s = cls(m)
    got = s.read()
    r = s.read_records()
    fig.flips += 1
    if got is None:
        fig.nothing += 1
        back = len(saves)
    else:
        back = len(saves) - 1 - index.get(got, -1 - len(saves))
    if back:
        fig.lose += 1
        fig.total_back += back
        fig.worst = max(fig.worst, back)
        if len(fig.examples) < 5:
            fig.examples.append((at, mask, back))
    if r != recs[-1] and not (len(recs) > 1 and r == recs[-2]):
        fig.rec_lost += 1
    said = bool(getattr(s, "lost", False))
    if back >= 2 and not said:
        fig.silent += 1
    last = got if got is not None else saves[-1]
    for k in range(AFTER):
        last = _later(last, k)
        s.write(last)
    if not persistent:
        m.data[at] ^= mask
    s2 = cls(m)
    again = s2.read()
    if again != last:
        fig.later_flips += 1
        fig.later += AFTER
    if said and getattr(s2, "lost", False):
        fig.said_twice += 1
    m.restore(snap)
    return back


def masks(how, at):
    """The flips tried at byte `at`: "bits" every bit in turn, "bit" one bit (which one turns with at),
    "byte" the whole byte inverted (eight bits wrong at once: more than one bit, the worst of a byte)."""
    if how == "bits":
        return [1 << b for b in range(8)]
    if how == "bit":
        return [1 << (at % 8)]
    return [0xFF]


def run(players=2, how="bits", stride=1, out=print, upto=None, cls=NvmStore):
    """Every flip of `how` at every stride-th byte of a game's log (the game cut short after `upto` saves
    when given: the log as it stands mid-game), persistent then one-boot: (figures, saves, log bytes)."""
    m, saves, recs = game_log(players, upto=upto, cls=cls)
    n = used(m)
    figs = []
    for persistent in (True, False):
        fig = Figures(("persistent" if persistent else "one-boot") + " " + how)
        fig.saves = len(saves)
        for at in range(0, n, stride):
            for mask in masks(how, at):
                trial(m, saves, recs, at, mask, persistent, fig, cls)
        figs.append(fig)
        if out is not None:
            out(fig.line())
    return figs, len(saves), n


if __name__ == "__main__":
    import sys

    how = sys.argv[1] if len(sys.argv) > 1 else "bits"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    figs, saves, n = run(players, how)
    print("%d-player game: %d saves, %d bytes of log" % (players, saves, n))
