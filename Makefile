PYTHON ?= python3

.PHONY: all install tables check-tables test bench clean

all: tables test

install:
	$(PYTHON) -m pip install -e ".[test]"

# Solve exactly and (re)write data/*.msgpack; files whose bytes would not change are left alone.
tables:
	$(PYTHON) build_tables.py

# Rebuild in memory and fail if data/ differs from what the solver produces.
check-tables:
	$(PYTHON) build_tables.py --check

test:
	$(PYTHON) -m pytest

bench:
	$(PYTHON) bench/bench.py

clean:
	rm -rf build dist *.egg-info .pytest_cache test-output
