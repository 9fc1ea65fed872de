# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Both change how Textual paints and would break snapshot comparisons.
unexport NO_COLOR TEXTUAL_THEME

.PHONY: run test soak lint format bench screenshots clean compile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when the project's metadata changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

# Bytecode written ahead: where PYTHONDONTWRITEBYTECODE is set (as on our CI machines), every
# start would otherwise compile the package's sources again, a fifth of a second: each test
# worker and each program a test starts (the start-up tests took 9.3 s without it, 6.3 s with).
compile: $(VENV)/.installed
	@$(BIN)/python -m compileall -q samantha_tui

# The demo copy is scratch: removed when the app ends, so runs leave no folders behind.
run: $(VENV)/.installed compile
	@dir=$$(mktemp -d -t samantha-demo.XXXXXX) && trap 'rm -rf "$$dir"' EXIT && \
	$(BIN)/samantha-tui demo "$$dir" >/dev/null && \
	$(BIN)/samantha-tui "$$dir"

test: $(VENV)/.installed-test compile
	$(BIN)/ruff check samantha_tui tests screenshots bench
	# Four workers on the two cores of the machines it runs on: an app test spends part of its
	# time waiting on the app's own delays, and two workers left a core idle for a fifth of the
	# run (a fresh clone on 2026-12-06: 296 s with two, 255 s with three; on 2026-12-07, with
	# the realistic demo and another app busy beside it, 301 s with three, 288 s with four;
	# 244 s with four on a quiet machine). Every wait is on the app, never on
	# the CPU, so the extra load changes no verdict. Work stealing hands a worker that runs out
	# the tests still queued on another; conftest puts the longest tests first. The long runs
	# are `make soak`'s (tests/tiers.py).
	$(BIN)/python -m pytest -q -n 4 --dist worksteal -m "not soak"

# The long runs: the 2,000-key mashing, 250 keys on every screen, and every property test again
# with five times the examples. CI runs it after `make test`.
soak: $(VENV)/.installed-test compile
	SAMANTHA_TUI_SOAK=1 $(BIN)/python -m pytest -q -n 2 --dist worksteal -m "soak or property"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check samantha_tui tests screenshots bench
	$(BIN)/ruff format --check samantha_tui tests screenshots bench
	# The rooms and the layers above them may import only downward, and nothing in a cycle
	# ([tool.importlinter] in pyproject.toml).
	$(BIN)/lint-imports
	# Over samantha_tui/, as [tool.mypy] in pyproject.toml sets it.
	$(BIN)/python -m mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format samantha_tui tests screenshots bench
	$(BIN)/ruff check --fix samantha_tui tests screenshots bench

# fzf is the reference the headless search is held to.
bench: $(VENV)/.installed-test compile
	@command -v fzf >/dev/null || apt-get install -y -qq fzf
	$(BIN)/python -m bench

screenshots: $(VENV)/.installed-test
	@command -v rsvg-convert >/dev/null || (apt-get update -qq && apt-get install -y -qq librsvg2-bin)
	$(BIN)/python screenshots/generate.py screenshots

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
