"""schema_reasons against the plain way of making reasons (every error, each (rule, path) once,
then cap_reasons), on the generated validators of the refund desk over seeded hostile envelopes;
and the generated validators against STATED_TWICE: every fault one reports twice lies there."""

import copy
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
import refund_desk_validators as desk

from seam_handoff._catalogue import PER_RULE_LIMIT, cap_reasons
from seam_handoff._records import Reason
from seam_handoff._schema_reason import schema_error_to_reason
from seam_handoff._schema_reasons import STATED_TWICE, is_header_path, schema_reasons
from seam_handoff._values import SchemaError

VALIDATORS: list[Callable[[object], list[SchemaError]]] = [
    desk.validate_delegate__triage__billing,
    desk.validate_delegate__triage__refunds,  # requires goal.out_of_scope
    desk.validate_transfer__refunds__notifier,
]

JUNK: list[object] = [{}, None, 1, "x", {"rationale": 1}, {"ref": 7, "role": "required"}, {"ref": "not a uri", "role": "required"}, [1]]
LIMITS: list[object] = [8, 9, 1e16, "8", -1]


def hostile(rng: random.Random, base: dict[str, Any]) -> object:
    """base with a field (or hop's, goal's) filled with 0 to 60 junk items and hop.limit perhaps
    bad; sometimes junk itself."""
    if rng.random() < 0.1:
        return rng.choice(JUNK)
    envelope = copy.deepcopy(base)
    envelope["hop"]["limit"] = rng.choice(LIMITS)
    items = [copy.deepcopy(rng.choice(JUNK)) for _ in range(rng.randrange(61))]
    field = rng.choice(["decisions", "artefacts", "provenance", "goal", "hop", "extra"])
    if field in ("goal", "hop") and rng.random() < 0.7:
        envelope[field]["out_of_scope" if field == "goal" else "path"] = items
    else:
        envelope[field] = items
    return envelope


def plain(errors: list[SchemaError]) -> list[Reason]:
    seen: set[tuple[str, str]] = set()
    out: list[Reason] = []
    for error in errors:
        reason = schema_error_to_reason(error)
        if (reason.rule, reason.path) not in seen:
            seen.add((reason.rule, reason.path))
            out.append(reason)
    return out


def cases(envelope: dict[str, Any], runs: int, seed: int) -> list[list[SchemaError]]:
    rng = random.Random(seed)
    found: list[list[SchemaError]] = []
    for _ in range(runs):
        errors = rng.choice(VALIDATORS)(hostile(rng, envelope))
        if errors:
            found.append(errors)
    return found


def test_gives_what_every_reason_once_and_capped_gives(envelope: dict[str, Any]) -> None:
    with_faulty_refs = 0
    for errors in cases(envelope, 1500, 20261207):
        expected = plain(errors)
        found = schema_reasons(errors)
        assert cap_reasons(found.reasons, found.counted) == cap_reasons(expected)
        per_rule: dict[str, int] = {}
        left_out: list[Reason] = []
        for reason in expected:
            per_rule[reason.rule] = per_rule.get(reason.rule, 0) + 1
            if per_rule[reason.rule] > PER_RULE_LIMIT:
                left_out.append(reason)
        assert found.header_fault_counted == any(is_header_path(r.path) for r in left_out)
        assert found.faulty_refs == {int(r.path.split("/")[2]) for r in expected if re.fullmatch(r"/artefacts/\d+/ref", r.path)}
        with_faulty_refs += bool(found.faulty_refs)
    # Faulty artefact refs, listed and counted, are among them.
    assert with_faulty_refs > 20


def test_every_fault_reported_twice_lies_at_the_one_value_both_schemas_state(envelope: dict[str, Any]) -> None:
    repeats = 0
    for errors in cases(envelope, 1500, 20261208):
        seen: set[tuple[str, str]] = set()
        for error in errors:
            reason = schema_error_to_reason(error)
            if (reason.rule, reason.path) in seen:
                repeats += 1
                assert error.instance_path == STATED_TWICE, (reason.rule, reason.path)
            seen.add((reason.rule, reason.path))
    # Bad limits are reported twice, so the property is not empty.
    assert repeats > 20


def test_counts_the_faults_of_a_rule_past_twenty_in_one_entry() -> None:
    errors = [SchemaError(f"/decisions/{i}", "required", {"missingProperty": "id"}) for i in range(25)]
    found = schema_reasons(errors)
    assert len(found.reasons) == 21
    assert found.reasons[20] == Reason("/decisions/20/id", "required", "")
    assert found.counted == {"required": 5}
    assert cap_reasons(found.reasons, found.counted)[-1] == Reason(
        "/decisions/20/id", "required", "and 5 more required reasons, not listed (a verdict lists at most 20 per rule)"
    )


@pytest.mark.parametrize(
    ("last", "counted"),
    [
        (SchemaError("/hop/path/3", "type", {"type": "string"}), True),
        (SchemaError("", "type", {"type": "object"}), False),
        (SchemaError("/goal", "type", {"type": "object"}), False),
    ],
)
def test_says_when_a_fault_only_counted_lies_in_the_header(last: SchemaError, counted: bool) -> None:
    errors = [SchemaError(f"/decisions/{i}", "type", {"type": "object"}) for i in range(21)] + [last]
    assert schema_reasons(errors).header_fault_counted is counted
    at_root = [SchemaError(f"/decisions/{i}", "required", {"missingProperty": "id"}) for i in range(21)]
    task = SchemaError("", "required", {"missingProperty": "task_id"})
    assert schema_reasons([*at_root, task]).header_fault_counted is True


@pytest.mark.parametrize(
    ("keyword", "limit", "message"),
    [
        ("minItems", 1, "must have at least 1 item"),
        ("minItems", 2, "must have at least 2 items"),
        ("minLength", 1, "must have at least 1 character"),
        ("maxLength", 500, "must have at most 500 characters"),
        ("minItems", True, "must have at least true items"),
    ],
)
def test_words_a_limit_of_one_in_the_singular(keyword: str, limit: object, message: str) -> None:
    assert schema_error_to_reason(SchemaError("/decisions", keyword, {"limit": limit})).message == message
