PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo reports check-reports chromium notebooks docs docs-serve test lint bench profile clean

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

# the reports' tables fit the page at 1280 and 600 px and their images load (headless Chromium);
# screenshots of each report's first screen go to /tmp/report-shots
check-reports: $(STAMP) chromium
	$(BIN)/python reports/check_render.py --shots /tmp/report-shots reports/*/index.html

# Debian's Chromium for the browser check of the reports (tests/test_report.py), when missing
SUDO := $(if $(filter 0,$(shell id -u)),,sudo -n)
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		echo "installing chromium (apt-get) for the report check"; \
		{ $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			$(SUDO) apt-get install -y -qq chromium; } >/dev/null 2>&1 \
		|| echo "warning: could not install chromium: the report check is skipped (CI fails)"; }

notebooks: $(DEVSTAMP)
	$(BIN)/python notebooks/run.py --inplace

# the documentation site (MkDocs + Material) into site/; warnings are errors (broken links,
# unresolved references); tests/docs builds it the same way in `make test`
DOCS_ENV := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true PYTHONPATH=$(CURDIR)
docs: $(DEVSTAMP)
	$(DOCS_ENV) $(BIN)/mkdocs build --strict

docs-serve: $(DEVSTAMP)
	$(DOCS_ENV) $(BIN)/mkdocs serve

test: $(DEVSTAMP) chromium
	$(BIN)/ruff check fuzion_sim tests $(wildcard benchmarks)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(DEVSTAMP)
	$(BIN)/ruff check fuzion_sim tests $(wildcard benchmarks)
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(BENCH_ARGS)

# where a scenario's kernel spends its time (needs perf and objdump): make profile SCENARIO=...
# [KERNEL=general|standing|squad|duel]
SCENARIO ?= scenarios/bench-squad-4v4.yaml
profile: $(STAMP)
	$(BIN)/python benchmarks/profile_kernel.py $(SCENARIO) $(if $(KERNEL),--kernel $(KERNEL))

clean:
	rm -rf $(VENV) build *.egg-info site
