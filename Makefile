PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo reports notebooks test lint bench profile clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP) $(DEVSTAMP)

demo: $(STAMP)
	$(BIN)/fuzion-sim run scenarios/marshal-vs-outlaw.yaml
	$(BIN)/fuzion-sim report scenarios/marshal-vs-outlaw.yaml --force -o reports/marshal-vs-outlaw

reports: $(STAMP)
	$(BIN)/fuzion-sim report scenarios/marshal-vs-outlaw.yaml --force -o reports/marshal-vs-outlaw
	$(BIN)/fuzion-sim report scenarios/squad-4v4.yaml --force --compare 'rules.dice=hero,interlock' \
		--title 'Squad gunfight: HERO vs Interlock' -o reports/squad-hero-vs-interlock

notebooks: $(DEVSTAMP)
	$(BIN)/python notebooks/run.py --inplace

test: $(DEVSTAMP)
	$(BIN)/ruff check fuzion_sim tests $(wildcard benchmarks)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(DEVSTAMP)
	$(BIN)/ruff check fuzion_sim tests $(wildcard benchmarks)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(BENCH_ARGS)

# where a scenario's kernel spends its time (needs perf and objdump): make profile SCENARIO=...
SCENARIO ?= scenarios/bench-squad-4v4.yaml
profile: $(STAMP)
	$(BIN)/python benchmarks/profile_kernel.py $(SCENARIO)

clean:
	rm -rf $(VENV) build *.egg-info
