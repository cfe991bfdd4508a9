"""The messages the app shows on its message line, by code: 1-9 the short forms of fivedice.game's
refusals (game.REASONS, the same codes), then the app's own. An owner reports a code (app.message,
Seats' say, a store's flag); the view draws TEXTS[code] (oled_view.MESSAGES)."""
# (plain ints: no module folds another's const, so const() would only cost a name here)
T_SAVE_BAD = 10
T_SAVE_FAILED = 11
T_TABLE_BAD = 12
T_SAVE_CRASHED = 13
T_NO_PERFECT = 14
T_RECORDS_BAD = 15
T_BATTERY_LOW = 16
T_NEXT_GAME = 17
T_SAVE_OLDER = 18  # the nvm log met a bad record: the saves it could read are older
T_RECORDS_OLDER = 19  # ... the newest records it could read may be older
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
