"""Whole games through the simulated buttons (with bounce), refusals, and agreement with the oracle."""
import io
import json
import os
import random
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from fivedice import game as G
from fivedice import rules
from host_sim import oracle, play

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_play(tmp_path, rid, players, faces, lines, extra=()):
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = play.main(
            ["--rules", rid, "--players", str(players), "--faces", ",".join(map(str, faces)), "--script", str(script)]
            + list(extra)
        )
    out = [json.loads(x) for x in buf.getvalue().splitlines()]
    return rc, out[:-1], out[-1]


def oracle_ask(req):
    return oracle.answer(json.dumps(req))


@pytest.mark.parametrize("rid", rules.IDS)
def test_a_whole_scripted_game_agrees_with_the_oracle_box_by_box(tmp_path, rid):
    rs = rules.get(rid)
    rng = random.Random(rid)
    players = 2
    faces, lines, expect = [], [], [dict() for _ in range(players)]
    bonus = [0] * players
    order = [list(rs.names) for _ in range(players)]
    for p in range(players):
        rng.shuffle(order[p])
    for t in range(rs.n):
        for p in range(players):
            first = [rng.randint(1, 6) for _ in range(5)]
            if rng.random() < 0.15:
                first = [first[0]] * 5  # plenty of five-of-a-kinds, to exercise Jokers and bonuses
            again = [rng.randint(1, 6) for _ in range(3)]
            dice = first[:2] + again
            faces += first + again
            lines += ["roll", "hold 1 2", "roll"]
            # the box this player scores: the first of its shuffled order that the oracle says is legal
            ans = oracle_ask({"rules": rid, "dice": dice, "card": expect[p]})
            box = next(b for b in order[p] if b in ans["choices"])
            order[p].remove(box)
            lines.append("score " + box)
            expect[p][box] = ans["choices"][box]
            bonus[p] += ans["bonus"]
    rc, refused, final = run_play(tmp_path, rid, players, faces, lines)
    assert rc == 0 and refused == [] and final["refused_lines"] == 0
    assert final["over"] is True
    for p in range(players):
        got = final["players"][p]
        assert got["card"] == expect[p]
        totals = oracle_ask({"op": "totals", "rules": rid, "card": expect[p], "bonus": bonus[p]})
        assert {k: got[k] for k in totals} == totals
    ranked = sorted(range(players), key=lambda p: -final["players"][p]["total"])
    assert [r["total"] for r in final["ranking"]] == [final["players"][p]["total"] for p in ranked]


def _state_after(tmp_path, faces, lines):
    rc, refused, final = run_play(tmp_path, "yahtzee", 1, faces, lines)
    return refused, final


def test_a_fourth_roll_is_refused_and_changes_nothing(tmp_path):
    faces = [1, 2, 3, 4, 6] * 3 + [6, 6, 6, 6, 6]
    refused, final = _state_after(tmp_path, faces, ["roll", "roll", "roll", "roll", "score chance"])
    assert refused == [{"refused": "roll", "reason": G.REASONS[G.NO_ROLLS_LEFT]}]
    assert final["players"][0]["card"] == {"chance": 16}  # the third roll's dice, not a fourth


def test_holding_before_the_first_roll_is_refused(tmp_path):
    refused, final = _state_after(tmp_path, [2, 2, 3, 3, 3], ["hold 1", "roll", "score full_house"])
    assert refused == [{"refused": "hold 1", "reason": G.REASONS[G.NOT_ROLLED]}]
    assert final["players"][0]["card"] == {"full_house": 25}


def test_scoring_before_rolling_is_refused(tmp_path):
    refused, final = _state_after(tmp_path, [5, 5, 5, 5, 1], ["score chance", "roll", "score fives"])
    assert refused == [{"refused": "score chance", "reason": G.REASONS[G.SCORE_BEFORE_ROLL]}]
    assert final["players"][0]["card"] == {"fives": 20}


