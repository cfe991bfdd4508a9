"""The small things a player hits, each driven through the simulated buttons:
held dice in the save, "New game" asking again, menu values stepping back, ROLL after game over,
"CPU perfect" saying why it is missing, the coach's game-over line in words, seat lines that never touch."""
import os

import pytest

from fivedice import app as A
from fivedice import session
from fivedice import gfx
from fivedice.font import ADVANCE
from oled_text import Canvas, pixel, shows, shows_right
from fivedice import oled_view as view
from fivedice import rules
from fivedice.screens import menu as menu_screen
from fivedice.rng import Dice, SeededBytes
from fivedice import savefile
from fivedice import messages as msg
from host_sim.device import SimDevice
from host_sim.play import Player
from host_sim.sim import FileStore

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")  # a complete yacht.fdt
YACHT = 5


def menu_to(dev, item):
    app = dev.app
    idx = bytes(app.menu.items[: app.menu.n]).index(bytes((item,)))
    while app.screen.cursor != idx:
        dev.tap(A.B_DOWN)
    return 10 + (idx - app.screen.top) * 8  # the line's y


@pytest.fixture
def dev():
    d = SimDevice(dice=Dice(SeededBytes(7)), cpu_step_ms=20)
    yield d
    d.close()


# 1. held dice --------------------------------------------------------------------------------------------
def test_held_dice_are_restored_with_the_saved_game(tmp_path):
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    pl.do("hold 1 3 4")
    dev.run(session._SAVE_SOON_MS + 100)  # the holds are saved once presses pause
    g = dev.app.session.game
    assert g.held == 0b01101
    before = savefile.encode_game(g)
    dev.close()  # power cut
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    app = dev2.app
    assert savefile.encode_game(app.session.game) == before and app.session.game.held == 0b01101
    assert app.px._held == 0b01101  # the pixels light the held dice
    dev2.tap(A.B_OK)  # Resume game
    assert app.mode == A.M_TURN
    assert dev2.tap(A.B_ROLL) == 0
    dev2.settle()
    assert app.session.game.rolls == 2 and app.session.game.held == 0b01101  # the held dice stayed where they were
    dev2.close()


def test_a_hold_is_saved_at_once_when_the_player_leaves_for_the_menu(tmp_path):
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    dev.tap(A.B_HOLD2)
    dev.tap(A.B_BACK)  # within SAVE_SOON_MS of the hold
    assert not dev.app.session.save_due
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    assert dev2.app.session.game.held == 0b00010
    dev2.close()


# 2. New game asks again ----------------------------------------------------------------------------------------
def _game_in_progress(dev):
    pl = Player(dev)
    pl.setup(0, 2)
    pl.do("roll")
    pl.do("score chance")
    dev.tap(A.B_BACK)  # to the menu
    assert dev.app.mode == A.M_MENU and dev.app.session.in_game()
    return dev.app.session.game


def test_new_game_needs_a_second_ok_while_a_game_is_in_progress(dev):
    app = dev.app
    g = _game_in_progress(dev)
    y = menu_to(dev, menu_screen.I_NEW)
    dev.tap(A.B_OK)
    assert app.session.game is g and app.mode == A.M_MENU and app.menu.confirm
    assert shows(dev, b"New game? OK again", 2, y, ink=0)  # on the cursor's bar
    dev.tap(A.B_OK)
    g2 = app.session.game  # a new game (on the old one's objects: nothing allocated at "New game")
    assert app.mode == A.M_TURN and g2.turn == 0 and g2.player == 0 and not any(c.filled for c in g2.cards)


@pytest.mark.parametrize("cancel", [A.B_BACK, A.B_DOWN, A.B_UP])
def test_back_or_moving_away_cancels_new_game_and_keeps_the_game(dev, cancel):
    app = dev.app
    g = _game_in_progress(dev)
    y = menu_to(dev, menu_screen.I_NEW)
    dev.tap(A.B_OK)
    dev.tap(cancel)
    assert app.session.game is g and app.mode == A.M_MENU and not app.menu.confirm
    menu_to(dev, menu_screen.I_NEW)
    assert shows(dev, b"New game  ", 2, y, ink=0)
    dev.tap(A.B_OK)  # asks again: the first OK after a cancel only arms it
    assert app.session.game is g and app.menu.confirm
    dev.tap(A.B_BACK)
    dev.tap(A.B_BACK)  # BACK with nothing to cancel resumes the game
    assert app.mode == A.M_TURN and app.session.game is g


