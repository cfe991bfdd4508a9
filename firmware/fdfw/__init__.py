"""fivedice firmware: small drivers that bind a board's hardware to the fivedice library.

Every driver takes its pins, buses or callables as arguments; only setup_cp / setup_mp touch
`board`, `busio`, `machine` and friends, and only with pins read from a board profile.
"""
