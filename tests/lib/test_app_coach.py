"""The coach in the device app: hints, CPU levels and proficiency, with and without a strategy table."""
import os
import shutil

import pytest

from fivedice import app as A
from fivedice import coach, rules
from fivedice.compat import zeros
from fivedice.rng import Dice, SeededBytes
from fivedice.strategy_table import StrategyTable
from host_sim.device import SimDevice
from host_sim.terminal import oled_lines

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")  # holds a complete yacht.fdt
YACHT = rules.get("yacht")


def device(tables=DATA, seed=3):
    return SimDevice(dice=Dice(SeededBytes(seed)), cpu_step_ms=20, tables=tables)


def start(dev, rules_i, kinds):
    app = dev.app
    app.settings.rules_i = rules_i
    app.settings.players = len(kinds)
    for p, k in enumerate(kinds):
        app.settings.seats[p] = k
    app.session.new_game()
    dev.settle()


def play_first_boxes(dev, after_roll=None):
    """To the game's end: the human scores the first box offered after one roll (points given away), CPU
    seats play themselves; after_roll() is called after each human roll."""
    app = dev.app
    while not app.session.game.over:
        if app.session.cpu_turn():
            dev.step()
            continue
        dev.tap(A.B_ROLL)
        dev.settle()
        if after_roll is not None:
            after_roll()
        dev.tap(A.B_OK)
        app.screen.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()


def test_perfect_cpu_is_offered_only_for_rule_sets_with_a_table():
    dev = device()
    app = dev.app
    assert app.seats.tables_mask == 1 << YACHT.index
    app.settings.rules_i = YACHT.index
    assert app.seats.levels(app.settings.rules_i) == 3
    app.settings.rules_i = 0
    assert app.seats.levels(app.settings.rules_i) == 2
    # the menu cycles a seat through Human, easy, good (and perfect where there is a table)
    seen = set()
    app.enter(A.M_MENU)
    app.screen.cursor = bytes(app.menu.items[: app.menu.n]).index(bytes((5,)))  # Player 2
    for _ in range(6):
        dev.tap(A.B_OK)
        seen.add(app.settings.seats[1])
    assert seen == {0, 1, 2}
    dev.close()


def test_a_hint_is_the_coachs_best_action_and_marks_the_dice():
    dev = device()
    start(dev, YACHT.index, [0])
    app = dev.app
    ref = coach.Coach(YACHT, StrategyTable(open(os.path.join(DATA, "yacht.fdt"), "rb"), YACHT))
    for _ in range(5):
        dev.tap(A.B_ROLL)
        dev.settle()
        g = app.session.game
        dev.tap(A.B_UP)
        want = ref.hint(g.cards[0], g.dice, g.rolls, g.held)
        assert (app.session.hint_kind, app.session.hint_value) == (want, ref.value)
        assert app.mode == A.M_TURN
        dev.tap(A.B_OK)  # score the best box offered
        dev.tap(A.B_OK)
        dev.settle()
    dev.close()


def test_following_every_hint_loses_nothing_and_other_choices_are_counted():
    dev = device(seed=8)
    start(dev, YACHT.index, [0])
    app = dev.app
    g = app.session.game
    while not g.over:
        dev.tap(A.B_ROLL)
        dev.settle()
        while True:
            dev.tap(A.B_UP)
            if app.session.hint_kind == coach.SCORE:
                box = app.session.hint_value
                break
            for i in range(5):
                if (app.session.hint_value >> i) & 1 != (g.held >> i) & 1:
                    dev.tap(A.B_HOLD1 + i)
            dev.tap(A.B_ROLL)
            dev.settle()
        dev.tap(A.B_OK)
        while app.screen.boxes[app.screen.cursor] != box:
            dev.tap(A.B_DOWN)
        dev.tap(A.B_OK)
        dev.settle()
    prof = app.seats.prof[0]
    assert prof.decisions >= YACHT.n and prof.loss_x100() == 0 and prof.mistakes == 0
    text = "\n".join(oled_lines(dev.board.display, frame=False))
    assert app.mode == A.M_OVER and text.strip()
    dev.close()

    # a player who always scores the first box offered, after one roll, gives points away
    dev = device(seed=8)
    start(dev, YACHT.index, [0])
    app = dev.app
    while not app.session.game.over:
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_OK)
        app.screen.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()
    assert app.seats.prof[0].loss_x100() > 1000 and app.seats.prof[0].mistakes > 0
    dev.close()


