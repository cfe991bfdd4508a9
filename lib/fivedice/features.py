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


def leave_out(runtime, board):
    """The features a deploy for `runtime` ("cp" or "mp") on hardware/boards/<board>.py leaves out: on a Pico
    under CircuitPython the records, whose code and reading at game over cost ~8 KB, and the proficiency test
    (~7 KB while open), where the table game leaves about 13 KB free (the calibrated heap proxy,
    tests/bench/board_estimate.py; docs/memory.md)."""
    if runtime == "cp" and board == "pico":
        return ("records", "proftest")
    return ()


def source(left_out):
    """The text of this module for an install without the features in `left_out`."""
    lines = ['"""Written by firmware/deploy.py: what this install carries (fivedice.features)."""',
             "RECORDS = %r" % ("records" not in left_out),
             "PROFTEST = %r" % ("proftest" not in left_out)]
    return "\n".join(lines) + "\n"
