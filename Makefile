PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench clean

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

test: $(DEVSTAMP)
	$(BIN)/ruff check fuzion_sim tests benchmarks
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(DEVSTAMP)
	$(BIN)/ruff check fuzion_sim tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