def test_scoring_a_filled_box_is_refused_and_the_turn_goes_on(tmp_path):
    faces = [1, 1, 1, 2, 2] + [3, 3, 3, 4, 4]
    refused, final = _state_after(tmp_path, faces, ["roll", "score full_house", "roll", "score full_house", "score threes"])
    assert refused == [{"refused": "score full_house", "reason": G.REASONS[G.BOX_FILLED]}]
    assert final["players"][0]["card"] == {"full_house": 25, "threes": 9}


def test_the_forced_joker_refuses_other_boxes_and_the_bonus_is_credited(tmp_path):
    faces = [4] * 5 + [4] * 5
    lines = ["roll", "score yahtzee", "roll", "score chance", "score fours"]
    refused, final = _state_after(tmp_path, faces, lines)
    assert refused == [{"refused": "score chance", "reason": G.REASONS[G.BOX_FORBIDDEN]}]
    p = final["players"][0]
    assert p["card"] == {"yahtzee": 50, "fours": 20} and p["bonus"] == 100 and p["total"] == 170


def test_held_dice_keep_their_faces_across_a_shake(tmp_path):
    faces = [6, 6, 1, 2, 3] + [6, 5, 4]
    refused, final = _state_after(tmp_path, faces, ["shake", "hold 1 2", "release 2", "hold 2", "shake", "score sixes"])
    assert refused == []
    assert final["players"][0]["card"] == {"sixes": 18}


def test_a_hold_line_naming_a_bad_die_holds_nothing(tmp_path):
    faces = [6, 6, 1, 2, 3] + [1, 1, 1, 1, 1]
    refused, final = _state_after(tmp_path, faces, ["roll", "hold 1 9", "roll", "score ones"])
    assert refused == [{"refused": "hold 1 9", "reason": G.REASONS[G.BAD_DIE]}]
    assert final["players"][0]["card"] == {"ones": 5}  # die 1 was not held: all five rolled again


def test_running_out_of_scripted_faces_is_refused_cleanly(tmp_path):
    refused, final = _state_after(tmp_path, [1, 2, 3], ["roll"])
    assert refused and "ran out" in refused[0]["reason"]
    assert final["players"][0]["card"] == {}


def test_the_play_command_end_to_end_with_screenshots(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("roll\nscore large_straight\nbogus\n")
    shots = tmp_path / "shots"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    r = subprocess.run(
        [sys.executable, "-m", "host_sim", "play", "--rules", "yahtzee", "--players", "1", "--faces", "2,3,4,5,6",
         "--script", str(script), "--screenshots", str(shots)],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    assert r.returncode == 1, r.stderr  # the bogus line was refused
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["refused"] == "bogus" and lines[-1]["refused_lines"] == 1
    assert lines[-1]["players"][0]["card"] == {"large_straight": 40}
    pngs = sorted(p.name for p in shots.iterdir())
    assert len(pngs) == 4 and all(n.endswith(".png") for n in pngs)


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--rules", "monopoly"], "unknown rule set"),
        (["--players", "5"], "--players"),
        (["--faces", "1,2,7"], "--faces"),
        (["--cpu", "3"], "--cpu"),
        (["--cpu", "two"], "--cpu must be seat numbers"),
        (["--faces", ""], "--faces is empty"),
        (["--faces", " , ,"], "--faces is empty"),
        (["--faces", "1,x"], "--faces"),
    ],
)
def test_bad_arguments_get_a_plain_message_and_exit_2(tmp_path, capsys, args, msg):
    script = tmp_path / "s.txt"
    script.write_text("roll\n")
    rc = play.main(["--script", str(script)] + args)
    assert rc == 2
    assert msg in capsys.readouterr().err