def test_new_game_starts_on_one_ok_when_no_game_is_in_progress(dev):
    app = dev.app
    assert not app.session.in_game()
    menu_to(dev, menu_screen.I_NEW)
    dev.tap(A.B_OK)
    assert app.mode == A.M_TURN and app.session.game is not None


# 3. menu values step both ways --------------------------------------------------------------------------------
def test_hold1_steps_menu_values_back_and_hold5_forward(dev):
    app = dev.app
    menu_to(dev, menu_screen.I_RULES)
    assert app.settings.rules_i == 0
    dev.tap(A.B_HOLD1)
    assert app.settings.rules_i == len(rules.ALL) - 1  # wraps backward
    dev.tap(A.B_HOLD5)
    dev.tap(A.B_HOLD5)
    assert app.settings.rules_i == 1
    dev.tap(A.B_OK)
    assert app.settings.rules_i == 2  # OK and ROLL still step forward
    menu_to(dev, menu_screen.I_PLAYERS)
    assert app.settings.players == 2
    dev.tap(A.B_HOLD1)
    assert app.settings.players == 1
    dev.tap(A.B_HOLD1)
    assert app.settings.players == 4
    dev.tap(A.B_HOLD5)
    assert app.settings.players == 1
    dev.tap(A.B_HOLD5)
    menu_to(dev, menu_screen.I_P1 + 1)
    assert app.settings.seats[1] == 1
    dev.tap(A.B_HOLD1)
    assert app.settings.seats[1] == 0  # CPU easy -> Human
    dev.tap(A.B_HOLD1)
    assert app.settings.seats[1] == 2  # Human -> back past perfect (no table) -> CPU good
    menu_to(dev, menu_screen.I_SOUND)
    dev.tap(A.B_HOLD1)
    assert app.settings.muted
    dev.tap(A.B_HOLD5)
    assert not app.settings.muted


def test_hold_keys_on_an_action_line_do_nothing(dev):
    app = dev.app
    _game_in_progress(dev)
    menu_to(dev, menu_screen.I_NEW)
    for b in (A.B_HOLD1, A.B_HOLD5):
        dev.tap(b)
        assert app.mode == A.M_MENU and not app.menu.confirm


# 4. ROLL after game over -----------------------------------------------------------------------------------------
def _finished(dev, kinds=(1, 2)):
    app = dev.app
    app.settings.rules_i = YACHT
    app.settings.players = len(kinds)
    for p, k in enumerate(kinds):
        app.settings.seats[p] = k
    app.session.new_game()
    for _ in range(40000):
        if app.session.game.over:
            break
        dev.step()
    dev.settle()
    assert app.mode == A.M_OVER
    return app.session.game


def test_roll_after_game_over_starts_a_new_game_with_the_same_rules_and_seats(dev):
    app = dev.app
    g = _finished(dev, (1, 2, 1))
    app.settings.rules_i = 0  # the menu's settings are not what the finished game was played with
    app.settings.players = 1
    assert shows(dev, b"OK card  ROLL again", 0, 56)
    dev.tap(A.B_ROLL)
    g2 = app.session.game
    assert not g2.over and g2.turn == 0 and not any(c.filled for c in g2.cards)
    assert g2.rs.index == YACHT and g2.players == 3 and bytes(app.settings.seats[:3]) == b"\x01\x02\x01"
    assert app.mode == A.M_TURN


def test_back_after_game_over_goes_to_the_menu(dev):
    app = dev.app
    g = _finished(dev)
    dev.tap(A.B_BACK)
    assert app.mode == A.M_MENU and app.session.game is g


