"""The budget checks read each counter once (the whole-number counters the ledger takes feed
budget-exhausted and budget-counter-missing too): the same reasons, in the same order, and the
same ledger budget as checking the envelope's raw budget.consumed and budget.limit, on seeded
near-miss budgets (floats, bools, nulls, negatives, numbers past 2**53, missing and extra keys)."""

import random
from typing import Any, cast

import refund_desk_validators as desk

from seam_handoff._catalogue import rule_reason
from seam_handoff._fields import BUDGET_COUNTERS, whole_number
from seam_handoff._records import Reason

_NOT_OBJECTS: tuple[object, ...] = (None, 3, [], "x")
_VALUES: tuple[object, ...] = (0, 1, 2, 3, 5, 60000, 3.0, 3.5, -1, -2.0, True, False, None, "3", 2**53 - 1, 2**53, 2**60, 1e300, [], {})


def _raw_reasons(consumed_value: object, caps_value: object) -> list[Reason]:
    """The two budget rules over the raw fields, as they were written before the counters were shared."""
    reasons: list[Reason] = []
    if not isinstance(consumed_value, dict) or not isinstance(caps_value, dict):
        return reasons
    consumed, caps = cast("dict[str, Any]", consumed_value), cast("dict[str, Any]", caps_value)
    for counter in BUDGET_COUNTERS:
        if counter not in consumed or counter not in caps or consumed[counter] is None or caps[counter] is None:
            continue
        spent, cap = whole_number(consumed[counter]), whole_number(caps[counter])
        if spent is not None and cap is not None and spent >= cap:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", "budget-exhausted", "spent", counter=counter, spent=spent, limit=cap))
    for counter in BUDGET_COUNTERS:
        if counter in consumed or counter not in caps:
            continue
        cap = whole_number(caps.get(counter))
        if cap is not None:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", "budget-counter-missing", "missing", counter=counter, limit=cap))
    return reasons


def _raw_counters(value: object) -> dict[str, int] | None:
    if not isinstance(value, dict) or not value:
        return None
    fields = cast("dict[str, object]", value)
    found = {c: n for c in BUDGET_COUNTERS if c in fields and fields[c] is not None and (n := whole_number(fields[c])) is not None}
    return found or None


def _counters(rng: random.Random) -> dict[str, object]:
    keys = [c for c in BUDGET_COUNTERS if rng.random() < 0.5] + (["extra"] if rng.random() < 0.1 else [])
    rng.shuffle(keys)
    return {key: rng.choice(_VALUES) for key in keys}


def _field(rng: random.Random) -> object:
    """budget.consumed or budget.limit: mostly an object of counters, sometimes no object."""
    if rng.random() < 0.9:
        return _counters(rng)
    return rng.choice(_NOT_OBJECTS)


def test_budget_reasons_and_ledger_budget_match_the_raw_reading(envelope: dict[str, Any]) -> None:
    rng = random.Random(20)
    for _ in range(3000):
        consumed, caps = _field(rng), _field(rng)
        envelope["budget"] = {"consumed": consumed, "limit": caps}
        content = desk._ACCEPT._content_of(envelope, "billing", None)  # pyright: ignore[reportPrivateUsage]
        got = [r for r in content.reasons if r.rule in ("budget-exhausted", "budget-counter-missing")]
        assert got == _raw_reasons(consumed, caps), (consumed, caps)
        assert content.budget is not None
        assert (content.budget.limit, content.budget.consumed) == (_raw_counters(caps), _raw_counters(consumed)), (consumed, caps)
        assert list((content.budget.limit or {}).keys()) == list((_raw_counters(caps) or {}).keys())
