# fivedice front door. Every target installs what it needs into .venv from requirements.txt.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MPY := $(VENV)/bin/micropython
STAMP := $(VENV)/.installed
export PYTHONPATH := $(CURDIR)/lib:$(CURDIR)

.PHONY: all venv test test-cpython test-mpy mpy sim bench clean

all: test

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

## make test: every test: mpy-cross build, pytest on CPython (which also runs the core suites on MicroPython)
test: venv mpy
	$(PY) -m pytest -q -p no:cacheprovider tests

## make mpy: compile every file of lib/ and firmware/ with mpy-cross into build/
mpy: venv
	$(PY) tools/build_mpy.py

## make sim: play fivedice in the terminal (a CPU demo when stdin is not a terminal)
sim: venv
	$(PY) -m host_sim

## make bench: scoring speed and allocation figures on CPython and the MicroPython port
bench: venv
	$(PY) tests/bench/bench_scoring.py

clean:
	rm -rf build .pytest_cache

## make tables: solve every rule set and write the device strategy tables into tables/ (gitignored)
tables: venv
	$(PY) -m host_sim.solver --out tables

## make bench-ai: CPU levels play solitaire games, mean +- 95% CI per level ("perfect" needs make tables)
bench-ai: venv
	$(PY) tests/bench/bench_ai.py

.PHONY: tables bench-ai

## make screenshots: the README's screenshots of the simulated device
screenshots: venv
	$(PY) tools/readme_screenshots.py
