"""The rules oracle never traces back (issue #8): deep nesting, bytes that are not UTF-8, bonuses no card can
have earned, and a seeded fuzz of random bytes and mutated requests. Run with -s for the figures."""
import io
import json
import os
import random
import subprocess
import sys

from host_sim import oracle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ_LINES = 20000


def _cli(data):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    r = subprocess.run([sys.executable, "-m", "host_sim", "score"], input=data, capture_output=True, env=env,
                       cwd=ROOT, timeout=120)
    return [json.loads(x) for x in r.stdout.decode().splitlines()], r.returncode, r.stderr.decode()


def test_deeply_nested_json_is_an_error_line_not_a_traceback():
    out, rc, err = _cli(b"[" * 100000 + b"]" * 100000 + b"\n" + b'{"a":' * 50000 + b"1" + b"}" * 50000 + b"\n")
    assert err == "" and rc == 1
    assert len(out) == 2 and all("nested too deeply" in a["error"] for a in out)


def test_a_line_that_is_not_utf8_is_refused_and_the_next_line_answered():
    good = b'{"rules": "yacht", "dice": [1,1,1,1,1]}'
    out, rc, err = _cli(b'{"rules": "yacht\xff\xfe"}\n' + good + b"\n\xc3(\n")
    assert err == "" and rc == 1
    assert "not UTF-8" in out[0]["error"] and "not UTF-8" in out[2]["error"]
    assert out[1]["choices"]["yacht"] == 50


def test_a_bonus_with_only_the_five_box_filled_is_refused():
    a = oracle.answer('{"op": "totals", "rules": "yahtzee", "card": {"yahtzee": 50}, "bonus": 100}')
    assert "error" in a and "bonus of 100" in a["error"]


def test_a_bonus_of_ten_to_the_forty_is_refused():
    a = oracle.answer('{"op": "totals", "rules": "yahtzee", "card": {"yahtzee": 50, "chance": 30}, "bonus": %d}'
                      % (100 * 10 ** 38))
    assert "error" in a


def test_bonuses_the_card_could_have_earned_are_totalled():
    a = oracle.answer('{"op": "totals", "rules": "yahtzee", "card": {"yahtzee": 50, "chance": 30, "fours": 20},'
                      ' "bonus": 200}')
    assert a == {"upper": 20, "upper_bonus": 0, "lower": 80, "bonus": 200, "total": 300}


SEEDS = [
    '{"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 50, "fours": 12}}',
    '{"op": "totals", "rules": "yum", "card": {"high": 28, "low": 24, "sixes": 18}}',
    '{"op": "totals", "rules": "fiveok_free", "card": {"five_kind": 50, "chance": 20}, "bonus": 100}',
    '{"rules": "yatzy", "dice": [1,2,3,4,5], "card": {}}',
    '{"op": "choices", "rules": "yacht", "dice": [6,6,6,5,5]}',
]
ATOMS = ['null', 'true', '-1', '0', '1e400', '"x"', '[]', '{}', '99999999999999999999', '[[[[[[]]]]]]', '"\\ud800"',
         '50', '255', '256', '"yahtzee"', '[1,1,1,1,1]', '1.5', '"' + "a" * 300 + '"']


def _mutate(rnd, line):
    k = rnd.randrange(5)
    if k == 0:  # random bytes
        return bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 80)))
    b = bytearray(line.encode())
    if k == 1:  # flip bytes
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        return bytes(b).replace(b"\n", b" ")
    if k == 2:  # cut
        return bytes(b[: rnd.randrange(len(b))])
    req = json.loads(line)  # replace one value with an atom, at any depth
    keys = list(req)
    key = rnd.choice(keys)
    atom = json.loads(rnd.choice(ATOMS))
    if k == 3 or not isinstance(req[key], (dict, list)) or not req[key]:
        req[key] = atom
    elif isinstance(req[key], dict):
        req[key][rnd.choice(list(req[key]))] = atom
    else:
        req[key][rnd.randrange(len(req[key]))] = atom
    if rnd.random() < 0.1:
        req[rnd.choice(["op", "rules", "card", "dice", "bonus", "zz"])] = atom
    return json.dumps(req).encode()


def test_fuzzed_requests_always_get_one_json_answer_line():
    rnd = random.Random(20261130)
    lines = [_mutate(rnd, rnd.choice(SEEDS)) for _ in range(FUZZ_LINES)]
    lines = [x for x in lines if x.strip()]
    out = io.StringIO()
    rc = oracle.main(lines, out)  # in process: any exception fails this test with its traceback
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(answers) == len(lines) and rc == 1
    errors = sum("error" in a for a in answers)
    print("\noracle: %d fuzzed lines, %d refused with a message, %d answered, 0 tracebacks"
          % (len(lines), errors, len(lines) - errors))
    assert 0 < errors < len(lines)


def test_error_lines_quote_only_a_few_dozen_characters_of_a_huge_value():
    """A 10 MB rules name (or box name, op, dice, points, bonus) is refused in a line of a few hundred
    characters that quotes at most oracle.SHOW of it."""
    huge = "q" * 10000000
    lines = [
        {"rules": huge, "dice": [1, 1, 1, 1, 1]},
        {"rules": "yahtzee", "dice": [1, 1, 1, 1, 1], "card": {huge: 3}},
        {"op": huge},
        {"rules": "yahtzee", "dice": [huge, 1, 1, 1, 1]},
        {"rules": "yahtzee", "dice": list(range(100000))},
        {"rules": "yahtzee", "dice": [1, 1, 1, 1, 1], "card": {"fours": 10 ** 4000}},
        {"op": "totals", "rules": "yahtzee", "card": {"yahtzee": 50}, "bonus": 100 * 10 ** 3000},
    ]
    for req in lines:
        a = oracle.answer(json.dumps(req))
        assert set(a) == {"error"}
        assert len(a["error"]) < 400 and a["error"].count("q") <= oracle.SHOW, a["error"][:100]
    a = oracle.answer(json.dumps({"rules": huge}))
    assert a["error"].startswith('unknown rule set "' + "q" * (oracle.SHOW - 4)) and "yahtzee" in a["error"]
