"""Zero-allocation proof for the hint: table reads, the turn solve, hints, losses, proficiency, CPU decisions.

Everything is built and warmed before micropython.heap_lock(); the coach's per-turn cache is reset
inside the lock so the whole turn solve (table seeks included) runs locked.
"""
from array import array


from coachfix import card, table
from heaplock import assert_no_alloc
from fivedice import coach, cpu_levels
from fivedice.game import Game
from fivedice.proficiency import Proficiency
from fivedice.rng import Dice, SeededBytes

RESULT = array("l", [0, 0, 0])
SETUPS = []
for _name in ("yahtzee3", "yum_low25", "yacht"):
    _t = table(_name)
    _c = coach.Coach(_t.rs, _t)
    _g = Game(_t.rs, 1, Dice(SeededBytes(11)))
    card(_name, _g.cards[0])
    SETUPS.append((_c, _g, Proficiency(coach.Coach(_t.rs, _t)), cpu_levels.make(_t.rs, cpu_levels.PERFECT, _t),
                   cpu_levels.make(_t.rs, cpu_levels.GOOD)))
FIVE = bytearray(b"\x04\x04\x04\x04\x04")
TOP = array("l", [0] * coach.TOP_LEN)
OUT = array("i", [0] * 16)


def _hints():
    acc = 0
    for s in SETUPS:
        c = s[0]
        g = s[1]
        cd = g.cards[0]
        c._phase = -1  # solve the turn again, inside the lock
        c.valuer.forget()  # and read and decode its table rows again
        for rolls in (1, 2, 3):
            acc += c.hint(cd, g.dice, rolls, 0) + c.value
            acc += c.hint(cd, FIVE, rolls, 3) + c.value
        c.hint(cd, g.dice, 3, 0)
        box = c.value
        acc += c.choices(cd, g.dice, 1, 0, TOP) + c.choices(cd, g.dice, 3, 0, TOP)
        c.score_values(cd, g.dice, OUT)  # the picker's values
        acc += OUT[box]
        acc += c.keep_loss(cd, g.dice, 1, 5) + c.keep_loss(cd, g.dice, 2, 0)
        acc += c.score_loss(cd, g.dice, 3, box)
        acc += c.turn_value(cd)
        s[2].before_roll(g)
        s[2].before_score(g, box)
        acc += s[2].loss + s[2].loss_x100() + s[2].per_decision_x100()
        p = s[3]
        p.coach._phase = -1
        p.coach.valuer.forget()
        acc += p.decide(g) + p.keep
        p = s[4]
        p.coach._phase = -1
        acc += p.decide(g) + p.keep
    RESULT[0] = acc


def test_hint_turn_solve_losses_and_cpu_decisions_allocate_nothing():
    for s in SETUPS:
        g = s[1]
        g.roll()
        g.hold(0)
        g.roll()  # rolls = 2, one die held
    assert_no_alloc(_hints)
    assert RESULT[0] != 0


FRESH = []


def _check_blocks():
    t = FRESH[0]
    for i in range(len(t._ok)):
        t._ok[i] = 0  # forget every check: each block is read and CRC-checked again, inside the lock
    t.verify_all()
    RESULT[1] = t.value(0, 0, 0)


def test_crc_checks_of_table_blocks_allocate_nothing():
    FRESH.append(table("yacht"))
    assert_no_alloc(_check_blocks)
    assert RESULT[1] > 0 and FRESH[0].blocks > 10


STATES = array("l", [0, 0])
YACHT = []
SUB = []


def _decode_all():
    t = YACHT[0]
    t.forget()
    n = 0
    acc = 0
    for filled in range(t.rs.all_mask + 1):  # yacht: no upper bonus, u = 0, z = 0
        v = t.value(filled, 0, 0)
        if v >= 0:
            n += 1
            acc += v
    STATES[0] = n
    STATES[1] = acc


def test_decoding_every_state_of_a_compact_table_allocates_nothing():
    YACHT.append(table("yacht"))
    assert_no_alloc(_decode_all)
    assert STATES[0] == YACHT[0].states == 4096 and STATES[1] > 0


def _decode_rows():
    t = SUB[0]
    t.forget()
    acc = 0
    for up in range(64):  # every upper pattern of the sub-game, every u, both z: rows decoded from the start and
        for u in range(63, -1, -1):  # from the cache, backwards
            for z in range(2):
                acc += t.value(t.base | up, u, z) + 1
    STATES[1] = acc


def test_decoding_rows_over_the_upper_total_allocates_nothing():
    SUB.append(table("yahtzee3"))
    assert_no_alloc(_decode_rows)
    assert STATES[1] > 0


def _groups_and_solve():
    for s in SETUPS:
        c = s[0]
        cd = s[1].cards[0]
        c.groups[0] = None  # the final-roll groups built again, every slice (Coach.work) inside the lock
        c.groups[5] = None
        while not c.warm():
            pass
        c.groups[0] = None
        c.groups[5] = None
        c._phase = -1
        c.prepare(cd)  # the groups' slices through work(), then the turn solve
        RESULT[1] += c.groups[7]


def test_the_final_roll_groups_built_a_slice_at_a_time_allocate_nothing():
    assert_no_alloc(_groups_and_solve)


OTHER = [None]  # another coach's rule set, set before the lock


def _groups_of_another_rule_set():
    for s in SETUPS:
        c = s[0]
        own = c.rs
        while not c.warm(OTHER[0] if OTHER[0] is not own else SETUPS[0][0].rs):  # moved there (the app's menu)
            pass
        while not c.warm(own):  # and back, its valuer kept
            pass
        RESULT[1] += c.groups[7]


def test_the_groups_of_the_menus_rule_set_moving_the_coach_there_and_back_allocate_nothing():
    OTHER[0] = SETUPS[-1][0].rs
    assert SETUPS[0][0].rs is not OTHER[0]
    assert_no_alloc(_groups_of_another_rule_set)
    for s in SETUPS:
        assert s[0].groups[0] is s[0].rs and s[0].valuer.rs is s[0].rs