def test_the_perfect_cpu_plays_a_whole_game():
    dev = device()
    start(dev, YACHT.index, [3, 2, 1])
    app = dev.app
    for _ in range(100000):
        if app.session.game.over:
            break
        dev.step()
    assert app.session.game.over and app.mode == A.M_OVER
    assert list(app.seats.seated[:3]) == [3, 2, 1]  # perfect, good and easy played it to the end
    dev.close()


def test_with_room_the_coach_stays_after_game_over_and_the_next_game_reuses_it():
    """So it does on a tight heap when nothing needs its room: no records to write (no store here)."""
    dev = device(seed=8)
    start(dev, YACHT.index, [0, 3, 2])
    app = dev.app
    table_coach, good = app.seats.coach, app.seats.players[2]
    assert good.coach.groups is table_coach.groups  # one set of final-roll groups for both coaches
    play_first_boxes(dev)
    assert app.mode == A.M_OVER and app.seats.coach is table_coach and app.seats.players[2] is good
    dev.tap(A.B_ROLL)  # again
    dev.settle()
    assert app.seats.coach is table_coach and app.seats.players[2] is good and app.seats.players[1].coach is table_coach
    dev.close()


def test_game_over_keeps_the_coach_for_the_records_and_the_next_game_reuses_its_arrays(tmp_path):
    from host_sim.sim import FileStore

    dev = SimDevice(dice=Dice(SeededBytes(8)), cpu_step_ms=20, tables=DATA, store=FileStore(str(tmp_path / "s.sav")))
    start(dev, YACHT.index, [0, 3])
    app = dev.app
    table_coach, groups, work = app.seats.coach, app.seats.coach.groups, app.seats.coach.arrays
    play_first_boxes(dev)
    assert app.mode == A.M_INITIALS and app.seats.coach is table_coach  # the records are written beside the coach
    f = open(os.path.join(DATA, "yacht.fdt"), "rb")
    ref = coach.Coach(YACHT, StrategyTable(f, YACHT))
    pr = app.seats.prof[0]
    assert pr.loss_x100() == ref.to_points_x100(pr.loss * coach.WIDE) > 1000
    f.close()
    for _ in range(3):
        dev.tap(A.B_OK)  # initials AAA
    assert app.mode == A.M_OVER
    dev.tap(A.B_ROLL)  # again
    dev.settle()
    assert not app.session.game.over and app.seats.coach is table_coach and app.seats.players[1].level == 3
    assert app.seats.coach.groups is groups and groups[0] is YACHT and app.seats.coach.arrays is work
    assert app.seats.prof[0].loss_x100() == 0
    dev.close()


def test_without_a_table_up_opens_the_scorecard_and_there_is_no_proficiency():
    dev = device(tables=None)
    start(dev, YACHT.index, [0])
    app = dev.app
    assert app.seats.coach is None and app.seats.prof[0] is None and app.seats.levels(app.settings.rules_i) == 2
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_UP)
    assert app.mode == A.M_CARD and app.session.hint_kind == 0
    dev.close()


def test_a_corrupt_table_is_reported_and_the_game_goes_on_without_it(tmp_path):
    shutil.copy(os.path.join(DATA, "yacht.fdt"), tmp_path / "yacht.fdt")
    (tmp_path / "yacht.fdt").write_bytes(b"FDT0 not a table" * 10)
    dev = device(tables=str(tmp_path))
    start(dev, YACHT.index, [0, 3])  # a perfect seat, but the table is bad
    app = dev.app
    assert app.seats.coach is None and app.seats.tables_mask == 0
    assert app.settings.seats[1] == 2 and app.seats.players[1].level == 2  # degraded to "good"
    assert app.toast == 12  # "Strategy table bad"
    dev.close()


def group_slices(rs):
    """Slices of work() a coach takes to build the final-roll groups of rs (before its first turn solve)."""
    from fivedice.good_valuer import HeuristicValuer
    from fivedice.scorecard import Card

    c = coach.Coach(rs, HeuristicValuer(rs))
    n = 0
    while c.groups[0] is not rs:
        assert not c.work(Card(rs))
        n += 1
    return n


def solve_slices(c, card):
    """Slices of work() a coach takes to solve `card`'s turn from the start (groups built)."""
    c._phase = -1
    n = 1
    while not c.work(card):
        n += 1
    return n


def _count_work(c, log):
    real = c.work

    def work(card):
        log.append(c._phase)
        return real(card)

    c.work = work


