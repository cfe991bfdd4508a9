"""The turn and game machine: 1-4 players, three rolls a turn, hold/release, score one legal box.

Every action returns OK (0) or a refusal code; `REASONS[code]` is the plain message. A refused
action changes nothing. Actions allocate nothing (dice in a bytearray, held dice as a bitmask).
"""
from fivedice.compat import const
from fivedice import scoring
from fivedice.scorecard import Card

OK = const(0)
NO_ROLLS_LEFT = const(1)
NOT_ROLLED = const(2)
BOX_FILLED = const(3)
BOX_FORBIDDEN = const(4)
SCORE_BEFORE_ROLL = const(5)
GAME_OVER = const(6)
BAD_DIE = const(7)
BAD_BOX = const(8)
ALL_HELD = const(9)

REASONS = (
    "ok",
    "no rolls left this turn: score a box",
    "roll first: there are no dice to hold yet",
    "that box is already filled",
    "the Joker/Trump Card rule forbids that box for this roll",
    "roll before scoring",
    "the game is over",
    "dice are numbered 1 to 5",
    "no such box in this rule set",
    "every die is held: release one to roll",
)

ROLLS_PER_TURN = const(3)
MAX_PLAYERS = const(4)
ALL_DICE = const(0x1F)

# What a player decides, the one home of these codes: a CPU's decide() returns ROLL (after setting
# `keep`) or SCORE (after setting `box`); the coach's hint() NONE, KEEP (hold `value`, roll) or
# SCORE (score box `value`).
NONE = const(0)
ROLL = const(1)
KEEP = const(1)
SCORE = const(2)


class Game:
    """A game of `players` players under rule set `rs`, with faces from `dice` (an rng.Dice or
    ScriptedFaces)."""

    def __init__(self, rs, players, dice):
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError("players must be 1 to %d, not %r" % (MAX_PLAYERS, players))
        self.rs = rs
        self.players = players
        self.cards = tuple(Card(rs) for _ in range(players))
        self.source = dice
        self.dice = bytearray(5)  # faces of the current roll; 0 before the first roll of a turn
        self.reset()

    def restart(self, rs):
        """The same players' next game, under rule set rs, on this game's objects: nothing is
        allocated (a new Game mid-heap could take the largest free block a board has)."""
        self.rs = rs
        for c in self.cards:
            c.rs = rs  # a card has room for any rule set's boxes (MAX_BOXES)
        self.reset()

    def reset(self):
        for c in self.cards:
            c.clear()
        self.player = 0
        self.rolls = 0  # rolls taken this turn
        self.held = 0  # bit i set = die i held
        self.turn = 0  # turns completed by all players together
        self.over = False
        self.last_box = -1
        self.last_points = 0
        self.last_bonus = 0
        for i in range(5):
            self.dice[i] = 0

    # -- queries -----------------------------------------------------------
    def card(self):
        return self.cards[self.player]

    def rolls_left(self):
        return ROLLS_PER_TURN - self.rolls

    def legal(self):
        """Mask of boxes the current dice may be scored in (0 before the first roll)."""
        if self.rolls == 0 or self.over:
            return 0
        scoring.load(self.dice)
        return scoring.legal(self.rs, self.cards[self.player])

    def preview(self, out):
        """out[i] = points for each legal box, -1 otherwise; returns the legal mask."""
        if self.rolls == 0 or self.over:
            for i in range(self.rs.n):
                out[i] = -1
            return 0
        scoring.load(self.dice)
        return scoring.preview(self.rs, self.cards[self.player], out)

    def bonus_now(self):
        """The extra five-of-a-kind bonus the current dice would earn when scored."""
        if self.rolls == 0 or self.over:
            return 0
        scoring.load(self.dice)
        return scoring.extra_bonus(self.rs, self.cards[self.player])

    # -- actions -----------------------------------------------------------
    def check_roll(self):
        """The refusal code a roll now would get, or OK."""
        if self.over:
            return GAME_OVER
        if self.rolls >= ROLLS_PER_TURN:
            return NO_ROLLS_LEFT
        if self.rolls and self.held == ALL_DICE:
            return ALL_HELD
        return OK

    def roll(self):
        r = self.check_roll()
        if r:
            return r
        held = self.held if self.rolls else 0
        src = self.source
        for i in range(5):
            if not (held >> i) & 1:
                self.dice[i] = src.face()
        self.held = held
        self.rolls += 1
        return OK

    def hold(self, die):
        """Hold die 0..4."""
        return self._set_hold(die, 1)

    def release(self, die):
        return self._set_hold(die, 0)

    def toggle(self, die):
        if not 0 <= die < 5:
            return BAD_DIE
        return self._set_hold(die, 0 if (self.held >> die) & 1 else 1)

    def _set_hold(self, die, on):
        if self.over:
            return GAME_OVER
        if not 0 <= die < 5:
            return BAD_DIE
        if self.rolls == 0:
            return NOT_ROLLED
        if self.rolls >= ROLLS_PER_TURN:
            return NO_ROLLS_LEFT
        if on:
            self.held |= 1 << die
        else:
            self.held &= ~(1 << die)
        return OK

    def check_score(self, box):
        """The refusal code scoring `box` now would get, or OK."""
        if self.over:
            return GAME_OVER
        if not 0 <= box < self.rs.n:
            return BAD_BOX
        if self.rolls == 0:
            return SCORE_BEFORE_ROLL
        card = self.cards[self.player]
        if card.is_filled(box):
            return BOX_FILLED
        scoring.load(self.dice)
        if not (scoring.legal(self.rs, card) >> box) & 1:
            return BOX_FORBIDDEN
        return OK

    def score(self, box):
        """Fill `box` with the current dice's points (plus any extra bonus) and pass the turn."""
        r = self.check_score(box)
        if r:
            return r
        card = self.cards[self.player]
        # check_score loaded the dice
        pts = scoring.points(self.rs, card, box)
        bonus = scoring.extra_bonus(self.rs, card)
        if bonus:
            card.extra += 1
        card.fill(box, pts)
        self.last_box = box
        self.last_points = pts
        self.last_bonus = bonus
        self._next_turn()
        return OK

    def _next_turn(self):
        self.rolls = 0
        self.held = 0
        for i in range(5):
            self.dice[i] = 0
        self.player += 1
        if self.player >= self.players:
            self.player = 0
            self.turn += 1
            if self.cards[0].full():
                self.over = True

    # -- results -----------------------------------------------------------
    def ranking(self, out, totals=None):
        """Write player indexes into `out` best total first (ties keep seat order), and each
        player's total into `totals` by seat (a new list if None: the game-over screen passes its
        own); returns player count. A total is summed once, not at each comparison."""
        n = self.players
        if totals is None:
            totals = [0] * n
        for i in range(n):
            out[i] = i
            totals[i] = self.cards[i].total()
        for i in range(1, n):  # insertion sort, stable
            j = i
            while j > 0 and totals[out[j]] > totals[out[j - 1]]:
                out[j], out[j - 1] = out[j - 1], out[j]
                j -= 1
        return n

    def place(self, player):
        """1-based finishing place; tied players share the better place."""
        t = self.cards[player].total()
        p = 1
        for c in self.cards:
            if c.total() > t:
                p += 1
        return p