# 5. "CPU perfect" without a table -----------------------------------------------------------------------------------
def test_without_a_table_passing_cpu_perfect_says_why_it_is_missing(dev):
    app = dev.app
    assert app.seats.levels(app.settings.rules_i) == 2  # no tables
    menu_to(dev, menu_screen.I_P1)
    seen = []
    for _ in range(3):
        dev.tap(A.B_OK)
        seen.append(app.settings.seats[0])
    assert seen == [1, 2, 0]  # Human, easy, good, (perfect passed over), Human
    assert app.toast == msg.T_NO_PERFECT
    assert shows(dev, b"CPU perfect: no table", 1, 56, ink=0)
    dev.run(A.TOAST_MS + 100)
    assert app.toast == 0
    dev.tap(A.B_OK)  # Human -> easy: nothing passed over, nothing said
    assert app.settings.seats[0] == 1 and app.toast == 0


def test_with_a_table_cpu_perfect_is_offered_and_nothing_is_said():
    dev = SimDevice(dice=Dice(SeededBytes(7)), cpu_step_ms=20, tables=DATA)
    app = dev.app
    menu_to(dev, menu_screen.I_RULES)
    dev.tap(A.B_HOLD1)  # Yahtzee -> Yacht, the rule set with a table
    assert app.settings.rules_i == YACHT and app.seats.levels(app.settings.rules_i) == 3
    menu_to(dev, menu_screen.I_P1 + 1)
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)
    assert app.settings.seats[1] == 3 and app.toast == 0
    # a rule set without a table turns the perfect seat into "good", and says so
    menu_to(dev, menu_screen.I_RULES)
    dev.tap(A.B_OK)
    assert app.settings.rules_i == 0 and app.settings.seats[1] == 2 and app.toast == msg.T_NO_PERFECT
    dev.close()


# 6. the coach's line in words -----------------------------------------------------------------------------------------
class Prof:
    def __init__(self, loss_x100, per_x100):
        self.l, self.p = loss_x100, per_x100
        self.w = [0] * 10  # no costliest decision kept (its turn is 0): the per-decision line

    def loss_x100(self):
        return self.l

    def per_decision_x100(self):
        return self.p


