"""Who plays each seat, for the app's whole life: the CPU players, the table's coach (hints,
proficiency, the perfect CPU), the humans' proficiency meters and the strategy table they read.
Built once at start-up on the coaches' big arrays, seated again for every game, resume and seat
change; a table that fails drops its seats to "good" and the game goes on."""
# The app imports this module when it is built, after the coaches' arrays (fivedice.coach_buffers)
# have the heap start-up left: the coach and the table reader come with it, so nothing is imported
# at "New game" nor inside a resume. A CPU level's own code (easy: fivedice.cpu, good:
# fivedice.good_valuer) comes with need_levels.
from fivedice import lazy as _lazy
from fivedice import coach as _coach
from fivedice import cpu_levels as _cpu_levels
from fivedice import features as _features
from fivedice import messages as _msg
from fivedice import rules as _rules
from fivedice import strategy_table as _strategy_table
from fivedice.proficiency import Proficiency
from fivedice.settings import EASY, GOOD, PERFECT

TABLE_FAILED = "a strategy table read failed"


class Seats:
    def __init__(self, settings, tables, groups, work, say):
        """settings: the app's fivedice.settings.Settings (a perfect seat without its table is made
        good there); tables: the folder holding <rule set id>.fdt, or None; groups, work: the
        coaches' arrays (fivedice.coach_buffers); say(code): show a message (fivedice.messages)."""
        self.settings = settings
        self.tables = tables
        self._groups = groups
        self._work = work
        self._say = say
        self.tables_mask = 0  # bit i = rule set i has a table
        if tables is not None:
            for rs in _rules.ALL:
                if self._table_ok(rs):
                    self.tables_mask |= 1 << rs.index
        self.table = None  # the open strategy table (one rule set's), kept from game to game
        self.table_error = ""  # why the strategy table was dropped, for the firmware's log
        # the coach on the table in this game: hints, proficiency, the perfect CPU
        self.coach = None
        self._table_coach = None  # that coach's object, kept for every game (retarget)
        self._good = None  # the "good" CPU player, kept for every game
        self._levels = 0  # bit k: the code of CPU level k (EASY, GOOD) is loaded (need_levels)
        # per seat
        self._meters = (Proficiency(None), Proficiency(None), Proficiency(None), Proficiency(None))
        self.players = [None, None, None, None]  # per seat: None (human) or a CPU player
        self.seated = bytearray(4)  # per seat: the kind the game in progress was seated with
        self.prof = [None, None, None, None]  # per human seat with a table: its meter (_meters)
        # the table's coach is the proficiency test's while it is open (test_coach)
        self.lent = False

    # -- the strategy tables ---------------------------------------------------------
    def _path(self, rs):
        return self.tables + "/" + rs.id + ".fdt"

    def _table_ok(self, rs):
        try:
            import os

            os.stat(self._path(rs))
            return True
        except (OSError, ImportError):
            return False

    def open_table(self, rs):
        """The strategy table for rs, or None (none on this board, or unreadable: said on screen).
        """
        if self.table is not None:
            if self.table.rs is rs and (self.tables_mask >> rs.index) & 1:
                # the same table again: its buffers, and the blocks already checked, kept
                return self.table
            self.table.f.close()
            self.table = None
        if not (self.tables_mask >> rs.index) & 1:
            return None
        f = None
        try:
            f = open(self._path(rs), "rb")
            self.table = _strategy_table.StrategyTable(f, rs)
        except (OSError, ValueError) as e:
            if f is not None:
                f.close()
            self.table_error = str(e)
            self.tables_mask &= ~(1 << rs.index)
            self._say(_msg.T_TABLE_BAD)
        return self.table

    def table_lost(self, rs, why=TABLE_FAILED):
        """rs's table failed a read (mid-game, or in the proficiency test): "Strategy table bad",
        and no game nor test with it again."""
        self.table_error = why
        if self.table is not None:
            try:
                self.table.f.close()
            except OSError:
                pass
            self.table = None
        self.tables_mask &= ~(1 << rs.index)
        self._say(_msg.T_TABLE_BAD)

    def table_coach(self, rs, table):
        """The coach on `table`: the one kept from the last game, retargeted, else a new one on the
        coaches' arrays (~7 KB on a 32-bit board, reused by every game)."""
        if self._table_coach is None:
            self._table_coach = _coach.Coach(rs, table, self._groups, self._work)
        else:
            self._table_coach.retarget(rs, table)
        return self._table_coach

    def warm(self, rs):
        """One slice of the final-roll groups of rule set rs (the menu's, while no game is on) by
        the table's coach, moved to rs (Coach.warm); True when they are built, or when there is no
        coach to build them or the proficiency test has it."""
        c = self._table_coach
        return c is None or self.lent or c.warm(rs)

    # -- seating -------------------------------------------------------------------
    def seat_game(self, game, seats):
        """Seat the CPU players, the coach and the proficiency meters for `game`, seat p playing
        seats[p] (a seat kind, fivedice.settings); they are the objects of the game before, moved
        on."""
        rs = game.rs
        table = self.open_table(rs)
        self.coach = self.table_coach(rs, table) if table is not None else None
        for p in range(4):
            self.prof[p] = None
            # one player per level, shared by the seats of that level (_level_player)
            self.players[p] = None
            self.seated[p] = 0
        for p in range(game.players):
            self._seat(p, seats[p], rs, table)

    def _seat(self, p, k, rs, table):
        """Seat p plays kind k (HUMAN or a CPU level): a CPU level, or a human whose decisions the
        coach (if any) counts from now on."""
        if k:
            self._seat_cpu(p, k, rs, table)
            return
        if self.coach is not None:
            pr = self._meters[p]
            pr.coach = self.coach
            pr.reset()
            self.prof[p] = pr
        self.seated[p] = 0

    def _seat_cpu(self, p, level, rs, table):
        """Seat p plays CPU `level`; a perfect seat without the table plays good, and the settings
        and the game's seating say so (a saved "perfect" seat on a board without the table, a table
        lost)."""
        if level == PERFECT and table is None:
            level = GOOD
            if self.settings.seats[p] == PERFECT:
                # what the board can seat, not a choice: not saved for it
                self.settings.seats[p] = GOOD
        self.seated[p] = level
        self.players[p] = self._level_player(level, rs, table)

    def _level_player(self, level, rs, table):
        """The CPU player of `level` for this game: the one another seat already plays, else a new
        one."""
        for q in range(4):
            pl = self.players[q]
            if pl is not None and pl.level == level:
                return pl
        if level == GOOD:
            return self._good_player(rs)
        return _cpu_levels.make(rs, level, table, self.coach)

    def _good_player(self, rs):
        """The "good" CPU for rule set rs: one player (and its coach's buffers) for every game."""
        if self._good is None:
            self._good = _cpu_levels.make(rs, GOOD, None, None, self._groups, self._work)
        else:
            self._good.prepare(rs)
        return self._good

    def need_levels(self, seats, n, game):
        """Have loaded the code of the CPU levels the first n of `seats` name and `game` (in
        progress, or None) plays, and no other: when the app is built, when a save is read, as the
        menu's cursor leaves a changed seat line. So "New game" and a resume find it loaded, and a
        level stepped past in the menu does not stay."""
        # seats: as the save's seat bytes, bits 0-1 and 4-5 each a seat kind; easy is fivedice.cpu,
        # good fivedice.good_valuer, perfect needs only the coach
        want = 0
        for i in range(n):
            v = seats[i]
            want |= 1 << (v & 3) | 1 << ((v >> 4) & 3)
        if game is not None:
            for i in range(game.players):
                want |= 1 << self.seated[i]
        e = 1 << EASY
        gd = 1 << GOOD
        if want & e and not self._levels & e:
            _lazy.load("easy")
        if want & gd and not self._levels & gd:
            _lazy.load("good")
        if self._levels & e and not want & e:
            # no seat plays easy: its code goes (nothing holds an easy player now)
            _lazy.drop("easy")
        if self._levels & gd and not want & gd:
            self._good = None  # no seat plays good: the good player and its valuer's code go
            _lazy.drop("good")
        self._levels = want & (e | gd)

    def offers_test(self, rules_i):
        """The menu offers the proficiency test: this install has it (fivedice.features) and rule
        set rules_i a table."""
        return _features.PROFTEST and (self.tables_mask >> rules_i) & 1

    def levels(self, rules_i):
        """CPU levels on offer for rule set rules_i: easy and good, and perfect with its table."""
        return _cpu_levels.available_levels((self.tables_mask >> rules_i) & 1)

    def coach_lost(self, game, why=None):
        """A table read failed mid-game (damaged flash, a truncated copy): "Strategy table bad", the
        coach dropped for the rest of the game (no hints, no proficiency, perfect CPU seats play
        "good"). The save is not touched; the next game of this rule set is offered without the
        table."""
        self.coach = None
        good = None
        for p in range(4):
            self.prof[p] = None
            pl = self.players[p]
            if pl is not None and getattr(pl, "level", -1) == PERFECT:
                if good is None:
                    good = self._good_player(game.rs)
                self.players[p] = good
                self.seated[p] = GOOD
        self.table_lost(game.rs, why or TABLE_FAILED)

    # -- the proficiency test (fivedice.screens.proftest)
    # ---------------------------------------------
    def test_coach(self, rs):
        """The table's coach on rule set rs, lent to the proficiency test until test_done(); None
        when rs has no usable table (said on screen)."""
        table = self.open_table(rs)
        if table is None:
            return None
        self.lent = True
        return self.table_coach(rs, table)

    def test_done(self, game):
        """The test is left: `game` (in progress, or None) has its table and coach back. False if
        the table could not be opened again (the coach is lost: said on screen)."""
        self.lent = False
        if game is None or self.coach is None:
            return True
        table = self.open_table(game.rs)
        if table is None:
            self.coach_lost(
                game, self.table_error or "the strategy table could not be opened again"
            )
            return False
        self.table_coach(game.rs, table)
        return True

    def turn_coach(self, game):
        """The coach that solves the turn of the player to move: a CPU seat's own, or the table's
        for a human (hints, proficiency); None when there is none, or while the proficiency test has
        it."""
        if self.lent:
            return None
        pl = self.players[game.player]
        return self.coach if pl is None else getattr(pl, "coach", None)
