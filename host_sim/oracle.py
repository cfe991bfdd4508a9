"""The rules oracle: one JSON request per line in, one JSON answer per line out, using lib/'s scoring.

    {"rules": "yahtzee", "dice": [4,4,4,4,4], "card": {"yahtzee": 0, "fours": 12}}
    -> {"choices": {...legal box: points...}, "bonus": 0}
    {"op": "totals", "rules": "yum", "card": {...}, "bonus": 0}
    -> {"upper": 63, "upper_bonus": 25, "lower": 80, "bonus": 0, "total": 168}

A bad line gets {"error": "<plain message>"} and the tool goes on; exit status 1 if any line was refused.
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
            raise Refused("%s must hold a whole number of points, not %r" % (name, v))
        if not game.possible(rs, box, v):
            raise Refused("no roll can score %d in %s under %s" % (v, name, rs.id))
        c.fill(box, v)
    if rs.high_box >= 0:
        hi, lo = c.pts[rs.high_box], c.pts[rs.low_box]
        if c.is_filled(rs.high_box) and c.is_filled(rs.low_box) and hi and lo and lo >= hi:
            raise Refused("low %d is not lower than high %d: no game reaches that card" % (lo, hi))
    return c


def _dice(raw):
    if not isinstance(raw, list) or len(raw) != 5 or not all(_int(f) and 1 <= f <= 6 for f in raw):
        raise Refused('"dice" must be five whole numbers from 1 to 6, not %s' % json.dumps(raw))
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
        card.extra = bonus // rs.extra_bonus
    return {
        "upper": card.upper(),
        "upper_bonus": card.upper_bonus(),
        "lower": card.lower(),
        "bonus": card.bonus(),
        "total": card.total(),
    }


OPS = {"choices": choices, "totals": totals}


def answer(line):
    """The answer object for one request line."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"error": "not JSON: %s" % e}
    if not isinstance(req, dict):
        return {"error": "a request must be a JSON object"}
    op = req.get("op", "choices")
    fn = OPS.get(op) if isinstance(op, str) else None
    if fn is None:
        return {"error": "unknown op %s (known: %s)" % (json.dumps(op), ", ".join(OPS))}
    try:
        return fn(req)
    except Refused as e:
        return {"error": str(e)}


def main(stdin=None, stdout=None):
    stdin = stdin or sys.stdin
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