@pytest.mark.parametrize(
    "loss,per,line1",
    [
        (1240, 31, b"P1 gave away 12.4 pts"),
        (4, 1, b"P1 gave away 0.0 pts"),  # rounds to zero: still not "-0"
        (9994, 812, b"P1 gave away 99.9 pts"),
        (9996, 812, b"P1 gave away 100 pts"),  # from 100 up, whole points (21 chars a line at most)
        (99949, 812, b"P1 gave away 999 pts"),
        (12345, 1020, b"P1 gave away 123 pts"),
        (0, 0, b"P1 played perfectly"),
    ],
)
def test_the_coach_line_says_in_words_what_choices_gave_away_and_fits(dev, loss, per, line1):
    app = dev.app
    _finished(dev, (1, 1))
    app.seats.seated[0] = 0  # P1 shown as the human seat the coach watched
    app.seats.prof[0] = Prof(loss, per)
    app.draw()
    y = 8 + 2 * 8  # under the two ranking lines, a page each
    assert len(line1) <= 21
    assert shows(dev, line1, 0, y)
    if loss:
        per_line = b"%d.%02d per decision" % (per // 100, per % 100)
        assert shows(dev, per_line, 12, y + 8)
    for yy in range(y, y + 16):
        assert pixel(dev, 127, yy) == 0  # nothing runs off the screen
    assert shows(dev, b"OK card  ROLL again", 0, 56)


def test_the_coach_line_never_shows_a_minus_sign(dev):
    app = dev.app
    _finished(dev, (1, 1))
    app.seats.seated[0] = 0
    app.seats.prof[0] = Prof(0, 0)
    app.draw()
    cv = Canvas()
    gfx.text(cv, b"-", 0, 0, 1)
    minus = [(x, y) for y in range(8) for x in range(6) if cv.px[y * 128 + x]]
    for y0 in range(10, 56):
        for x0 in range(0, 122):
            if all(pixel(dev, x0 + x, y0 + y) for x, y in minus) and not any(
                pixel(dev, x0 + x, y0 + y) for y in range(8) for x in range(5) if (x, y) not in minus
            ):
                raise AssertionError("a minus sign at %d,%d" % (x0, y0))


def test_two_humans_get_two_coach_lines_each_and_the_keys_line_stays(dev):
    app = dev.app
    _finished(dev, (1, 1))
    app.seats.seated[0] = app.seats.seated[1] = 0
    app.seats.prof[0] = Prof(1240, 31)
    app.seats.prof[1] = Prof(530, 14)
    app.draw()
    assert shows(dev, b"P1 gave away 12.4 pts", 0, 24)  # in seat order, a page a line
    assert shows(dev, b"0.31 per decision", 12, 32)
    assert shows(dev, b"P2 gave away 5.3 pts", 0, 40)
    assert shows(dev, b"0.14 per decision", 12, 48)
    assert shows(dev, b"OK card  ROLL again", 0, 56)


# 7. seat lines never touch ----------------------------------------------------------------------------------------
def test_a_seat_line_keeps_a_blank_character_between_label_and_value(dev):
    app = dev.app
    app.settings.players = 4
    app.menu.build(app)
    for k in range(4):
        for p in range(4):
            app.settings.seats[p] = k
        for p in range(4):
            y = menu_to(dev, menu_screen.I_P1 + p)
            assert shows(dev, b"P%d" % (p + 1), 8, y, ink=0)
            assert shows_right(dev, view.SEATS[k], 126, y, ink=0)
            inked = [x for x in range(128) if any(pixel(dev, x, yy) == 0 for yy in range(y, y + 8))]
            gaps = [b - a - 1 for a, b in zip(inked, inked[1:])]
            assert max(gaps) >= ADVANCE, (k, p)  # at least a whole blank character between the two
        dev.tap(A.B_UP)


# a seat changed in the menu during a game ---------------------------------------------------------------------
def test_a_seat_changed_in_the_middle_of_a_game_is_the_next_games_and_the_game_keeps_its_own(dev):
    app = dev.app
    g = _game_in_progress(dev)  # two humans, P2 to play
    menu_to(dev, menu_screen.I_P1 + 1)
    dev.tap(A.B_OK)  # P2: Human -> CPU easy, for the next game
    assert app.settings.seats[1] == 1 and app.toast == msg.T_NEXT_GAME
    dev.tap(A.B_BACK)  # resume
    assert app.mode == A.M_TURN and app.seats.players[1] is None and not app.session.cpu_turn()
    dev.run(3000)
    assert app.session.game is g and g.player == 1 and not g.cards[1].filled  # P2 is still a human: nobody played
    dev.tap(A.B_BACK)
    menu_to(dev, menu_screen.I_NEW)
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)  # "New game? OK again"
    assert app.session.game.turn == 0 and not app.session.game.cards[0].filled  # the new game
    assert app.seats.players[1] is not None and bytes(app.seats.seated[:2]) == b"\x00\x01"


def test_with_three_ranked_players_the_coach_still_gets_its_lines_and_the_keys_line_stays(dev):
    app = dev.app
    _finished(dev, (1, 1, 1))
    app.seats.seated[0] = 0
    app.seats.prof[0] = Prof(1240, 31)
    app.draw()
    assert shows(dev, b"P1 gave away 12.4 pts", 0, 32)  # under three ranking lines
    assert shows(dev, b"0.31 per decision", 12, 40)
    assert shows(dev, b"OK card  ROLL again", 0, 56)


def test_flush_save_writes_a_hold_still_waiting(tmp_path):
    """What the simulator's quit (and a board about to sleep) calls: the last second's holds are not lost."""
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    Player(dev).setup(0, 1)
    Player(dev).do("roll")
    dev.tap(A.B_HOLD5)
    assert dev.app.session.save_due
    dev.app.session.flush_save()
    assert not dev.app.session.save_due
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    assert dev2.app.session.game.held == 0b10000
    dev2.close()
