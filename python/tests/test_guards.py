"""guard-unmet, confidence-below-floor and approval-pending in Python, on the payouts graph of
conformance/approvals (an approval gate whose router sends ready, sure work to the payer): each
where it fires (rule, route, JSON Pointer, exact message) and where it stays quiet, as the
JavaScript runtime words them."""

import copy
import json
from pathlib import Path
from typing import Any

import payouts_validators as payouts

import seam_handoff
from seam_handoff._guard_route import number_text

ENVELOPES = Path(__file__).resolve().parents[2] / "conformance" / "approvals" / "envelopes"


def envelope(name: str, **fields: Any) -> dict[str, Any]:
    """A fresh copy of conformance/approvals/envelopes/<name>.json with fields replaced."""
    data: dict[str, Any] = json.loads((ENVELOPES / f"{name}.json").read_text("utf-8"))
    data = copy.deepcopy(data)
    data.update(fields)
    return data


def handoff(n: int) -> str:
    """The handoff id of the suite's envelope n."""
    return f"7c0e2f4a-5b6d-4e8f-9a1b-3c5d7e9f0a{n:02d}"


def approval(n: int) -> dict[str, str]:
    """An approval record citing handoff n."""
    return {"approver": "ana@example.com", "approved_at": "2026-12-01T09:30:00Z", "pending_handoff_id": handoff(n)}


def refused(result: seam_handoff.AcceptResult) -> tuple[str, list[tuple[str, str, str]]]:
    """The route and reasons (path, rule, message) of a refusal."""
    assert isinstance(result, seam_handoff.Rejected)
    return result.rejection.route, [(r.path, r.rule, r.message) for r in result.rejection.reasons]


def delegated() -> payouts.MemorySeenStore:
    """A store holding hop 1: the desk delegated the payout to the approval gate."""
    seen = payouts.create_memory_seen_store()
    assert payouts.accept(envelope("to-approver"), me="approver", seen=seen).ok
    return seen


def test_the_payout_still_pending_is_refused_at_status() -> None:
    result = payouts.accept(envelope("to-payer", status="waiting_review"), me="payer", seen=delegated())
    assert refused(result) == (
        "repair",
        [
            (
                "/status",
                "guard-unmet",
                'is "waiting_review", but transfer approver -> payer is taken only when status is ready; '
                "the graph routes it over return approver -> desk otherwise",
            ),
            (
                "/status",
                "approval-pending",
                "is waiting_review: what still waits for review does not leave the approval gate approver; "
                "hand it on once approved, with the approval record",
            ),
        ],
    )


def test_an_approved_ready_payout_is_accepted() -> None:
    result = payouts.accept(envelope("to-payer"), me="payer", seen=delegated())
    assert isinstance(result, seam_handoff.Accepted)
    assert result.record.route == "proceed"


def test_what_an_earlier_route_takes_is_refused_over_otherwise_and_what_none_takes_is_not() -> None:
    sure = envelope("back-to-desk", status="ready", decisions=envelope("to-payer")["decisions"])
    assert refused(payouts.accept(sure, me="desk")) == (
        "repair",
        [
            (
                "/status",
                "guard-unmet",
                'is "ready", so transfer approver -> payer (when status is ready) takes the envelope: '
                "return approver -> desk otherwise gets only what no other route of approver takes",
            )
        ],
    )
    assert payouts.accept(envelope("back-to-desk"), me="desk").ok


def test_a_confidence_below_the_floor_names_the_route_the_graph_chooses() -> None:
    unsure = envelope("to-payer")
    unsure["decisions"][0]["confidence"] = 0.6
    assert refused(payouts.accept(unsure, me="payer", seen=delegated())) == (
        "repair",
        [
            (
                "/decisions/0/confidence",
                "confidence-below-floor",
                'decision "amount" is 0.6 sure, below the floor of 0.8 on transfer approver -> payer; '
                "below the floor the graph routes it over return approver -> desk otherwise",
            )
        ],
    )
    back = envelope("back-to-desk", handoff_id=handoff(2), status="ready", decisions=unsure["decisions"])
    assert payouts.accept(back, me="desk", seen=delegated()).ok


