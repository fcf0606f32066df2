# Two commands do everything on a fresh machine (python3 with venv is all it needs):
#   make run    set up .venv if needed, then solve Klondike deal 1
#   make test   set up .venv if needed, then run the test suite
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/patience solve klondike 1

test: $(STAMP)
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(PY) benchmarks/bench_klondike.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
