"""schema_reasons against the plain way of making reasons (every error, each (rule, path) once,
then cap_reasons), on the generated validators of the refund desk over seeded hostile envelopes;
and RestatedLocations against them: every fault a validator reports twice lies where it says."""

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
from seam_handoff._schema_reasons import RestatedLocations, is_header_path, schema_reasons
from seam_handoff._values import SchemaError

VALIDATORS: list[tuple[Callable[[object], list[SchemaError]], tuple[str, ...] | None]] = [
    (desk.validate_delegate__triage__billing, ()),
    (desk.validate_delegate__triage__refunds, ("goal.out_of_scope",)),
    (desk.validate_transfer__refunds__notifier, ()),
]

JUNK: list[object] = [{}, None, 1, "x", {"rationale": 1}, {"ref": 7, "role": "required"}, {"ref": "not a uri", "role": "required"}, [1]]


def hostile(rng: random.Random, base: dict[str, Any]) -> object:
    """base with a field (or hop's, goal's) filled with 0 to 60 junk items; sometimes junk itself."""
    if rng.random() < 0.1:
        return rng.choice(JUNK)
    envelope = copy.deepcopy(base)
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


def cases(envelope: dict[str, Any], runs: int, seed: int) -> list[tuple[list[SchemaError], tuple[str, ...] | None]]:
    rng = random.Random(seed)
    found: list[tuple[list[SchemaError], tuple[str, ...] | None]] = []
    for _ in range(runs):
        validate, require = rng.choice(VALIDATORS)
        errors = validate(hostile(rng, envelope))
        if errors:
            found.append((errors, require))
    return found


def test_gives_what_every_reason_once_and_capped_gives(envelope: dict[str, Any]) -> None:
    with_faulty_refs = 0
    for errors, require in cases(envelope, 1500, 20261207):
        expected = plain(errors)
        found = schema_reasons(errors, RestatedLocations(require))
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


def test_every_fault_reported_twice_lies_where_restated_locations_says(envelope: dict[str, Any]) -> None:
    repeats = 0
    for errors, require in cases(envelope, 1500, 20261208):
        restated = RestatedLocations(require)
        seen: set[tuple[str, str]] = set()
        for error in errors:
            reason = schema_error_to_reason(error)
            if (reason.rule, reason.path) in seen:
                repeats += 1
                name = error.params.get("missingProperty") if error.keyword == "required" else None
                node = restated.node_at(error.instance_path)
                assert node is not None and (name is None or name in node.fields), (reason.rule, reason.path)
            seen.add((reason.rule, reason.path))
    # Contracts state nothing inside arrays that the envelope does: a flood is never doubled.
    assert repeats == 0


def test_counts_the_faults_of_a_rule_past_twenty_in_one_entry() -> None:
    errors = [SchemaError(f"/decisions/{i}", "required", {"missingProperty": "id"}) for i in range(25)]
    found = schema_reasons(errors, RestatedLocations(None))
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
    assert schema_reasons(errors, RestatedLocations(None)).header_fault_counted is counted
    at_root = [SchemaError(f"/decisions/{i}", "required", {"missingProperty": "id"}) for i in range(21)]
    task = SchemaError("", "required", {"missingProperty": "task_id"})
    assert schema_reasons([*at_root, task], RestatedLocations(None)).header_fault_counted is True


def test_restated_locations_hold_the_root_hop_and_the_required_paths_up_to_an_array() -> None:
    restated = RestatedLocations(["decisions[].rationale", "goal.out_of_scope"])
    assert restated.node_at("") is not None
    assert "path" in (restated.node_at("/hop") or pytest.fail()).fields
    assert restated.node_at("/hop/limit") is not None
    assert restated.node_at("/decisions") is not None
    assert restated.node_at("/goal/out_of_scope") is not None
    for nowhere in [
        "/decisions/12",
        "/decisions/0/rationale",
        "/decisions/rationale",
        "/decisions/",
        "/hop/path/3",
        "/goal/statement",
        "/goalx",
    ]:
        assert restated.node_at(nowhere) is None, nowhere
    assert RestatedLocations(None).node_at("") is None
