PYTHON ?= python3

.PHONY: all install tables check-tables test bench bench-phone report simulate clean web

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

# The pages on an emulated phone (Slow 4G, CPU slowed 4x, in chromium): first answers and bytes.
bench-phone:
	$(PYTHON) bench/phone.py

# Single player: the Markdown + SVG report (report/), and the Monte Carlo benchmark of every strategy.
report:
	$(PYTHON) ./ShutTheBox report --out report

simulate:
	$(PYTHON) ./ShutTheBox simulate --variant all

clean:
	rm -rf build dist *.egg-info .pytest_cache test-output

# Refresh the browser page's vendored msgpack decoder from the version pinned in
# web/package-lock.json (needs npm; the copy in shutthebox/web/static/vendor/ is committed).
web:
	cd web && npm ci --no-audit --no-fund && npm run vendor
