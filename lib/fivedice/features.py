"""What this install of fivedice carries: every feature, unless the board's profile says its heap
has no room for it (hardware/boards/*.py, LEAVE_OUT: an install-time choice; firmware/deploy.py asks
leave_out(), drops the feature's modules and writes this file with its constant False). What each
feature costs: docs/memory.md."""
RECORDS = True  # the records (high scores and stats) and the initials screen at game over
# the proficiency test (25 fixed positions per rule set with a table), from the menu
PROFTEST = True
# the buzzer's cues and the menu's Sound line (the board glue builds no buzzer without it)
SOUND = True
PIXELS = True  # the NeoPixel dice under the hold buttons
SHAKE = True  # shaking the board rolls the dice (a switch or an accelerometer)

# feature: the modules it is (paths under the board's lib/, without .py/.mpy)
MODULES = {
    "records": ("fivedice/records", "fivedice/screens/records", "fivedice/screens/initials"),
    "proftest": ("fivedice/proftest", "fivedice/proftest_data", "fivedice/screens/proftest"),
    "sound": ("fdfw/buzzer",),
    "pixels": ("fivedice/pixels_view", "fdfw/pixels"),
    "shake": ("fivedice/shake", "fdfw/shake_input", "fdfw/lis3dh"),
}
# feature: what the player goes without when it is left out (the deploy's summary line, the README's
# board table)
SAYS = {
    "records": "no records",
    "proftest": "no proficiency test",
    "sound": "no sound",
    "pixels": "no NeoPixel dice",
    "shake": "no shake to roll",
}
ORDER = ("records", "proftest", "sound", "pixels", "shake")  # the flags, in this file's order
# feature: its rows in fivedice.lazy's table, which the deploy drops with the feature (one row: ~150
# bytes a board)
LAZY = {
    "records": ("records",),
    "proftest": ("positions",),
}


FACTS = "# Board facts"  # a profile's board facts follow this line (hardware/boards/__init__.py)
MARGIN_KB = {"cp": 16, "mp": 64}  # the ballast a table game survives on a Pico (docs/memory.md)


def facts(board):
    """The board facts of hardware/boards/<board>.py (HEAP_KB, DRIVE_KB, LEAVE_OUT, MPY_ARCH: dicts
    by runtime), from the checkout's profile (the deploy's side: the board's copy has none)."""
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "hardware", "boards", board + ".py")) as f:
        text = f.read()
    ns = {}
    k = text.find("\n" + FACTS)
    if k >= 0:
        exec(text[k:], ns)  # constants only: the facts block names no other module
    return dict((n, ns.get(n, {})) for n in ("HEAP_KB", "DRIVE_KB", "LEAVE_OUT", "MPY_ARCH"))


def leave_out(runtime, board):
    """The features a deploy for `runtime` ("cp" or "mp") on hardware/boards/<board>.py leaves
    out: its profile's LEAVE_OUT, so that a table game keeps its margin (MARGIN_KB, memory.md)."""
    return tuple(facts(board)["LEAVE_OUT"].get(runtime, ()))


def says(left_out):
    """What an install without the features in `left_out` goes without, in one phrase ("" for none).
    """
    return ", ".join(SAYS[f] for f in ORDER if f in left_out)


def lazy_source(text, left_out):
    """fivedice/lazy.py's text for an install without the features in `left_out`: their table rows
    gone."""
    rows = [r for f in left_out for r in LAZY.get(f, ())]
    return "".join(
        ln for ln in text.splitlines(True) if not any(ln.startswith('    "%s": ' % r) for r in rows)
    )


def source(left_out):
    """The text of this module for an install without the features in `left_out`."""
    lines = ['"""Written by firmware/deploy.py: what this install carries (fivedice.features)."""']
    lines += ["%s = %r" % (f.upper(), f not in left_out) for f in ORDER]
    return "\n".join(lines) + "\n"
