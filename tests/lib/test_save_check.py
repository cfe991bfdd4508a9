"""A save's points are checked against a table of what each box can score (fivedice.save_check._POSSIBLE):
the table is what scoring gives for every sorted roll, on an empty card and on one where the Joker applies."""
from fivedice import rules, save_check, scoring
from fivedice.scorecard import Card


def every_score(rs, box):
    """The points some roll can put in `box`: every sorted roll on an empty card and on a Joker card."""
    vals = {0}
    empty = Card(rs)
    joker = Card(rs)
    if rs.five_box >= 0:
        joker.fill(rs.five_box, 0)
        for f in range(1, 7):
            joker.fill(rs.upper_box[f], 0)
    d = bytearray(5)
    for a in range(1, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                for e in range(c, 7):
                    for f in range(e, 7):
                        d[0], d[1], d[2], d[3], d[4] = a, b, c, e, f
                        scoring.load(d)
                        vals.add(scoring.points(rs, empty, box))
                        vals.add(scoring.points(rs, joker, box))
    return vals


def test_a_box_accepts_exactly_the_points_some_roll_scores_there():
    for rs in rules.ALL:
        assert len(save_check._POSSIBLE[rs.index]) == rs.n, rs.id
        for box in range(rs.n):
            can = every_score(rs, box)
            assert max(can) < 64, (rs.id, box)  # the table's masks hold values 0..63
            got = set(v for v in range(-1, 256) if save_check.possible(rs, box, v))
            assert got == can, (rs.id, rs.names[box], sorted(got ^ can))


def test_yahtzee_boxes_read_like_the_rule_sheet():
    rs = rules.ALL[0]
    assert [v for v in range(60) if save_check.possible(rs, rs.box("fours"), v)] == [0, 4, 8, 12, 16, 20]
    assert [v for v in range(60) if save_check.possible(rs, rs.box("full_house"), v)] == [0, 25]
    assert [v for v in range(60) if save_check.possible(rs, rs.box("chance"), v)] == [0] + list(range(5, 31))
