"""The help screen's text per rule set (rules.ALL order), loaded only while the help screen is open.
"""

# Per rule set: (title, the page): every box by its picker label, then the bonuses; lines of 21
# characters at most, one bytes object a page (104 lines as objects held ~2 KB more while open).
HELP = (
    (
        b"YAHTZEE (Hasbro)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Upper 63+: bonus 35\n"
        b"3 of a kind: total\n"
        b"4 of a kind: total\n"
        b"Full house 25\n"
        b"Small straight 30:\n"
        b" 4 dice in a row\n"
        b"Large straight 40:\n"
        b" 5 dice in a row\n"
        b"YAHTZEE 50\n"
        b"Chance: total\n"
        b"Extra Yahtzee: +100\n"
        b"  if box holds 50\n"
        b"Forced Joker: upper\n"
        b" box first, else any\n"
        b" lower box at full\n"
        b" value, else 0 upper",
    ),
    (
        b"5 OF A KIND (forced)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Upper 63+: bonus 35\n"
        b"3 of a kind: total\n"
        b"4 of a kind: total\n"
        b"Full house 25\n"
        b"Small straight 30:\n"
        b" 4 dice in a row\n"
        b"Large straight 40:\n"
        b" 5 dice in a row\n"
        b"5 of a kind 50\n"
        b"Chance: total\n"
        b"5oK bonus +100 if\n"
        b"  the box holds 50\n"
        b"Forced Trump Card:\n"
        b" upper box first,\n"
        b" else a lower box:\n"
        b" FH 25 SS 30 LS 40,\n"
        b" else 0 in an upper",
    ),
    (
        b"5 OF A KIND (free)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Upper 63+: bonus 35\n"
        b"3 of a kind: total\n"
        b"4 of a kind: total\n"
        b"Full house 25\n"
        b"Small straight 30:\n"
        b" 4 dice in a row\n"
        b"Large straight 40:\n"
        b" 5 dice in a row\n"
        b"5 of a kind 50\n"
        b"Chance: total\n"
        b"5oK bonus +100 if\n"
        b"  the box holds 50\n"
        b"Free Trump Card: any\n"
        b" open box; FH/SS/LS\n"
        b" score full only if\n"
        b" the matching upper\n"
        b" box is used, else 0",
    ),
    (
        b"YUM (Parker Bros)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Upper 63+: bonus 25\n"
        b"High straight 2-6 20\n"
        b"Low straight 1-5 15\n"
        b"High: total if 22+\n"
        b"Low: total if 21+\n"
        b" and below your High\n"
        b"A High must beat Low\n"
        b"A 0 sets no limit\n"
        b"Full house 25\n"
        b"YUM 30",
    ),
    (
        b"YATZY (Scandinavian)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Upper 63+: bonus 50\n"
        b"One pair: the pair\n"
        b"Two pairs: 2 faces\n"
        b"3 of a kind: the 3\n"
        b"4 of a kind: the 4\n"
        b"Small straight 1-5 15\n"
        b"Large straight 2-6 20\n"
        b"Full house: total\n"
        b"Chance: total\n"
        b"YATZY 50",
    ),
    (
        b"YACHT (classic)",
        b"Ones Twos Threes\n"
        b"Fours Fives Sixes:\n"
        b" the dice of the face\n"
        b"Full house: total\n"
        b"4 of a kind: the 4\n"
        b" matching dice\n"
        b"Little straight 30:\n"
        b" 1-2-3-4-5\n"
        b"Big straight 30:\n"
        b" 2-3-4-5-6\n"
        b"Choice: total\n"
        b"YACHT 50\n"
        b"No bonuses",
    ),
)