@pytest.mark.parametrize(
    "line,reason",
    [
        ("wait abc", "whole number of milliseconds"),
        ("wait 1.5", "whole number of milliseconds"),
        ("wait -5", "wait takes 0 to"),
        ("wait 99999999999", "wait takes 0 to"),
        ("wait 10 20", "one number"),
    ],
)
def test_a_bad_wait_line_is_refused_and_the_game_goes_on(tmp_path, line, reason):
    rc, refused, final = run_play(tmp_path, "yahtzee", 1, [5, 5, 5, 5, 1], [line, "wait 100", "wait", "roll", "score fives"])
    assert refused == [{"refused": line, "reason": refused[0]["reason"]}] and reason in refused[0]["reason"]
    assert final["players"][0]["card"] == {"fives": 20}
    assert rc == 1 and final["refused_lines"] == 1


def test_a_script_with_refused_lines_exits_1_and_the_final_json_counts_them(tmp_path):
    rc, refused, final = run_play(tmp_path, "yahtzee", 1, [2, 3, 4, 5, 6], ["hold 1", "roll", "bogus", "score large_straight"])
    assert [r["refused"] for r in refused] == ["hold 1", "bogus"]
    assert rc == 1 and final["refused_lines"] == 2
    assert final["players"][0]["card"] == {"large_straight": 40}


def test_a_clean_script_exits_0_and_counts_no_refused_lines(tmp_path):
    rc, refused, final = run_play(tmp_path, "yahtzee", 1, [2, 3, 4, 5, 6], ["roll", "hold 1 2", "wait 0", "score large_straight"])
    assert rc == 0 and refused == [] and final["refused_lines"] == 0


def test_a_cpu_seat_running_out_of_scripted_faces_stops_the_script_with_a_refused_line(tmp_path):
    # player 1 rolls five of the six faces and scores; the CPU (seat 2) then rolls with one face left
    lines = ["roll", "score chance", "roll", "score ones"]
    rc, refused, final = run_play(tmp_path, "yahtzee", 2, [1, 2, 3, 4, 5, 6], lines, extra=["--cpu", "2"])
    assert refused == [{"refused": "score chance", "reason": play.CPU_RAN_OUT}]
    assert rc == 1 and final["refused_lines"] == 1
    assert final["players"][0]["card"] == {"chance": 15}


def test_a_cpu_first_seat_out_of_faces_before_the_first_line_is_refused_at_start(tmp_path):
    rc, refused, final = run_play(tmp_path, "yahtzee", 2, [6, 6], ["roll"], extra=["--cpu", "1"])
    assert refused == [{"refused": "(start)", "reason": play.CPU_RAN_OUT}]
    assert rc == 1 and final["players"][1]["card"] == {}


