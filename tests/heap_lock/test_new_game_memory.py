"""The big buffers are the app's, allocated once at start-up: the coaches' ~12 KB of arrays (one
set, shared by the table's coach and the good CPU's); a new game allocates only small objects, and later games
reuse even those. MicroPython only (gc.mem_alloc); prints the bytes each new game allocates."""
import gc

from coachfix import DATA
from heaplock import assert_no_alloc
from fivedice import app as A
from fivedice import coach, cpu_levels, good_valuer, rules
from fivedice.rng import Dice

ENTROPY = bytes((i * 37 + 11) & 0xFF for i in range(32))


class Display:
    def __init__(self):
        self.buf = bytearray(1024)

    def fill(self, c):
        pass

    def fill_rect(self, x, y, w, h, c):
        pass

    def pixel(self, x, y, c=None):
        return 0

    def show(self):
        pass


def _entropy(n):
    return ENTROPY


def _new_game_bytes(app):
    gc.collect()
    a = gc.mem_alloc()
    app.session.new_game()
    return gc.mem_alloc() - a


def test_the_coach_arrays_come_with_the_app_and_later_new_games_reuse_everything():
    gc.collect()
    a = gc.mem_alloc()
    app = A.App(Display(), dice=Dice(_entropy), tables=DATA)
    gc.collect()
    built = gc.mem_alloc() - a
    assert built > 12000, built  # the coaches' arrays among it
    app.settings.rules_i = rules.get("yacht").index
    app.settings.players = 3
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # perfect: the table and its coach
    app.settings.seats[2] = 2  # good: a coach of its own
    first = _new_game_bytes(app)
    assert app.seats.coach is not None and app.seats.players[1].level == cpu_levels.PERFECT
    later = 0
    for _ in range(20):
        later = max(later, _new_game_bytes(app))
    print("app %d bytes; new game: first %d bytes, later at most %d bytes" % (built, first, later))
    assert first < 10000 and later < 2000, (first, later)  # the first: the table reader, the coach objects


RS = (rules.get("yahtzee"), rules.get("yacht"))
VAL = (good_valuer.HeuristicValuer(RS[0]), good_valuer.HeuristicValuer(RS[1]))
C = coach.Coach(RS[0], VAL[0])


def _retarget():
    C.retarget(RS[1], VAL[1])
    C.retarget(RS[0], VAL[0])


def test_a_coach_moves_to_another_rule_set_without_allocating():
    assert_no_alloc(_retarget)
