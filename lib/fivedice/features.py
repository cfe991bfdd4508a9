"""What this install of fivedice carries: every feature, unless the deploy left one out on a board whose heap it
does not fit (an install-time choice: firmware/deploy.py asks leave_out(), drops the feature's modules and
writes this file with its constant False). What each feature costs: docs/memory.md."""
RECORDS = True  # the records (high scores and stats) and the initials screen at game over
PROFTEST = True  # the proficiency test (25 fixed positions per rule set with a table), from the menu

# feature: the modules it is (paths under the board's lib/, without .py/.mpy)
MODULES = {
    "records": ("fivedice/records", "fivedice/screens/records", "fivedice/screens/initials"),
    "proftest": ("fivedice/proftest", "fivedice/proftest_data", "fivedice/screens/proftest"),
}
# feature: its rows in fivedice.lazy's table, which the deploy drops with the feature (one row: ~150 bytes a board)
LAZY = {
    "records": ("records", "records_screen", "initials"),
    "proftest": ("proftest", "positions"),
}


def leave_out(runtime, board):
    """The features a deploy for `runtime` ("cp" or "mp") on hardware/boards/<board>.py leaves out: on a Pico
    under CircuitPython the records, whose code and reading at game over cost ~8 KB, and the proficiency test
    (~7 KB while open), where the table game leaves about 13 KB free (the calibrated heap proxy,
    tests/bench/board_estimate.py; docs/memory.md)."""
    if runtime == "cp" and board in ("pico", "macropad"):  # the MacroPad: a Pico's heap under CircuitPython
        return ("records", "proftest")
    return ()


def lazy_source(text, left_out):
    """fivedice/lazy.py's text for an install without the features in `left_out`: their table rows gone."""
    rows = [r for f in left_out for r in LAZY[f]]
    return "".join(ln for ln in text.splitlines(True) if not any(ln.startswith('    "%s": ' % r) for r in rows))


def source(left_out):
    """The text of this module for an install without the features in `left_out`."""
    lines = ['"""Written by firmware/deploy.py: what this install carries (fivedice.features)."""',
             "RECORDS = %r" % ("records" not in left_out),
             "PROFTEST = %r" % ("proftest" not in left_out)]
    return "\n".join(lines) + "\n"