def test_a_turn_is_solved_one_slice_a_loop_pass_from_its_start_so_the_hint_is_ready_at_once():
    """Issue #10 part 3: the coach's turn solve runs in slices across loop passes (buttons, animation and sound
    live in between), starting as the human's turn begins; a hint pressed after the roll needs no solve."""
    dev = device()
    app = dev.app
    app.settings.rules_i = YACHT.index
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # CPU perfect, on the same coach
    app.session.new_game()
    log = []
    _count_work(app.seats.coach, log)
    assert app.session.thinking and not app.seats.coach.solved
    passes = 0
    while app.session.thinking:
        before = len(log)
        dev.step()
        passes += 1
        assert len(log) - before <= 1  # one slice a pass at most
    # the new game's first frame (issue 24), the groups' slices, then the turn's (issue 34: 13)
    c = app.seats.coach
    g = app.session.game
    # (+1: the pass that finds the turn solved sets par, and shows a hint asked meanwhile)
    turn = passes - 1 - group_slices(YACHT) - 1
    assert c.solved and turn == solve_slices(c, g.cards[g.player]) and 9 < turn <= 16
    dev.tap(A.B_ROLL)
    dev.settle()
    n = len(log)
    dev.tap(A.B_UP)
    assert app.session.hint_kind != 0
    assert len(log) > n and all(ph == coach._SOLVED for ph in log[n:])  # the hint found the turn solved: nothing redone


def test_the_cpu_moves_only_once_its_turn_is_solved_and_its_dots_step_meanwhile():
    dev = device()
    app = dev.app
    app.settings.rules_i = YACHT.index
    app.settings.players = 2
    app.settings.seats[0] = 3  # seat 1: CPU perfect
    app.settings.seats[1] = 0
    app.session.cpu_step_ms = 0  # no pacing: only the solve holds the CPU back
    app.session.new_game()
    g = app.session.game
    f0 = dev.frames
    steps = 0
    while app.session.thinking:
        assert g.rolls == 0  # not a move before its turn is solved
        dev.step()
        steps += 1
    # a pass draws a frame (the first one's, "CPU plays" and its dots) or works: a slice a pass, the final-roll
    # groups' then the turn solve's (the device has no store: no save)
    frames = dev.frames - f0
    turn = solve_slices(app.seats.coach, g.cards[g.player])
    # (+1: the pass that finds the turn solved)
    assert app.store is None and frames >= 2 and steps == frames + group_slices(YACHT) + turn + 1
    app.session.cpu_step_ms = 1000  # a paced CPU turn: "CPU playing" with its dots stepping, not a frozen screen
    app.session.cpu_at = dev.now() + 1000
    dots = set()
    for _ in range(200):
        dev.step()
        if app.session.game.player == 0:
            dots.add(app.session.dots)
    assert dots == {0, 1, 2, 3}


def test_a_rarely_used_screen_opened_mid_game_leaves_the_coach_and_the_counts_as_they_were():
    from fivedice.screens import menu as menu_screen

    dev = device(seed=5)
    start(dev, YACHT.index, [0, 3])
    app = dev.app
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_OK)  # score the first box offered after one roll: a decision the meter counts
    app.screen.cursor = 0
    dev.tap(A.B_OK)
    dev.settle()  # the perfect CPU's turn
    assert app.session.game.player == 0 and app.seats.prof[0].decisions == 1
    counted = (app.seats.prof[0].loss, app.seats.prof[0].decisions)
    table_coach, cpu = app.seats.coach, app.seats.players[1]
    for item in (menu_screen.I_RECORDS, menu_screen.I_HELP, menu_screen.I_TEST):
        dev.tap(A.B_BACK)  # the menu
        app.screen.cursor = bytes(app.menu.items[: app.menu.n]).index(bytes((item,)))
        dev.tap(A.B_OK)
        assert app.mode not in (A.M_MENU, A.M_TURN)
        dev.tap(A.B_BACK)
        if app.mode != A.M_MENU:  # the self-test takes BACK twice
            dev.tap(A.B_BACK)
        assert app.mode == A.M_MENU
        dev.tap(A.B_BACK)  # resume
        assert app.mode == A.M_TURN and app.seats.coach is table_coach and app.seats.players[1] is cpu
        assert app.seats.prof[0].coach is app.seats.coach and (app.seats.prof[0].loss, app.seats.prof[0].decisions) == counted
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_UP)
    assert app.session.hint_kind in (coach.KEEP, coach.SCORE)
    dev.close()


def test_cpu_levels_keeps_the_easy_cpus_action_codes():
    from fivedice import cpu, cpu_levels

    assert (cpu_levels.ROLL, cpu_levels.SCORE) == (cpu.ROLL, cpu.SCORE)  # copies: fivedice.cpu loads on demand


def _menu_to(dev, item):
    app = dev.app
    idx = bytes(app.menu.items[: app.menu.n]).index(bytes((item,)))
    while app.screen.cursor != idx:
        dev.tap(A.B_DOWN)


