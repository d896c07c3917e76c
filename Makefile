# mammamia: two commands. `make run` serves the whole site; `make test` runs every test.
# With DATABASE_URL / CELERY_BROKER_URL / EMAIL_URL set, both use those services;
# otherwise they start embedded real ones (see mammamia/devservices.py).

# Django 6 needs Python 3.12+: take the newest one we can find.
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 $$HOME/.pyenv/versions/3.13*/bin/python3 $$HOME/.pyenv/versions/3.12*/bin/python3 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { command -v $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSERVICES := $(BIN)/python -m mammamia.devservices --

.PHONY: run test e2e e2e-tutorials bench arena lint check messages clean help

help:
	@echo "make run    - serve the site at http://127.0.0.1:8000 with a Celery worker and beat"
	@echo "make test   - run the whole test suite against real PostgreSQL"
	@echo "make e2e    - browser tests (Playwright + Debian chromium)"
	@echo "make e2e-tutorials - every game's guided first game in every language, phone and desktop (24 cases)"
	@echo "make bench  - benchmark suite, writes bench/results.json and docs/benchmarks.md"
	@echo "make arena  - bot levels against each other over seeded deals (ARENA_ARGS=--quick: minutes)"

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is required (Django 6)."; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	DEBUG=$${DEBUG:-1} $(DEVSERVICES) $(BIN)/python -m mammamia.run

# The suite on PYTEST_WORKERS processes (pytest-xdist; 0: one process, as before), each with its own test database,
# Redis cache database and live-update prefix (tests/settings.py); the tests that start real workers share one
# process (the `integration` marker's xdist group, tests/conftest.py). docs/testing.md says more.
PYTEST_WORKERS ?= 2
test: $(STAMP)
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} DJANGO_SETTINGS_MODULE=tests.settings $(DEVSERVICES) $(BIN)/python -m pytest \
		$(if $(filter-out 0,$(PYTEST_WORKERS)),-n $(PYTEST_WORKERS) --dist loadgroup) $(PYTEST_ARGS)

# Benchmarks: embedded PostgreSQL and Redis of their own under var/bench (or DATABASE_URL's server,
# database <name>_bench, and CELERY_BROKER_URL). Bounded: about 6-10 minutes. BENCH_ARGS, e.g. --quick.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	command -v pgbouncer >/dev/null || test -x /usr/sbin/pgbouncer || (apt-get update && apt-get install -y pgbouncer) || echo "No pgbouncer: the scale-out part is skipped."  # Debian's, for the scale-out part (issue 33)
	MAMMAMIA_VAR_DIR=$(CURDIR)/var/bench $(DEVSERVICES) $(BIN)/python -m bench $(BENCH_ARGS)

# Bot levels against each other (bench/arena.py, issue 28): pure engines, no services; one core, nice. The
# issue's 400 deals per game, player count and pair take hours, so a run resumes: it appends each deal to
# bench/arena-deals.jsonl (commit it) and skips the deals recorded for the bots' current code. ARENA_NICE=0 for
# normal priority; ARENA_ARGS="--quick" is a smoke run of minutes, "--summary" only the table.
# Writes bench/arena-results.json for make bench.
arena: $(STAMP)
	nice -n $${ARENA_NICE:-10} $(BIN)/python -m bench.arena $(ARENA_ARGS)

# Browser tests (e2e/): the site as in production (uvicorn with DEBUG=0, Celery workers and beat, an SMTP
# catcher) on a fresh database mammamia_e2e, driven by Playwright with Debian's Chromium. E2E_ARGS go to pytest (naming e2e/ files runs only those).
# On E2E_WORKERS processes (pytest-xdist; 0: one process, as before, e.g. for -s): each starts a whole stack of its
# own (database mammamia_e2e_gw0, ..., Redis broker database, ports, var/e2e/gw0/) and writes into
# $(E2E_ARTIFACTS)/gw0/, ...; findings.md at the top joins theirs. docs/testing.md says more.
E2E_WORKERS ?= 2
E2E_STAMP := $(VENV)/.e2e-installed
E2E_ARTIFACTS ?= $(CURDIR)/e2e-artifacts
$(E2E_STAMP): $(STAMP) pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev,e2e]'
	touch $(E2E_STAMP)

e2e: $(E2E_STAMP)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	fc-list :lang=ja | grep -q . || (apt-get update && apt-get install -y fonts-noto-cjk) || echo "No CJK font: Japanese and Chinese show as boxes in the screenshots."  # こなもんっ!, not boxes
	E2E_ARTIFACTS=$(E2E_ARTIFACTS) E2E_CHROMIUM=$$(command -v chromium) \
		$(BIN)/python -m pytest -p no:django -o addopts="-ra --strict-markers" -W ignore::pytest.PytestConfigWarning \
		$(if $(filter-out 0,$(E2E_WORKERS)),-n $(E2E_WORKERS) --dist loadgroup) $(if $(filter e2e/%,$(E2E_ARGS)),,e2e) $(E2E_ARGS); \
		status=$$?; echo "e2e artifacts (screenshots, e-mails, logs, findings.md): $(E2E_ARTIFACTS)"; exit $$status

# The whole matrix of guided first games (issue 27): 3 games x 4 languages x phone and desktop. make e2e runs six.
e2e-tutorials:
	E2E_TUTORIALS=all $(MAKE) e2e E2E_ARGS="e2e/test_tutorial.py $(E2E_ARGS)"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports  # the import contracts of pyproject.toml: the core below the features, no circles

check: $(STAMP)
	DEBUG=0 CACHE_URL=$${CACHE_URL:-redis://127.0.0.1:6379/1} SECRET_KEY=check-deploy-$$(date +%s)-a-long-random-enough-secret-key-for-the-deploy-check ALLOWED_HOSTS=mammamia.example \
		$(BIN)/python manage.py check --deploy --fail-level WARNING

messages: $(STAMP)
	$(BIN)/python manage.py compilemessages_py

clean:
	rm -rf $(VENV) var staticfiles