def test_unreadable_script_and_screenshot_paths_get_a_plain_message_and_exit_2(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("roll\n")
    assert play.main(["--script", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
    (tmp_path / "bin.txt").write_bytes(b"roll\n\xff\xfe\n")
    assert play.main(["--script", str(tmp_path / "bin.txt")]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    blocker = tmp_path / "afile"
    blocker.write_text("")
    assert play.main(["--script", str(script), "--screenshots", str(blocker)]) == 2
    assert "afile" in capsys.readouterr().err


def test_wait_abc_on_the_command_line_is_a_refused_line_not_a_traceback(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("wait abc\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    r = subprocess.run([sys.executable, "-m", "host_sim", "play", "--script", str(script)],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert "Traceback" not in r.stderr and r.stderr == ""
    assert r.returncode == 1
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[0]["refused"] == "wait abc" and out[-1]["refused_lines"] == 1


_FUZZ_WORDS = ["roll", "hold", "release", "score", "shake", "wait", "ROLL", "Hold", "bogus", "", "#"]
_FUZZ_ARGS = ["1", "2", "5", "0", "6", "-1", "abc", "1.5", "99999999999999", "chance", "yahtzee", "fours",
              "full_house", "\u00e9", "1,2", "--", "\x00", "wait", "1_0", "\u0663", "300"]


def test_random_script_lines_never_raise_and_every_output_line_is_json(tmp_path):
    """A small seeded fuzz (6 scripts of 25 lines, about 2 s): random verbs, arguments, CPU seats, short --faces."""
    for seed in range(6):
        rng = random.Random(seed)
        lines = [" ".join([rng.choice(_FUZZ_WORDS)] + [rng.choice(_FUZZ_ARGS) for _ in range(rng.randint(0, 3))])
                 for _ in range(25)]
        players = rng.randint(1, 3)
        faces = [rng.randint(1, 6) for _ in range(rng.randint(1, 40))]
        extra = ["--cpu", str(rng.randint(1, players))] if players > 1 else []
        rc, refused, final = run_play(tmp_path, rng.choice(rules.IDS), players, faces, lines, extra=extra)
        assert all(set(r) == {"refused", "reason"} and r["reason"] for r in refused), (seed, refused)
        assert final["refused_lines"] == len(refused) and rc == (1 if refused else 0), seed


def test_the_simulator_plays_a_cpu_demo_when_stdin_is_not_a_terminal():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]))
    r = subprocess.run([sys.executable, "-m", "host_sim", "--seed", "3"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "CPU-vs-CPU demo" in r.stdout and "TOTAL" in r.stdout and "ranking: 1. P" in r.stdout


@pytest.mark.parametrize("opens,mode", [("ok", "M_PICK"), ("down", "M_CARD")])
def test_wait_only_lets_time_pass_the_picker_or_card_stays_open(opens, mode):
    from fivedice import app as A
    from fivedice.rng import ScriptedFaces
    from host_sim.device import SimDevice

    dev = SimDevice(dice=ScriptedFaces([3, 3, 3, 1, 2] * 10), cpu_step_ms=20)
    try:
        pl = play.Player(dev)
        pl.setup(0, 1)
        assert pl.do("roll") is None
        dev.settle()
        pl.do("press " + opens)
        dev.settle()
        assert dev.app.mode == getattr(A, mode)
        frame = dev.board.display.raw()
        assert pl.do("wait 2000") is None
        assert dev.app.mode == getattr(A, mode) and dev.board.display.raw() == frame  # a screenshot shows it
    finally:
        dev.close()


def test_play_and_screenshot_take_tables_for_hints_and_par_as_score_does(tmp_path):
    from fivedice import app as A
    from fivedice.rng import Dice, SeededBytes
    from host_sim.device import SimDevice

    tables = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tables")
    if not os.path.isfile(os.path.join(tables, "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    empty = tmp_path / "none"
    empty.mkdir()
    script = tmp_path / "s.txt"
    script.write_text("roll\npress up\nwait 300\n")
    shots = {}
    for name, folder in (("with", tables), ("without", str(empty))):
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = play.main([str(tmp_path / name), "--seed", "3", "--script", str(script), "--tables", folder][1:]
                           + ["--screenshots", str(tmp_path / name)], prog="fivedice screenshot")
        assert rc == 0, buf.getvalue()
        shots[name] = (tmp_path / name / "003-wait-300.png").read_bytes()
    assert shots["with"] != shots["without"]  # the hint (and par) shown only with the table
    # what the screenshot shows with the table: the device with the same table, hint asked
    dev = SimDevice(dice=Dice(SeededBytes(3)), tables=tables)
    try:
        pl = play.Player(dev)
        pl.setup(0, 1)
        pl.do("roll")
        dev.settle()
        pl.do("press up")
        dev.run(300, skip=True)
        assert dev.app.session.hint_kind != 0 and dev.app.session.par_x100 > 0
    finally:
        dev.close()
    r = subprocess.run([sys.executable, "-m", "host_sim", "play", "--tables", str(tmp_path / "nope"), "--script", "-"],
                       input="", capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(["lib", "."])),
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert r.returncode == 2 and "is not a folder" in r.stderr and len(r.stderr.splitlines()) == 1