def test_a_confidence_past_the_doubles_is_no_json_data_not_a_crash() -> None:
    """An int too large for a double is infinite, as JSON.parse reads it: refused as not-json-data
    at its pointer, beside the schema's reasons, with the header still read."""
    huge = envelope("to-payer")
    huge["decisions"][0]["confidence"] = 10**400
    result = payouts.accept(huge, me="payer", seen=delegated())
    assert isinstance(result, seam_handoff.Rejected)
    assert result.rejection.handoff_id == huge["handoff_id"]
    rules = [(r.path, r.rule) for r in result.rejection.reasons]
    assert ("/decisions/0/confidence", "not-json-data") in rules
    assert all(rule != "unreadable-envelope" for _, rule in rules)


def test_below_a_floor_with_no_other_route_a_person_decides() -> None:
    unsure = envelope("to-archive")
    unsure["decisions"][0]["confidence"] = 0.85
    assert refused(payouts.accept(unsure, me="archive")) == (
        "escalate",
        [
            (
                "/decisions/0/confidence",
                "confidence-below-floor",
                'decision "amount" is 0.85 sure, below the floor of 0.9 on transfer payer -> archive; '
                "no other route out of payer takes it, so a person decides (escalate)",
            )
        ],
    )
    assert payouts.accept(envelope("to-archive"), me="archive").ok


def waiting() -> payouts.MemorySeenStore:
    """A store where the checker's hand-back (handoff 12) waits for review."""
    seen = payouts.create_memory_seen_store()
    assert payouts.accept(envelope("to-checker"), me="checker", seen=seen).ok
    back = payouts.accept(envelope("checker-back"), me="desk", seen=seen)
    assert isinstance(back, seam_handoff.Accepted)
    assert back.record.route == "approval"
    return seen


def test_the_redelegation_while_an_approval_is_pending_is_refused() -> None:
    pending = handoff(12)
    assert refused(payouts.accept(envelope("to-checker-again"), me="checker", seen=waiting())) == (
        "repair",
        [
            (
                "/approval",
                "approval-pending",
                f'task "payout-7731" waits for approval of handoff "{pending}": every hop of it but the resumption '
                "citing that handoff in approval.pending_handoff_id is refused",
            )
        ],
    )
    other = envelope("to-checker-again", approval=approval(11))
    assert refused(payouts.accept(other, me="checker", seen=waiting())) == (
        "repair",
        [
            (
                "/approval/pending_handoff_id",
                "approval-pending",
                f'cites handoff "{handoff(11)}", but task "payout-7731" waits for approval of handoff "{pending}": '
                "only the resumption citing that handoff may go on",
            )
        ],
    )


def test_the_resumption_citing_the_pending_handoff_goes_on() -> None:
    seen = waiting()
    resumption = envelope("to-checker-again", approval={**approval(12), "pending_handoff_id": handoff(12).upper()})
    assert payouts.accept(resumption, me="checker", seen=seen).ok


def test_an_approval_citing_another_handoff_than_the_one_it_follows_is_refused() -> None:
    cited = envelope("to-payer", approval=approval(9))
    assert refused(payouts.accept(cited, me="payer", seen=delegated())) == (
        "repair",
        [
            (
                "/approval/pending_handoff_id",
                "approval-pending",
                f'cites handoff "{handoff(9)}", but task "payout-7731" waits for no approval: an approval answers the '
                f'handoff it follows, the task\'s last accepted handoff "{handoff(1)}"',
            )
        ],
    )


def test_numbers_in_messages_are_written_as_javascript_writes_them() -> None:
    """A decision's confidence may be any JSON number: the messages quote it as String() does."""
    written = [
        (0.8, "0.8"),
        (1, "1"),
        (1.0, "1"),
        (0.00001, "0.00001"),
        (1e-7, "1e-7"),
        (10**21, "1e+21"),
        (1.5e22, "1.5e+22"),
        (123456789012345680000, "123456789012345680000"),
    ]
    assert [(value, number_text(value)) for value, _ in written] == written
