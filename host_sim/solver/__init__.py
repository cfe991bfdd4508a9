"""Optimal-strategy solver for every fivedice rule set (host only: CPython + numpy).

    python -m host_sim.solver [--out tables] [rule ids...]   # what `make tables` runs
"""
from host_sim.solver.core import Model, solve, start_value  # noqa: F401
