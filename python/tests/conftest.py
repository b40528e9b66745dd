"""Shared fixtures: the generated module of the refund desk graph (refund_desk_validators.py,
written by scripts/python-test-module.mjs) and its valid delegate envelope."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "test" / "fixtures" / "cases" / "envelopes"


@pytest.fixture
def envelope() -> dict[str, Any]:
    """A fresh copy of valid-delegate.json: triage delegates to billing, hop 1."""
    data: dict[str, Any] = json.loads((FIXTURES / "valid-delegate.json").read_text("utf-8"))
    return copy.deepcopy(data)
