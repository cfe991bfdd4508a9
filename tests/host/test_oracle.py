"""The rules oracle (python -m host_sim score): answers, refusals, exit status."""
import json
import os
import random
import subprocess
import sys

import reference_scorer as ref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(lines):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    r = subprocess.run(
        [sys.executable, "-m", "host_sim", "score"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    return [json.loads(x) for x in r.stdout.splitlines()], r.returncode


def test_seed_example_five_fours_with_yahtzee_zero_and_fours_filled():
    out, rc = run(['{"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 0, "fours": 12}}'])
    assert rc == 0
    assert out == [
        {
            "choices": {
                "three_kind": 20,
                "four_kind": 20,
                "full_house": 25,
                "small_straight": 30,
                "large_straight": 40,
                "chance": 20,
            },
            "bonus": 0,
        }
    ]


def test_seed_example_6_6_6_2_3_is_23_in_yum_low():
    out, rc = run(['{"rules": "yum", "dice": [6,6,6,2,3], "card": {}}'])
    assert rc == 0 and out[0]["choices"]["low"] == 23


def test_totals_seed_example():
    card = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "high": 27, "low": 23, "yum": 30}
    out, rc = run([json.dumps({"op": "totals", "rules": "yum", "card": card, "bonus": 0})])
    assert rc == 0
    assert out == [{"upper": 63, "upper_bonus": 25, "lower": 80, "bonus": 0, "total": 168}]


def test_yahtzee_bonus_is_reported_with_the_roll():
    out, _ = run(['{"rules": "yahtzee", "dice": [2,2,2,2,2], "card": {"yahtzee": 50}}'])
    assert out[0] == {"choices": {"twos": 10}, "bonus": 100}


def test_bad_lines_get_a_plain_error_and_the_tool_goes_on_and_exits_1():
    lines = [
        "not json",
        "[1, 2]",
        '{"rules": "monopoly", "dice": [1,2,3,4,5]}',
        '{"rules": "yahtzee", "dice": [1,2,3,4]}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,9]}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,true]}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,5], "card": {"pairs": 4}}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,5], "card": {"fours": 13}}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,5], "card": {"full_house": 20}}',
        '{"rules": "yum", "dice": [1,2,3,4,5], "card": {"high": 24, "low": 25}}',
        '{"op": "totals", "rules": "yum", "card": {}, "bonus": 100}',
        '{"op": "totals", "rules": "yahtzee", "card": {"yahtzee": 0}, "bonus": 100}',
        '{"op": "explode", "rules": "yahtzee"}',
        '{"rules": "yahtzee", "dice": [1,2,3,4,5]}',
    ]
    out, rc = run(lines)
    assert rc == 1
    assert len(out) == len(lines)
    for line, a in zip(lines[:-1], out[:-1]):
        assert list(a) == ["error"] and a["error"], line
    assert "choices" in out[-1]


def test_random_requests_for_every_rule_set_agree_with_the_reference():
    rng = random.Random(5)
    reqs, want = [], []
    for _ in range(600):
        rid = rng.choice(list(ref.BOXES))
        dice = [rng.randint(1, 6) for _ in range(5)]
        if rng.random() < 0.3:
            dice = [dice[0]] * 5
        names = rng.sample(ref.BOXES[rid], rng.randint(0, len(ref.BOXES[rid]) - 1))
        card = {}
        for n in names:  # fill with what some roll really scored there
            d = [rng.randint(1, 6) for _ in range(5)]
            card[n] = ref.plain_score(rid, d, n, {})
        if "high" in card and "low" in card and card["low"] >= card["high"] > 0:
            card["low"] = 0
        reqs.append(json.dumps({"rules": rid, "dice": dice, "card": card}))
        picks, bonus = ref.choices(rid, dice, card)
        want.append({"choices": picks, "bonus": bonus})
    out, rc = run(reqs)
    assert rc == 0
    assert out == want
