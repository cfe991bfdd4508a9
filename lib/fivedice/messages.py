"""The messages the app shows on its message line, by code: 1-9 the short forms of fivedice.game's
refusals (game.REASONS, the same codes), then the app's own. An owner reports a code (app.message,
Seats' say, a store's flag); the view draws TEXTS[code] (oled_view.MESSAGES)."""
from fivedice.compat import const

T_SAVE_BAD = const(10)
T_SAVE_FAILED = const(11)
T_TABLE_BAD = const(12)
T_SAVE_CRASHED = const(13)
T_NO_PERFECT = const(14)
T_RECORDS_BAD = const(15)
T_BATTERY_LOW = const(16)
T_NEXT_GAME = const(17)
T_SAVE_OLDER = const(18)  # the nvm log met a bad record: the saves it could read are older
T_RECORDS_OLDER = const(19)  # ... the newest records it could read may be older
TEXTS = (
    b"",
    b"No rolls left: score",
    b"Roll first",
    b"Box already filled",
    b"Joker forbids that",
    b"Roll before scoring",
    b"Game over",
    b"No such die",
    b"No such box",
    b"All dice held",
    b"Save unreadable: kept",
    b"Could not save",
    b"Strategy table bad",
    b"Save crashed: kept",
    b"CPU perfect: no table",
    b"Records bad: kept",
    b"Battery low",
    b"For the next game",
    b"Save damaged: older",
    b"Records bad: older",
)