class _NoMoreImports:
    """A sys.meta_path finder that, armed, refuses every fivedice module not loaded yet (the save checks
    excepted)."""

    armed = False

    def find_spec(self, name, path=None, target=None):
        if self.armed and name.startswith("fivedice.") and name != "fivedice.savefile.decode":
            raise ImportError("imported after start-up: " + name)
        return None


def test_what_a_game_needs_is_loaded_at_start_up_not_at_new_game_nor_in_a_resume(monkeypatch, tmp_path):
    """Issue 20: the coach, the table reader and the meters are there once the app is built, a CPU level's code
    once a menu seat names it; new games and a resume (a restart that reads the save) import nothing more."""
    import sys

    from host_sim.sim import FileStore

    import fivedice

    for name in ("cpu", "good_valuer", "coach", "strategy_table", "proficiency", "cpu_levels", "keeps", "app"):
        monkeypatch.delitem(sys.modules, "fivedice." + name, raising=False)
        monkeypatch.delattr(fivedice, name, raising=False)
    import fivedice.app as fresh

    monkeypatch.setattr(A, "App", fresh.App)
    from fivedice.screens import menu as M

    path = str(tmp_path / "s.sav")
    dev = SimDevice(dice=Dice(SeededBytes(8)), cpu_step_ms=20, tables=DATA, store=FileStore(path))
    guard = _NoMoreImports()
    monkeypatch.setattr(sys, "meta_path", [guard] + sys.meta_path)
    app = dev.app
    app.settings.rules_i = YACHT.index
    for kinds in ([0, 3, 2, 1], [1, 2], [2, 0, 3]):
        guard.armed = False  # the menu may load a level's code as a seat names it
        if app.mode != A.M_MENU:
            dev.tap(A.B_BACK)
        while app.settings.players != len(kinds):
            _menu_to(dev, M.I_PLAYERS)
            dev.tap(A.B_OK)
        for p, k in enumerate(kinds):  # each seat chosen in the menu: its level's code loads there
            _menu_to(dev, M.I_P1 + p)
            while app.settings.seats[p] != k:
                dev.tap(A.B_OK)
        _menu_to(dev, M.I_NEW)
        guard.armed = True  # "New game" and the game: nothing more
        dev.tap(A.B_OK)
        if app.mode == A.M_MENU:
            dev.tap(A.B_OK)  # "New game? OK again"
        assert bytes(app.seats.seated[:len(kinds)]) == bytes(kinds)
        for _ in range(300):
            dev.step()
    dev.close()
    for name in ("cpu", "good_valuer"):  # a restart: these load again only as the save names them
        monkeypatch.delitem(sys.modules, "fivedice." + name, raising=False)
        monkeypatch.delattr(fivedice, name, raising=False)
    guard.armed = False
    dev = SimDevice(dice=Dice(SeededBytes(9)), cpu_step_ms=20, tables=DATA, store=FileStore(path))
    guard.armed = True  # the resume and the game after it: nothing more
    assert dev.app.session.game is not None and dev.app.seats.players[2].level == 3
    dev.tap(A.B_OK)  # resume
    for _ in range(300):
        dev.step()
    assert dev.app.mode == A.M_TURN
    dev.close()


def test_every_coach_shares_the_arrays_the_app_allocated_at_start_up():
    dev = device()
    app = dev.app
    groups, work = app.seats._groups, app.seats._work
    start(dev, YACHT.index, [3, 2])
    assert app.seats.coach.groups is groups and app.seats.coach.arrays is work
    assert app.seats.players[1].coach.groups is groups and app.seats.players[1].coach.arrays is work  # the good CPU's too
    for _ in range(100000):
        if app.session.game.over:
            break
        dev.step()  # the seats take turns on the one set of arrays: each solves its own turn again
    assert app.session.game.over and app.session.game.cards[0].total() > 0 and app.session.game.cards[1].total() > 0
    dev.close()


def test_the_coach_stays_through_game_over():
    dev = device(seed=8)
    start(dev, YACHT.index, [3, 2])
    app = dev.app
    table_coach = app.seats.coach
    for _ in range(100000):
        if app.session.game.over:
            break
        dev.step()
    assert app.mode == A.M_OVER and app.seats.coach is table_coach and app.seats.players[0] is not None
    dev.close()


