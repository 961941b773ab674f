"""Writes each vector's result to target/spec/python.json for spec/coverage.py."""

import json
from pathlib import Path

RESULTS = {}


def pytest_sessionfinish(session, exitstatus):
    if not RESULTS:
        return
    target = Path(__file__).resolve().parents[2] / "target" / "spec"
    target.mkdir(parents=True, exist_ok=True)
    (target / "python.json").write_text(json.dumps(RESULTS, indent=1, sort_keys=True) + "\n", encoding="utf-8")
