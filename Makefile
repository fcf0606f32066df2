# Two commands do everything on a fresh machine (python3 with venv is all it needs):
#   make run    set up .venv if needed, then solve Klondike deal 1
#   make test   set up .venv if needed, then run the test suite
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-fast bench clean browser

# The install's own output (pip's notices, setuptools' banners) goes to a log, shown only
# when the install fails.
$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	@echo "make: installing the dependencies into $(VENV) (log: $(VENV)/install.log)"
	@{ $(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q -e '.[test]'; } > $(VENV)/install.log 2>&1 \
	  || { cat $(VENV)/install.log; echo "make: the install failed; its log is above and in $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/patience solve klondike 1

test: $(STAMP) browser
	$(VENV)/bin/pytest -q

# The fast tier for the edit loop: the tests tests/fast.txt names (every game's deals,
# perft, small differential samples and known verdicts, command-line input, database
# safety, the package's shape); under 2 minutes with the kernels already compiled.
test-fast: $(STAMP)
	$(VENV)/bin/pytest -q -m fast tests

# The replay-page tests run in a real headless browser: Debian's chromium, installed
# here when it is missing and we may (root with apt); otherwise those tests fail with
# the command that installs it.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "make: chromium is missing and cannot be installed here (apt-get install chromium)"

# Measures this machine and leaves the committed results/ alone: the node-count signature,
# then Klondike draw 1 and 3 on Solvitaire seeds 1-100 (10 s a deal: minutes, not hours) with
# fresh rows and reports in $(BENCH_DIR) (compare with the same seeds' rows behind
# results/klondike-bench-draw*.md).  Rows already there are not solved again (a stopped run
# resumes); rm -r $(BENCH_DIR) to measure anew.  The committed reports' own run:
# make bench BENCH_ARGS="--seeds 1-1000 --cap 60"
BENCH_DIR ?= build/bench
BENCH_ARGS ?= --seeds 1-100 --cap 10
bench: $(STAMP)
	$(PY) benchmarks/bench_klondike.py --runs $(BENCH_DIR)/runs --out-dir $(BENCH_DIR) $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