def test_a_seat_stepped_through_the_levels_in_the_menu_keeps_only_the_code_of_the_level_it_stops_at(monkeypatch):
    """Easy, good, perfect: as the cursor leaves the seat line, the perfect CPU's seat needs neither the easy
    CPU's code nor the good CPU's valuer, and neither stays loaded (on a CircuitPython Pico 4 KB)."""
    import sys

    import fivedice
    from fivedice.screens import menu as M

    for name in ("cpu", "good_valuer"):  # as at a board's start-up: not loaded yet
        monkeypatch.delitem(sys.modules, "fivedice." + name, raising=False)
        monkeypatch.delattr(fivedice, name, raising=False)
    dev = device()
    app = dev.app
    app.settings.rules_i = YACHT.index
    assert app.settings.seats[1] == 1 and "fivedice.cpu" in sys.modules  # P2 "CPU easy" at start-up: its code is there
    _menu_to(dev, M.I_P1 + 1)
    dev.tap(A.B_OK)  # CPU good
    dev.tap(A.B_OK)  # CPU perfect
    assert app.settings.seats[1] == 3
    dev.tap(A.B_DOWN)  # the cursor leaves the line
    assert "fivedice.cpu" not in sys.modules and "fivedice.good_valuer" not in sys.modules
    dev.tap(A.B_UP)
    dev.tap(A.B_HOLD1)  # back to CPU good
    _menu_to(dev, M.I_NEW)
    assert "fivedice.good_valuer" in sys.modules
    dev.tap(A.B_OK)
    assert app.mode == A.M_TURN and app.seats.players[1].level == 2
    dev.close()


class MemStore:
    """A store holding one save (the settings, no game), read at start-up."""

    def __init__(self, data):
        self.data = data

    def read(self):
        return self.data

    def write(self, data):
        self.data = bytes(data)


def _booted_on(rules_i, kinds):
    """A device whose saved settings name rules_i and seats `kinds` (no game in progress)."""
    app = A.App(SimDevice().board.display, tables=DATA)
    app.settings.rules_i = rules_i
    app.settings.players = len(kinds)
    for p, k in enumerate(kinds):
        app.settings.seats[p] = k
    return SimDevice(dice=Dice(SeededBytes(3)), cpu_step_ms=20, tables=DATA, store=MemStore(app.session.save_bytes()))


def test_the_menu_builds_the_groups_of_the_rule_set_it_shows_and_the_new_game_solves_at_once():
    """Issue 24: the final-roll groups of the menu's rule set are built while the menu shows, a slice a pass
    (its rule set changed twice here), so "New game" starts the turn solve at once; the hints are the coach's."""
    dev = _booted_on(YACHT.index, [0, 3])
    app = dev.app
    assert app.mode == A.M_MENU and app.session.game is None and app.session.warming
    log = []
    real_step = app.seats._table_coach._group_step

    def group_step():
        log.append(app.seats._table_coach.rs)
        real_step()

    app.seats._table_coach._group_step = group_step
    dev.run(2000)
    assert app.seats._groups[0] is YACHT and not app.session.warming and len(log) == group_slices(YACHT)
    del log[:]
    dev.tap(A.B_DOWN)  # the rules line
    dev.tap(A.B_OK)  # yacht -> yahtzee (no table here: the perfect seat becomes good)
    yahtzee = rules.get("yahtzee")
    assert app.settings.rules_i == yahtzee.index and app.settings.seats[1] == 2
    dev.run(3000)
    assert app.seats._groups[0] is yahtzee and log == [yahtzee] * group_slices(yahtzee)
    for _ in range(len(rules.ALL) - 1):
        dev.tap(A.B_OK)  # round to yacht again
    assert app.settings.rules_i == YACHT.index
    dev.run(2000)
    assert app.seats._groups[0] is YACHT
    app.screen.cursor = 0
    dev.tap(A.B_OK)  # "New game": human + good CPU, on the groups built in the menu
    assert app.mode == A.M_TURN and app.session.game.rs is YACHT and app.seats.coach.rs is YACHT and app.seats.coach.valuer is app.seats.table
    assert app.seats.players[1].coach.rs is YACHT
    ref = coach.Coach(YACHT, StrategyTable(open(os.path.join(DATA, "yacht.fdt"), "rb"), YACHT))
    top = zeros("l", coach.TOP_LEN)
    n = len(log)
    for _ in range(3):  # three of the human's turns: each hint exactly a fresh coach's on its own table
        while app.session.cpu_turn() or app.session.thinking:
            dev.step()
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_UP)
        g = app.session.game
        ref.choices(g.cards[0], g.dice, g.rolls, g.held, top)
        assert app.session.hint_kind != 0 and list(app.session.top3) == list(top)
        dev.tap(A.B_OK)
        app.screen.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()
    assert len(log) == n  # no group slice in the game: the menu had built them
