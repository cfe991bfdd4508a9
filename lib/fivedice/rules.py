"""Rule sets as data: box ids, how each box scores, bonuses and the Joker/Trump Card policy.

A rule set is a table, not a class tree: `kinds[i]` says how box i scores, `arg[i]` and
`pts[i]` parametrise it. scoring.py interprets the tables without allocating.
"""
from fivedice.compat import const

# How a box scores (kinds[i]); arg[i] and pts[i] give its parameters.
UPPER = const(0)  # arg = face; sum of the dice showing that face
SUM_IF_KIND = const(1)  # arg = n; total of all dice if n or more match (Hasbro 3K/4K)
KIND_MATCH = const(2)  # arg = n; the n matching dice only (Yatzy 3K/4K, Yacht four of a kind)
ONE_PAIR = const(3)  # the highest pair, both dice
TWO_PAIRS = const(4)  # two pairs of different faces, all four dice
FULL_HOUSE = const(5)  # three of one face and two of another: pts, or the total if pts == 0
RUN = const(6)  # arg = length; any run that long scores pts (Hasbro straights)
EXACT_STRAIGHT = const(7)  # arg = lowest face; exactly arg..arg+4 scores pts (Yum, Yatzy, Yacht)
FIVE_KIND = const(8)  # all five alike: pts
CHANCE = const(9)  # total of all dice
HIGH = const(10)  # arg = minimum total; Yum's High: the total, and above a filled Low
LOW = const(11)  # arg = minimum total; Yum's Low: the total, and below a filled High

# What happens to five of a kind once the five-of-a-kind box is filled.
JOKER_NONE = const(0)  # nothing special (Yum, Yatzy, Yacht)
JOKER_FORCED = const(1)  # Hasbro forced Joker / forced Trump Card
# Free-choice Trump Card: any open box; FH/SS/LS full only if the upper box is used
JOKER_FREE = const(2)

MAX_BOXES = const(15)


class RuleSet:
    """One rule set's tables. Instances are built once at import; treat them as read-only."""

    def __init__(
        self,
        index,
        rid,
        title,
        names,
        kinds,
        arg,
        pts,
        upper_threshold,
        upper_bonus,
        joker,
        extra_bonus,
    ):
        self.index = index
        self.id = rid
        self.title = title
        self.names = names
        self.n = len(names)
        self.kinds = bytes(kinds)
        self.arg = bytes(arg)
        self.pts = bytes(pts)
        self.upper_threshold = upper_threshold
        self.upper_bonus = upper_bonus
        self.joker = joker
        self.extra_bonus = extra_bonus  # points for each further five of a kind (0 = none)
        self.five_box = -1
        self.high_box = -1
        self.low_box = -1
        self.upper_box = bytearray(7)  # upper_box[face] = box index of that face's upper box
        upper_mask = 0
        for i in range(self.n):
            k = self.kinds[i]
            if k == UPPER:
                upper_mask |= 1 << i
                self.upper_box[self.arg[i]] = i
            elif k == FIVE_KIND:
                self.five_box = i
            elif k == HIGH:
                self.high_box = i
            elif k == LOW:
                self.low_box = i
        self.upper_mask = upper_mask
        self.all_mask = (1 << self.n) - 1
        self.lower_mask = self.all_mask & ~upper_mask

    def box(self, name):
        """Index of box `name`; ValueError with a plain message if this rule set has no such box."""
        for i in range(self.n):
            if self.names[i] == name:
                return i
        raise ValueError(
            "rule set %s has no box %r (boxes: %s)" % (self.id, name, ", ".join(self.names))
        )

    def __repr__(self):
        return "<RuleSet %s>" % self.id


_UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")
_UPPER_K = (UPPER,) * 6
_UPPER_A = (1, 2, 3, 4, 5, 6)
_UPPER_P = (0,) * 6


def _hasbro(index, rid, title, five_name, joker):
    # ones..sixes three_kind four_kind full_house small_straight large_straight <five> chance
    return RuleSet(
        index,
        rid,
        title,
        _UPPER_NAMES
        + (
            "three_kind",
            "four_kind",
            "full_house",
            "small_straight",
            "large_straight",
            five_name,
            "chance",
        ),
        _UPPER_K + (SUM_IF_KIND, SUM_IF_KIND, FULL_HOUSE, RUN, RUN, FIVE_KIND, CHANCE),
        _UPPER_A + (3, 4, 0, 4, 5, 0, 0),
        _UPPER_P + (0, 0, 25, 30, 40, 50, 0),
        63,
        35,
        joker,
        100,
    )


YAHTZEE = _hasbro(0, "yahtzee", "Yahtzee (Hasbro)", "yahtzee", JOKER_FORCED)
FIVEOK_FORCED = _hasbro(1, "fiveok_forced", "5 of a Kind, forced Trump", "five_kind", JOKER_FORCED)
FIVEOK_FREE = _hasbro(2, "fiveok_free", "5 of a Kind, free Trump", "five_kind", JOKER_FREE)

YUM = RuleSet(
    3,
    "yum",
    "Yum (Parker Brothers)",
    _UPPER_NAMES + ("high_straight", "low_straight", "high", "low", "full_house", "yum"),
    _UPPER_K + (EXACT_STRAIGHT, EXACT_STRAIGHT, HIGH, LOW, FULL_HOUSE, FIVE_KIND),
    _UPPER_A + (2, 1, 22, 21, 0, 0),
    _UPPER_P + (20, 15, 0, 0, 25, 30),
    63,
    25,
    JOKER_NONE,
    0,
)

YATZY = RuleSet(
    4,
    "yatzy",
    "Yatzy (Scandinavian)",
    _UPPER_NAMES
    + (
        "one_pair",
        "two_pairs",
        "three_kind",
        "four_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yatzy",
    ),
    _UPPER_K
    + (
        ONE_PAIR,
        TWO_PAIRS,
        KIND_MATCH,
        KIND_MATCH,
        EXACT_STRAIGHT,
        EXACT_STRAIGHT,
        FULL_HOUSE,
        CHANCE,
        FIVE_KIND,
    ),
    _UPPER_A + (0, 0, 3, 4, 1, 2, 0, 0, 0),
    _UPPER_P + (0, 0, 0, 0, 15, 20, 0, 0, 50),
    63,
    50,
    JOKER_NONE,
    0,
)

YACHT = RuleSet(
    5,
    "yacht",
    "Yacht (classic)",
    _UPPER_NAMES
    + ("full_house", "four_kind", "little_straight", "big_straight", "choice", "yacht"),
    _UPPER_K + (FULL_HOUSE, KIND_MATCH, EXACT_STRAIGHT, EXACT_STRAIGHT, CHANCE, FIVE_KIND),
    _UPPER_A + (0, 4, 1, 2, 0, 0),
    _UPPER_P + (0, 0, 30, 30, 0, 50),
    0,
    0,
    JOKER_NONE,
    0,
)

ALL = (YAHTZEE, FIVEOK_FORCED, FIVEOK_FREE, YUM, YATZY, YACHT)
IDS = tuple(r.id for r in ALL)


def get(rid):
    """The rule set with id `rid`; ValueError with a plain message if there is none."""
    for r in ALL:
        if r.id == rid:
            return r
    raise ValueError("unknown rule set %r (known: %s)" % (rid, ", ".join(IDS)))
