"""Every menu value (rules, players, seats, sound, dim, sleep) in one object: its setters apply the
value and mark the save due, so a choice made in the menu survives the next reset. The game in
progress keeps its own rules and seats (Seats.seated): these are the next game's."""
# Their bytes in the save record: fivedice.savefile (written), savefile.decode (read, checked).
from fivedice.compat import const


# A seat's kind (the menu's and the save's seat value), which is also a CPU player's level: their
# one home.
HUMAN = const(0)
EASY = const(1)  # the greedy heuristic (fivedice.cpu)
GOOD = const(2)  # the coach on a table-free estimate (fivedice.good_valuer)
PERFECT = const(3)  # the coach on the strategy table


class Settings:
    def __init__(self, pw, snd, changed):
        """pw: the app's power.Power (it runs the dim and sleep timers); snd: its sounds.Sounder or
        None; changed: called after every setter (the app saves soon)."""
        self._pw = pw
        self._snd = snd
        self._changed = changed
        self.rules_i = 0
        self.players = 2
        # per seat: its kind (HUMAN...PERFECT); P2-P4 CPU easy
        self.seats = bytearray(b"\x00\x01\x01\x01")
        self.muted = False
        self.dim_i = 0
        self.sleep_i = 0

    def set(self, name, v):
        """Setting `name` ("rules_i", "players", "muted", "dim_i" or "sleep_i") is now v: applied,
        the save due."""
        setattr(self, name, v)
        self.apply()
        self._changed()

    def set_seat(self, p, k):
        """Seat p (0-3) is of kind k (HUMAN...PERFECT) from the next game on; the save due."""
        self.seats[p] = k
        self._changed()

    def apply(self):
        """The power timers and the sounder take the dim, sleep and sound values (after a setter or
        a save read)."""
        self._pw.dim_i = self.dim_i
        self._pw.sleep_i = self.sleep_i
        if self._snd is not None:
            self._snd.mute = self.muted
