# Two commands for a newcomer: `make demo` and `make test`. Both build .venv from pinned versions.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_WS := .graphgate-demo

.PHONY: install demo test test-memory lint typecheck pytest bench clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	rm -rf $(DEMO_WS)
	$(BIN)/graphgate index data/demo --workspace $(DEMO_WS)
	$(BIN)/graphgate status --workspace $(DEMO_WS)
	$(BIN)/graphgate cypher "MATCH (e:Entity)-[r:RELATED]-() RETURN e.name AS name, count(r) AS degree ORDER BY degree DESC, name LIMIT 5" --workspace $(DEMO_WS)
	@for mode in vector local hybrid; do \
	  $(BIN)/graphgate query "Who is Bob Cratchit's employer?" --mode $$mode --workspace $(DEMO_WS) || exit 1; \
	  $(BIN)/graphgate query "What does the Ghost of Jacob Marley warn Scrooge about?" --mode $$mode --workspace $(DEMO_WS) || exit 1; \
	  $(BIN)/graphgate query "Which of the Cratchit children is ill?" --mode $$mode --workspace $(DEMO_WS) || exit 1; \
	done
	$(BIN)/graphgate testset generate --n 40 --out $(DEMO_WS)/testset.jsonl --workspace $(DEMO_WS)
	$(BIN)/graphgate eval $(DEMO_WS)/testset.jsonl --modes vector,local,hybrid --out $(DEMO_WS)/eval \
	  --html $(DEMO_WS)/eval/report.html --workspace $(DEMO_WS)
	@# The gates report quality; a FAIL verdict is shown, not a reason for the demo to stop.
	-$(BIN)/graphgate gates --workspace $(DEMO_WS)
	@echo "Browse it: $(BIN)/graphgate serve --workspace $(DEMO_WS), then open http://127.0.0.1:8000/"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Two workers, the CI machine's two cores; a test file stays on one worker (--dist loadfile),
# so a module's fixtures are built once. Tests marked `alone` judge answer latency against a
# baseline's: they run afterwards, with no other test taking the cores.
PYTEST_WORKERS ?= 2

pytest: $(STAMP)
	$(BIN)/pytest -q --durations=15 -n $(PYTEST_WORKERS) --dist loadfile -m "not alone"
	$(BIN)/pytest -q --durations=5 -m alone

test: lint typecheck pytest

# Indexing memory against its bound (1,500 and 6,000 passages of ../shared): four to six
# minutes; .ci/run runs it after `make test`.
test-memory: $(STAMP)
	MEMORY_BOUND_TEST=1 $(BIN)/pytest -q -s tests/integration/test_memory_bound.py

bench: $(STAMP)
	$(BIN)/python benchmarks/index_query.py

clean:
	rm -rf $(VENV) $(DEMO_WS) .pytest_cache .mypy_cache .ruff_cache
