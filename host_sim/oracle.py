"""The rules oracle: one JSON request per line in, one JSON answer per line out, using lib/'s scoring.

    {"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 0, "fours": 12}}
    -> {"choices": {...legal box: points...}, "bonus": 0}
    {"op": "totals", "rules": "yum", "card": {...}, "bonus": 0}
    -> {"upper": 63, "upper_bonus": 25, "lower": 80, "bonus": 0, "total": 168}
    {"op": "advise", "rules": "yahtzee", "card": {...}, "bonus": 0, "dice": [5,5,2,3,6], "rolls_left": 2}
    -> {"par": 231.42, "choices": [{"keep": [5, 5], "expect": 231.42}, ...,
                                   {"box": "fives", "points": 10, "expect": 220.1}, ...]}

advise values a position with the rule set's strategy table (tables/<id>.fdt from `make tables`; `fivedice
score --tables DIR` for another folder), through the device's own coach (fivedice.coach): "expect" is the
expected final total of the whole game after that choice with optimal play from there on (the points on the
card, bonuses included, plus the expected rest), "par" that of the position (its best choice; without
"dice", the start of the turn, before its first roll, and "choices" is empty). Every distinct keep of 0 to 4
dice while a roll is left (keeping all five and rolling none is never better than the best box now), then
every legal box, best first, in hundredths of a point (the table holds 1/128 point for the Hasbro family,
1/256 for the others, so the last digit can be off by one).

A bad line gets {"error": "<plain message>"} and the tool goes on; exit status 1 if any line was refused.
Nothing a line holds makes it trace back: stdin is read as bytes and each line decoded on its own (a line
that is not UTF-8 is refused, the rest are answered), nesting too deep for the parser is refused, and a card
is checked with the same rules as a save (fivedice.savefile.decode.card_problem: points, Yum's High/Low, bonuses).
"""
import json
import os
import sys
from array import array

from fivedice import coach, keeps, rules, scoring
from fivedice import strategy_table as st
from fivedice.scorecard import Card
from fivedice.savefile import decode as save_decode
from host_sim.cli import SHOW  # characters of a bad value an error line quotes, at most

TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tables")  # make tables


class Refused(Exception):
    pass


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _rules(req):
    rid = req.get("rules")
    if not isinstance(rid, str):
        raise Refused('"rules" must name a rule set (one of: %s)' % ", ".join(rules.IDS))
    if rid not in rules.IDS:  # checked here: lib's message quotes the whole name, and a line can hold 10 MB
        raise Refused("unknown rule set %s (known: %s)" % (_show(rid), ", ".join(rules.IDS)))
    return rules.get(rid)


def _card(rs, raw):
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused('"card" must be an object of box: points')
    c = Card(rs)
    for name, v in raw.items():
        if name not in rs.names:
            raise Refused("rule set %s has no box %s (boxes: %s)" % (rs.id, _show(name), ", ".join(rs.names)))
        box = rs.box(name)
        if not _int(v):
            raise Refused("%s must hold a whole number of points, not %s" % (name, _show(v)))
        if not save_decode.possible(rs, box, v):
            raise Refused("no roll can score %s in %s under %s" % (_show(v), name, rs.id))
        c.fill(box, v)
    why = save_decode.card_problem(rs, c)
    if why is not None:
        raise Refused(why)
    return c


def _dice(raw):
    if not isinstance(raw, list) or len(raw) != 5 or not all(_int(f) and 1 <= f <= 6 for f in raw):
        raise Refused('"dice" must be five whole numbers from 1 to 6, not %s' % _show(raw))
    return bytearray(raw)


def choices(req):
    rs = _rules(req)
    dice = _dice(req.get("dice"))
    card = _card(rs, req.get("card"))
    if card.full():
        raise Refused("every box of this card is filled: there is nothing to score")
    out = array("h", [0] * rs.n)
    scoring.load(dice)
    m = scoring.preview(rs, card, out)
    picks = {rs.names[i]: out[i] for i in range(rs.n) if m >> i & 1}
    return {"choices": picks, "bonus": scoring.extra_bonus(rs, card)}


def _bonus(rs, card, req):
    """The request's "bonus" (extra five-of-a-kind bonus points) onto the card, checked as a save is."""
    bonus = req.get("bonus", 0)
    if not _int(bonus) or bonus < 0:
        raise Refused('"bonus" must be a whole number of points, 0 or more')
    if bonus:
        fb = rs.five_box
        if not rs.extra_bonus:
            raise Refused("%s has no extra five-of-a-kind bonus, so bonus must be 0" % rs.id)
        if bonus % rs.extra_bonus:
            raise Refused("bonus must be a multiple of %d" % rs.extra_bonus)
        if not (card.is_filled(fb) and card.pts[fb] == rs.pts[fb]):
            raise Refused("a bonus needs %s scored at %d first" % (rs.names[fb], rs.pts[fb]))
        most = bin(card.filled).count("1") - 1
        if bonus // rs.extra_bonus > most:  # checked before it is stored: a card keeps a small count
            raise Refused("a bonus of %s needs more boxes filled after %s than this card's %d" % (
                _show(bonus), rs.names[fb], most))
        card.extra = bonus // rs.extra_bonus
        why = save_decode.card_problem(rs, card)
        if why is not None:
            raise Refused(why)


def totals(req):
    rs = _rules(req)
    card = _card(rs, req.get("card"))
    _bonus(rs, card, req)
    return {
        "upper": card.upper(),
        "upper_bonus": card.upper_bonus(),
        "lower": card.lower(),
        "bonus": card.bonus(),
        "total": card.total(),
    }


_COACHES = {}  # (tables folder, rule set id) -> the coach on that table, kept for the next request


