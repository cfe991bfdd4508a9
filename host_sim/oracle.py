"""The rules oracle: one JSON request per line in, one JSON answer per line out, using lib/'s scoring.

    {"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 0, "fours": 12}}
    -> {"choices": {...legal box: points...}, "bonus": 0}
    {"op": "totals", "rules": "yum", "card": {...}, "bonus": 0}
    -> {"upper": 63, "upper_bonus": 25, "lower": 80, "bonus": 0, "total": 168}

A bad line gets {"error": "<plain message>"} and the tool goes on; exit status 1 if any line was refused.
Nothing a line holds makes it trace back: stdin is read as bytes and each line decoded on its own (a line
that is not UTF-8 is refused, the rest are answered), nesting too deep for the parser is refused, and a card
is checked with the same rules as a save (fivedice.game.card_problem: points, Yum's High/Low, bonuses).
"""
import json
import sys
from array import array

from fivedice import game, rules, scoring
from fivedice.scorecard import Card


class Refused(Exception):
    pass


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _rules(req):
    rid = req.get("rules")
    if not isinstance(rid, str):
        raise Refused('"rules" must name a rule set (one of: %s)' % ", ".join(rules.IDS))
    try:
        return rules.get(rid)
    except ValueError as e:
        raise Refused(str(e))


def _card(rs, raw):
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused('"card" must be an object of box: points')
    c = Card(rs)
    for name, v in raw.items():
        try:
            box = rs.box(name)
        except ValueError as e:
            raise Refused(str(e))
        if not _int(v):
            raise Refused("%s must hold a whole number of points, not %s" % (name, _show(v)))
        if not game.possible(rs, box, v):
            raise Refused("no roll can score %d in %s under %s" % (v, name, rs.id))
        c.fill(box, v)
    why = game.card_problem(rs, c)
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


def totals(req):
    rs = _rules(req)
    card = _card(rs, req.get("card"))
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
            raise Refused("a bonus of %d needs %d boxes filled after %s, and this card has %d" % (
                bonus, bonus // rs.extra_bonus, rs.names[fb], most))
        card.extra = bonus // rs.extra_bonus
        why = game.card_problem(rs, card)
        if why is not None:
            raise Refused(why)
    return {
        "upper": card.upper(),
        "upper_bonus": card.upper_bonus(),
        "lower": card.lower(),
        "bonus": card.bonus(),
        "total": card.total(),
    }


OPS = {"choices": choices, "totals": totals}


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
    """A value for a message: its JSON, cut short (a request can hold anything)."""
    try:
        t = json.dumps(v)
    except (ValueError, RecursionError):
        t = type(v).__name__
    return t if len(t) <= 60 else t[:57] + "..."


def main(stdin=None, stdout=None):
    """stdin: a binary stream (sys.stdin.buffer by default) or any iterable of lines (str or bytes)."""
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
