# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
VENV    := .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
HTMX    := static/vendor/htmx.min.js
SSE     := static/vendor/sse.min.js
NOSLEEP := static/vendor/NoSleep.min.js
MINIFIED := static/vendor/min/.made
HOST    ?= 0.0.0.0
PORT    ?= 5000
PG_TEST_URL ?= postgresql://companion:companion@127.0.0.1:5432/companion_test

.PHONY: run test test-long test-pg bench soak setup setup-test dist clean translations coach-sentences

CATALOGUES := companion/translations/de/LC_MESSAGES/messages.mo

setup: $(BIN)/.app-installed $(HTMX) $(SSE) $(NOSLEEP) $(MINIFIED) $(CATALOGUES)
setup-test: setup $(BIN)/.test-installed

$(BIN)/.app-installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(BIN)/.test-installed: $(BIN)/.app-installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(BIN)/.dist-installed: $(BIN)/.app-installed
	$(BIN)/python -m pip install --quiet -e '.[dist]'
	touch $@

# The release: dist/table_companion-<version>-py3-none-any.whl (and its source), carrying
# everything served (htmx, its SSE extension, NoSleep.js, the German catalogue), so that
# `pipx install` of it needs neither npm nor make (README). setup.py refuses to build without them.
dist: setup $(BIN)/.dist-installed
	rm -rf dist
	$(BIN)/python -m build --outdir dist

# htmx, its SSE extension and NoSleep.js (the screen kept on where a page may not ask for a
# wake lock) come from the npm registry at set-up (pinned in package-lock.json), never a CDN.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(HTMX): node_modules/.installed
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js $@

$(SSE): node_modules/.installed
	mkdir -p static/vendor
	cp node_modules/htmx-ext-sse/dist/sse.min.js $@

$(NOSLEEP): node_modules/.installed
	mkdir -p static/vendor
	cp node_modules/nosleep.js/dist/NoSleep.min.js $@

# Every script minified by terser, kept by the hash of its source (minify.mjs); the server
# serves those copies and needs no node. Again after a script changed: `make setup`.
$(MINIFIED): minify.mjs node_modules/.installed $(HTMX) $(SSE) $(NOSLEEP) $(shell find static -name '*.js' -not -path 'static/vendor/*')
	node minify.mjs
	touch $@

# The German catalogue is written by hand (messages.po, committed); set-up extracts the
# messages of the sources (messages.pot, to compare) and compiles the catalogue (.mo).
companion/translations/messages.pot: babel.cfg $(BIN)/.app-installed $(shell find companion templates -name '*.py' -o -name '*.html')
	$(BIN)/python -m companion.web.messages extract $@

companion/translations/%/LC_MESSAGES/messages.mo: companion/translations/%/LC_MESSAGES/messages.po companion/translations/messages.pot
	$(BIN)/pybabel compile --statistics -d companion/translations -l $*

# After adding or changing messages: bring the German catalogue up to date, then translate
# what `make translations` lists as untranslated (tests/test_translations.py checks it).
translations: $(BIN)/.app-installed
	$(BIN)/python -m companion.web.messages extract companion/translations/messages.pot
	$(BIN)/pybabel -q update --no-fuzzy-matching --ignore-obsolete -i companion/translations/messages.pot -d companion/translations -l de
	$(BIN)/python -m companion.web.messages untranslated

# Every sentence of the teaching mode, one file per language (build/coach-sentences.*.md),
# for a reading by hand against the rulebooks.
coach-sentences: setup
	$(BIN)/python -m companion.web.messages coach build

run: setup
	HOST=$(HOST) PORT=$(PORT) $(BIN)/companion serve

# The suite runs on every core (pytest-xdist): much of it waits on browsers and servers.
TEST_JOBS ?= auto

test: setup-test
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal

# The newcomer robots' long profile: every seed over HTTP, the ones `make test` leaves to
# Chromium too (tests/robots/harness.over_http), and the browser seeds.
test-long: setup-test
	LONG_ROBOTS=1 $(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal tests/robots \
		tests/browser/test_robot_scorepad_browser.py tests/browser/test_robot_kartenspiel_browser.py \
		tests/browser/test_robot_asterix_obelix_browser.py tests/browser/test_robot_asterix_co_browser.py \
		tests/browser/test_robot_zaubertrank_browser.py

# The suite against PostgreSQL (a server must be running; .ci/run starts one): the tests that
# reach a database, and of the real-browser ones those whose behaviour depends on it (marker
# database: live push, several servers); the games' moves and pages (stored as every table is),
# the coach, the rules and the languages do not.
# Each worker makes a database of its own beside PG_TEST_URL's (its role needs CREATEDB). The
# driver, psycopg, comes with the test extras (table-companion[postgres], pyproject.toml).
PG_SKIPS := $(foreach name,asterix_co asterix_obelix kartenspiel zaubertrank coach coach_kartenspiel rules language,\
	--ignore=tests/web/test_$(name)_web.py)
test-pg: setup-test
	TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal \
		-m "not browser or database" $(PG_SKIPS) tests/web tests/browser tests/test_registry.py

# A café's load and a busy one beside the code before issue 28, two servers behind nginx,
# idle streams, 6,000 streams, bytes, poll, group pages, slow connections, a hammering client,
# long games, then every goal (~20 min); one part alone: make bench BENCH_ARGS="--parts cafe".
bench: setup-test
	$(BIN)/python bench/bench.py $(BENCH_ARGS)

# 600 phones with racing writers for 5 minutes through three kill -9 restarts, on SQLite then
# on PostgreSQL (~11 min): acknowledged, lost, doubled, unknown-outcome, corrupted; shorter:
# make soak SOAK_ARGS="--database sqlite --seconds 40 --tables 10 --kills 1" (bench/soak.py --help).
soak: setup-test
	$(BIN)/python bench/soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) node_modules static/vendor *.egg-info dist