def _coach(rs):
    key = (TABLES, rs.id)
    c = _COACHES.get(key)
    if c is not None:
        return c
    path = os.path.join(TABLES, rs.id + ".fdt")
    try:
        f = open(path, "rb")
    except OSError:
        raise Refused("no strategy table for %s (%s): advise needs one, build it with `make tables`" % (rs.id, path))
    try:
        table = st.StrategyTable(f, rs)
    except (OSError, ValueError) as e:
        f.close()
        raise Refused("strategy table %s is unusable: %s" % (path, e))
    c = _COACHES[key] = coach.Coach(rs, table)
    return c


def _faces(dice, mask):
    return sorted(dice[i] for i in range(5) if (mask >> i) & 1)


def advise(req):
    rs = _rules(req)
    card = _card(rs, req.get("card"))
    _bonus(rs, card, req)
    if card.full():
        raise Refused("every box of this card is filled: the game is over, there is nothing to advise")
    raw = req.get("dice")
    rolls_left = req.get("rolls_left", 0 if raw is not None else None)
    if raw is not None and not (_int(rolls_left) and 0 <= rolls_left <= 2):
        raise Refused('"rolls_left" must be 0, 1 or 2 (rolls still to take this turn after these dice)')
    if raw is None and rolls_left is not None:
        raise Refused('"rolls_left" needs "dice" (without dice: the start of the turn, before its first roll)')
    dice = _dice(raw) if raw is not None else None
    c = _coach(rs)
    if card.filled & c.valuer.base != c.valuer.base:
        raise Refused("this card is not in the table's sub-game (its boxes %s must be filled)" % ", ".join(
            rs.names[b] for b in range(rs.n) if (c.valuer.base >> b) & 1))
    banked = card.upper() + card.lower() + card.bonus()  # the upper bonus counts as still to come (the table's E)
    pt = c.scale  # table units per point
    try:
        if dice is None:
            e = c.valuer.value(card.filled, st.u_of(rs, card), st.z_of(rs, card))
            return {"par": round(banked + e / pt, 2), "choices": []}
        rolls = 3 - rolls_left
        c.prepare(card)
        wide = pt * coach.WIDE
        found = []  # (wide-unit value, order, choice)
        if rolls < 3:
            seen = set()
            for mask in range(31):  # every keep but all five (that is scoring now: the boxes below)
                key = keeps.key_of(dice, mask)
                if key in seen:
                    continue
                seen.add(key)
                v = c.keep_value(dice, rolls, mask)
                found.append((v, len(found), {"keep": _faces(dice, mask)}))
        scoring.load(dice)
        lg = scoring.legal(rs, card)
        for b in range(rs.n):
            if (lg >> b) & 1:
                v = c.score_value(card, dice, b)
                scoring.load(dice)
                found.append((v, len(found), {"box": rs.names[b], "points": scoring.points(rs, card, b)}))
    except OSError as e:  # a TableError: a damaged block found on the way
        _COACHES.pop((TABLES, rs.id), None)
        raise Refused("strategy table for %s is unusable: %s" % (rs.id, e))
    found.sort(key=lambda t: (-t[0], t[1]))
    out = []
    for v, _, ch in found:
        ch["expect"] = round(banked + v / wide, 2)
        out.append(ch)
    return {"par": out[0]["expect"], "choices": out}


OPS = {"choices": choices, "totals": totals, "advise": advise}


def answer(line):
    """The answer object for one request line (str, or bytes decoded here as UTF-8)."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return {"error": "not UTF-8 text (byte %d): a request is one line of JSON" % e.start}
    try:
        req = json.loads(line)
    except RecursionError:
        return {"error": "not JSON this tool reads: nested too deeply"}
    except json.JSONDecodeError as e:
        # a request is one line: where on it, not "line 2 column 1" for the newline that ends it
        return {"error": "not JSON: %s at column %d" % (e.msg, e.colno if e.lineno == 1 else len(line.rstrip("\r\n")) + 1)}
    except ValueError as e:
        return {"error": "not JSON: %s" % e}
    if not isinstance(req, dict):
        return {"error": "a request must be a JSON object"}
    op = req.get("op", "choices")
    fn = OPS.get(op) if isinstance(op, str) else None
    if fn is None:
        return {"error": "unknown op %s (known: %s)" % (_show(op), ", ".join(OPS))}
    try:
        return fn(req)
    except Refused as e:
        return {"error": str(e)}




def _show(v):
    """A value for a message: its JSON, cut short (a request can hold anything: a 10 MB name, a 4,000-digit
    number), without turning a huge value into text first."""
    if isinstance(v, str):
        v = v[:SHOW]
    elif _int(v) and not -10 ** SHOW < v < 10 ** SHOW:
        return "a number of more than %d digits" % SHOW
    elif isinstance(v, (list, dict)) and len(v) > SHOW:
        return "a %s of %d items" % ("list" if isinstance(v, list) else "object", len(v))
    try:
        t = json.dumps(v)
    except (ValueError, RecursionError):
        t = type(v).__name__
    return t if len(t) <= SHOW else t[:SHOW - 3] + "..."


def main(stdin=None, stdout=None, tables=None):
    """stdin: a binary stream (sys.stdin.buffer by default) or any iterable of lines (str or bytes);
    tables: the folder of strategy tables for advise (default: the checkout's tables/)."""
    global TABLES
    if tables is not None:
        TABLES = tables
    if stdin is None:
        stdin = sys.stdin.buffer
    stdout = stdout or sys.stdout
    refused = 0
    for line in stdin:
        if not line.strip():
            continue
        a = answer(line)
        if "error" in a:
            refused += 1
        stdout.write(json.dumps(a) + "\n")
        stdout.flush()
    return 1 if refused else 0
