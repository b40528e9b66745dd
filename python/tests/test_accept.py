"""accept() of a generated module over the shared runtime: verdicts, to_dict(), misuse."""

from typing import Any, cast

import pytest
import refund_desk_validators as desk

import seam_handoff
from seam_handoff._accept import _handoff_key_id  # pyright: ignore[reportPrivateUsage]


def test_a_valid_delegate_is_accepted_with_a_record(envelope: dict[str, Any]) -> None:
    result = desk.accept(envelope, me="billing", now=lambda: 1_764_410_531.5)
    assert isinstance(result, seam_handoff.Accepted)
    assert result.to_dict() == {
        "ok": True,
        "duplicate": False,
        "record": {
            "handoff_id": "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
            "task_id": "refund-2026-11-0042",
            "hop_index": 1,
            "producer": "triage",
            "receiver": "billing",
            "accepted_at": "2025-11-29T10:02:11.500Z",
            "artefacts_consumed": [],
            "route": "proceed",
            "constraints": ["Read-only access to the ledger"],
            "warnings": [],
            "lease": None,
        },
    }


def test_results_of_every_graph_are_the_runtimes_classes(envelope: dict[str, Any]) -> None:
    assert desk.Accepted is seam_handoff.Accepted
    assert desk.Rejected is seam_handoff.Rejected


def test_a_bad_envelope_is_rejected_with_every_reason(envelope: dict[str, Any]) -> None:
    envelope["handoff_id"] = "not-a-uuid"
    del envelope["goal"]
    result = desk.accept(envelope, me="billing")
    assert isinstance(result, seam_handoff.Rejected)
    assert result.to_dict()["rejection"] == {
        "handoff_id": "not-a-uuid",
        "hop_index": 1,
        "producer": "triage",
        "attempt": None,
        "repairs": 1,
        "route": "repair",
        "reasons": [
            {"path": "/goal", "rule": "required", "message": 'missing required field "goal"'},
            {"path": "/handoff_id", "rule": "format", "message": "must be a valid uuid"},
        ],
    }


def test_a_store_refuses_the_second_delivery_as_a_duplicate(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store()
    assert desk.accept(envelope, me="billing", seen=seen).ok
    again = desk.accept(envelope, me="billing", seen=seen)
    assert isinstance(again, seam_handoff.Rejected)
    assert again.duplicate
    assert again.rejection.route == "discard"


def test_sender_is_the_transports_identity_as_a_str(envelope: dict[str, Any]) -> None:
    # What a transport authenticates is text, not yet an agent of the graph: accept takes any
    # str (mypy --strict on this file checks the signature) and refuses one from_agent lacks.
    producer: str = "CN=billing-gateway"
    result = desk.accept(envelope, me="billing", sender=producer)
    assert isinstance(result, seam_handoff.Rejected)
    assert [(r.path, r.rule, r.message) for r in result.rejection.reasons] == [
        (
            "/from_agent/id",
            "sender-mismatch",
            'claims to come from "triage", but the transport authenticated "CN=billing-gateway": refused without counting against "triage"',
        )
    ]
    assert desk.accept(envelope, me="billing", sender="triage").ok


def test_misuse_raises_type_error(envelope: dict[str, Any]) -> None:
    with pytest.raises(
        TypeError, match=r"^accept\(\): me \"biling\" is no agent of graph refund_desk; use one of triage, billing, refunds, notifier$"
    ):
        desk.accept(envelope, me=cast("desk.AgentId", "biling"))


def test_validators_are_named_by_edge() -> None:
    names = sorted(name for name in desk.__all__ if name.startswith("validate_"))
    assert names == [
        "validate_delegate__triage__billing",
        "validate_delegate__triage__refunds",
        "validate_envelope",
        "validate_return__billing__triage",
        "validate_transfer__refunds__notifier",
    ]


def test_finish_verdicts_have_the_javascript_shape(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store()
    assert desk.accept(envelope, me="billing", seen=seen).ok
    refused = desk.finish("refund-2026-11-0042", me="triage", terminal="closed", outcome="complete", seen=seen, now=lambda: 1_764_410_600.0)
    assert refused.to_dict() == {"ok": False, "rule": "not-owner", "message": refused.message, "owner": "billing"}


def test_records_made_without_their_constructors_are_whole(envelope: dict[str, Any]) -> None:
    # accept() builds Accepted and AcceptanceRecord with tuple.__new__ (make_tuple), which fills
    # in no default: a field added to either class must be passed there too.
    result = desk.accept(envelope, me="billing", seen=desk.create_memory_seen_store())
    assert isinstance(result, seam_handoff.Accepted)
    assert len(result) == len(result._fields)
    assert len(result.record) == len(result.record._fields)
    # _replace() remakes the tuple through the class's own checks (_make refuses a wrong length).
    assert result._replace() == result
    assert result.record._replace() == result.record


def test_a_handoff_id_is_keyed_in_lower_case_when_it_has_an_ascii_capital() -> None:
    # As the JavaScript runtime keys it: /[A-Z]/ decides, toLowerCase lowers the whole id.
    assert [_handoff_key_id(i) for i in ("A3D9-5F", "a3d9-5f", "\u00c9a-1", "\u00c9A-1")] == [
        "a3d9-5f",
        "a3d9-5f",
        "\u00c9a-1",
        "\u00e9a-1",
    ]
