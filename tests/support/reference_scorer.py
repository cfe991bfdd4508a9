"""A deliberately naive reference scorer, written straight from the rule sheets with lists and dicts.

It shares no code with lib/: the property tests check the fast engine against it on every roll,
and the benchmark uses it as the ratio to beat (it runs on MicroPython too, so both runtimes compare).
"""


def Counter(dice):
    counts = {}
    for f in dice:
        counts[f] = counts.get(f, 0) + 1
    return counts

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
BOXES = {
    "yahtzee": UPPER + ["three_kind", "four_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"],
    "fiveok_forced": UPPER
    + ["three_kind", "four_kind", "full_house", "small_straight", "large_straight", "five_kind", "chance"],
    "fiveok_free": UPPER + ["three_kind", "four_kind", "full_house", "small_straight", "large_straight", "five_kind", "chance"],
    "yum": UPPER + ["high_straight", "low_straight", "high", "low", "full_house", "yum"],
    "yatzy": UPPER
    + ["one_pair", "two_pairs", "three_kind", "four_kind", "small_straight", "large_straight", "full_house", "chance", "yatzy"],
    "yacht": UPPER + ["full_house", "four_kind", "little_straight", "big_straight", "choice", "yacht"],
}
FIVE_BOX = {"yahtzee": "yahtzee", "fiveok_forced": "five_kind", "fiveok_free": "five_kind"}
UPPER_BONUS = {"yahtzee": (63, 35), "fiveok_forced": (63, 35), "fiveok_free": (63, 35), "yum": (63, 25), "yatzy": (63, 50), "yacht": (0, 0)}


def plain_score(rid, dice, box, card):
    """What `box` scores by its own definition (Yum's High/Low coupling included)."""
    counts = Counter(dice)
    total = sum(dice)
    faces = set(dice)
    shape = sorted(counts.values())
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts.get(face, 0)
    if box in ("chance", "choice"):
        return total
    if box in ("yahtzee", "five_kind", "yum", "yatzy", "yacht"):
        return {"yum": 30}.get(box, 50) if shape == [5] else 0
    if box == "full_house":
        if shape != [2, 3]:
            return 0
        return 25 if rid in ("yahtzee", "fiveok_forced", "fiveok_free", "yum") else total
    if box in ("three_kind", "four_kind"):
        n = 3 if box == "three_kind" else 4
        matches = [f for f in counts if counts[f] >= n]
        if not matches:
            return 0
        if rid in ("yatzy", "yacht"):
            return n * max(matches)
        return total
    if box == "one_pair":
        pairs = [f for f in counts if counts[f] >= 2]
        return 2 * max(pairs) if pairs else 0
    if box == "two_pairs":
        pairs = [f for f in counts if counts[f] >= 2]
        return 2 * sum(pairs) if len(pairs) == 2 else 0
    if box == "small_straight" and rid not in ("yatzy",):
        runs = [{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}]
        return 30 if any(r <= faces for r in runs) else 0
    if box == "large_straight" and rid not in ("yatzy",):
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    low = faces == {1, 2, 3, 4, 5}
    high = faces == {2, 3, 4, 5, 6}
    if box == "small_straight":
        return 15 if low else 0
    if box == "large_straight":
        return 20 if high else 0
    if box == "little_straight":
        return 30 if low else 0
    if box == "big_straight":
        return 30 if high else 0
    if box == "low_straight":
        return 15 if low else 0
    if box == "high_straight":
        return 20 if high else 0
    if box == "high":
        if total < 22:
            return 0
        if card.get("low") and total <= card["low"]:
            return 0
        return total
    if box == "low":
        if total < 21:
            return 0
        if card.get("high") and total >= card["high"]:
            return 0
        return total
    raise KeyError(box)


def choices(rid, dice, card):
    """{box: points} for every legal box, and the extra bonus, following the sheets' Joker rules."""
    open_boxes = [b for b in BOXES[rid] if b not in card]
    five = len(set(dice)) == 1
    fb = FIVE_BOX.get(rid)
    bonus = 100 if five and fb and card.get(fb) == 50 else 0
    if not (five and fb and fb in card):
        return {b: plain_score(rid, dice, b, card) for b in open_boxes}, bonus
    upper = UPPER[dice[0] - 1]
    jokers = {"full_house": 25, "small_straight": 30, "large_straight": 40}
    if rid == "fiveok_free":
        out = {}
        for b in open_boxes:
            if b in jokers:
                out[b] = jokers[b] if upper in card else 0
            else:
                out[b] = plain_score(rid, dice, b, card)
        return out, bonus
    # forced Joker / forced Trump Card
    if upper not in card:
        return {upper: plain_score(rid, dice, upper, card)}, bonus
    lower_open = [b for b in open_boxes if b not in UPPER]
    if lower_open:
        return {b: jokers.get(b, plain_score(rid, dice, b, card)) for b in lower_open}, bonus
    return {b: 0 for b in open_boxes}, bonus


def totals(rid, card, bonus):
    upper = sum(v for b, v in card.items() if b in UPPER)
    lower = sum(v for b, v in card.items() if b not in UPPER)
    thr, pts = UPPER_BONUS[rid]
    ub = pts if thr and upper >= thr else 0
    return {"upper": upper, "upper_bonus": ub, "lower": lower, "bonus": bonus, "total": upper + ub + lower + bonus}
