"""first_envelope() and next_envelope(): headers from the graph, copies of what they carry."""

import math
import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any, cast

import pytest
import refund_desk_validators as desk

GOAL: desk.Goal = {
    "statement": "Confirm whether order 7731 was charged twice.",
    "acceptance_criteria": ["The verdict says duplicate or not"],
}
BUDGET: desk.Budget = {"consumed": {"tokens": 10}, "limit": {"tokens": 4000}}


def clock() -> float:
    return 1_764_410_531.25


def test_a_first_envelope_is_accepted_by_its_receiver() -> None:
    envelope = desk.first_envelope(
        me="triage",
        to="billing",
        task_id="task-1",
        goal=GOAL,
        budget=BUDGET,
        action="classified the request",
        constraints=["Read-only access to the ledger"],
        now=clock,
        handoff_id="0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
    )
    assert envelope["hop"] == {"index": 1, "limit": desk.HOP_LIMIT, "path": ["triage", "billing"]}
    assert envelope["provenance"] == [
        {"agent": "triage", "action": "classified the request", "at": "2025-11-29T10:02:11.250Z", "status": "asserted"}
    ]
    assert desk.accept(envelope, me="billing").ok


def test_next_envelope_hands_on_a_copy() -> None:
    received = desk.first_envelope(
        me="triage", to="billing", task_id="task-2", goal=GOAL, budget=BUDGET, action="asked", constraints=["read-only"], now=clock
    )
    assert desk.accept(received, me="billing").ok
    artefact: desk.ArtefactsItem = {"ref": "s3://ledger/7731.json", "media_type": "application/json", "role": "supporting"}
    reply = desk.next_envelope(
        received, me="billing", to="triage", action="checked the ledger", artefacts=[artefact], status="ready", now=clock
    )
    assert reply["task_id"] == "task-2"
    assert reply["hop"]["index"] == 2
    assert reply["hop"].get("path") == ["triage", "billing", "triage"]
    assert [entry["agent"] for entry in reply["provenance"]] == ["triage", "billing"]
    assert reply["handoff_id"] != received["handoff_id"]
    reply["goal"]["statement"] = "changed"
    assert received["goal"]["statement"] == GOAL["statement"]
    assert desk.accept(reply, me="triage").ok


def test_misuse_raises() -> None:
    with pytest.raises(TypeError, match=r'^"billing" is not an entry of graph refund_desk: a task starts at triage$'):
        desk.first_envelope(me="billing", to="triage", task_id="t", goal=GOAL, budget=BUDGET, action="a")
    with pytest.raises(TypeError, match=r"^graph refund_desk has no edge triage -> notifier$"):
        desk.first_envelope(me="triage", to="notifier", task_id="t", goal=GOAL, budget=BUDGET, action="a")
    received: Any = desk.first_envelope(me="triage", to="billing", task_id="t", goal=GOAL, budget=BUDGET, action="a")
    with pytest.raises(TypeError, match=r'^the envelope received was addressed to "billing", not to "refunds"$'):
        desk.next_envelope(received, me="refunds", to="notifier", action="a")


def test_a_received_envelope_or_arrivals_it_cannot_read_are_named() -> None:
    received: Any = desk.first_envelope(me="triage", to="billing", task_id="t", goal=GOAL, budget=BUDGET, action="a")
    for value in (None, "hello", ["a"]):
        with pytest.raises(
            TypeError, match=r"^next_envelope\(received, \.\.\.\): received must be an envelope \(the dict accept\(\) took\)$"
        ):
            desk.next_envelope(cast(Any, value), me="billing", to="refunds", action="a")
    with pytest.raises(TypeError, match=r'^the envelope received was addressed to null, not to "billing"$'):
        desk.next_envelope(cast(Any, {}), me="billing", to="refunds", action="a")
    # "1" is not 1: never coerced.
    with pytest.raises(TypeError, match=r"^the envelope received has no hop.path and hop.index to extend$"):
        desk.next_envelope(cast(Any, {**received, "hop": {**received["hop"], "index": "1"}}), me="billing", to="refunds", action="a")
    for arrivals in (None, [None], "ab"):
        with pytest.raises(
            TypeError, match=r"^join_envelope\(arrivals, \.\.\.\): arrivals must be a list of envelopes \(the dicts accept\(\) took\)$"
        ):
            desk.join_envelope(cast(Any, arrivals), me="billing", to="refunds", action="a")


def test_a_join_takes_only_arrivals_it_can_add_up_each_branch_once() -> None:
    arrival: Any = _arrivals()[0]
    with pytest.raises(TypeError, match=_exactly("join_envelope(arrivals, ...): no arrival given; a join hands on what reached it")):
        desk.join_envelope([], **JOIN)
    unread = _exactly(
        "an arrival has no hop.branch, hop.path, whole-number hop.index or budget: a join takes the envelopes its branches sent it"
    )
    unusable: list[object] = [None, {"consumed": {"tokens": 1}}, {"limit": [], "consumed": {}}]
    for budget in unusable:
        with pytest.raises(TypeError, match=unread):
            desk.join_envelope(cast(Any, [{**arrival, "budget": budget}]), **JOIN)
    counts = _exactly("an arrival's budget counts must be whole numbers from 0 to 2^53 - 1, as accept() requires: a join adds them up")
    for count in (-100, "3", float("nan"), 1.5, True, 2**53):
        with pytest.raises(TypeError, match=counts):
            desk.join_envelope(cast(Any, [{**arrival, "budget": {"limit": {"tokens": count}, "consumed": {}}}]), **JOIN)
        with pytest.raises(TypeError, match=counts):
            desk.join_envelope(cast(Any, [{**arrival, "budget": {"limit": {}, "consumed": {"tokens": count}}}]), **JOIN)
    twice: Any = {**arrival, "handoff_id": "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b40"}
    with pytest.raises(
        TypeError, match=_exactly("""two arrivals come from branch "fan/billing": a join takes each branch's arrival once""")
    ):
        desk.join_envelope([arrival, twice], **JOIN)
    assert desk.join_envelope([arrival], **JOIN)["budget"] == {
        "limit": arrival["budget"]["limit"],
        "consumed": arrival["budget"]["consumed"],
    }


def test_a_received_branch_that_is_no_str_is_named() -> None:
    """accept() refuses a hop.branch that is no string; the builder does not carry one on (nor drop
    it), as the JavaScript builder does not."""
    received: Any = desk.first_envelope(**FIRST)
    for branch in (5, None):
        with pytest.raises(
            TypeError,
            match=_exactly(
                f"the envelope received has a hop.branch of type {type(branch).__name__}, not a branch id (accept() refuses it)"
            ),
        ):
            desk.next_envelope(cast(Any, {**received, "hop": {**received["hop"], "branch": branch}}), **NEXT)


def test_a_goal_or_budget_that_is_no_mapping_is_named() -> None:
    none: Any = None
    with pytest.raises(TypeError) as raised:
        desk.first_envelope(me="triage", to="billing", task_id="t", goal=GOAL, budget=none, action="a")
    assert str(raised.value) == "first_envelope(): budget must be a mapping of JSON data (a dict), not NoneType"
    with pytest.raises(TypeError) as raised:
        desk.first_envelope(me="triage", to="billing", task_id="t", goal=cast(Any, ["s"]), budget=BUDGET, action="a")
    assert str(raised.value) == "first_envelope(): goal must be a mapping of JSON data (a dict), not list"
    received: Any = desk.first_envelope(me="triage", to="billing", task_id="t", goal=GOAL, budget=BUDGET, action="a")
    with pytest.raises(TypeError) as raised:
        desk.next_envelope(received, me="billing", to="triage", action="a", budget=cast(Any, "40000"))
    assert str(raised.value) == "next_envelope(): budget must be a mapping of JSON data (a dict), not str"
    # A mapping that is not a dict is taken, as before.
    assert (
        desk.next_envelope(received, me="billing", to="triage", action="a", budget=cast(Any, MappingProxyType(dict(BUDGET))))["budget"]
        == BUDGET
    )


def _exactly(message: str) -> str:
    """A pattern matching message and nothing more."""
    return f"^{re.escape(message)}$"


def _arrivals() -> list[Any]:
    """What reached a join: an envelope handed back to the entry agent, inside a branch."""
    received = desk.first_envelope(me="triage", to="billing", task_id="t", goal=GOAL, budget=BUDGET, action="a", now=clock)
    back: Any = desk.next_envelope(received, me="billing", to="triage", action="answered", status="ready", now=clock)
    return [{**back, "hop": {**back["hop"], "branch": "fan/billing"}}]


# A valid handoff for each builder, which each test changes by the options it gives.
FIRST: dict[str, Any] = {"me": "triage", "to": "billing", "task_id": "t", "goal": GOAL, "budget": BUDGET, "action": "a"}
NEXT: dict[str, Any] = {"me": "billing", "to": "triage", "action": "a"}
JOIN: dict[str, Any] = {"me": "triage", "to": "billing", "action": "a"}

# Each builder, called with options over its valid handoff; the arrivals of a join are read after its options.
BUILDERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "first_envelope": lambda options: desk.first_envelope(**{**FIRST, **options}),
    "next_envelope": lambda options: desk.next_envelope(desk.first_envelope(**FIRST), **{**NEXT, **options}),
    "join_envelope": lambda options: desk.join_envelope(_arrivals(), **{**JOIN, **options}),
}


@pytest.mark.parametrize(
    ("call", "options", "message"),
    [
        ("first_envelope", {"me": None}, "me must be a str (this agent's id), not NoneType"),
        ("first_envelope", {"to": 7}, "to must be a str (the receiving agent's id), not int"),
        ("first_envelope", {"action": b"read"}, "action must be a str (what this agent did), not bytes"),
        ("first_envelope", {"task_id": None}, "task_id must be a str (the task's id), not NoneType"),
        ("first_envelope", {"task_id": 42}, "task_id must be a str (the task's id), not int"),
        ("first_envelope", {"goal": "<script>alert(1)</script>"}, "goal must be a mapping of JSON data (a dict), not str"),
        ("first_envelope", {"budget": None}, "budget must be a mapping of JSON data (a dict), not NoneType"),
        ("first_envelope", {"provenance_status": True}, "provenance_status must be a str (verified, asserted or unverified), not bool"),
        ("first_envelope", {"note": {"text": "n"}}, "note must be a str (a note for the provenance entry), not dict"),
        ("first_envelope", {"status": 5}, "status must be a str (the envelope's status), not int"),
        ("first_envelope", {"handoff_id": 1.5}, "handoff_id must be a str (the new handoff's id), not float"),
        ("next_envelope", {"me": 1}, "me must be a str (this agent's id), not int"),
        ("next_envelope", {"to": None}, "to must be a str (the receiving agent's id), not NoneType"),
        ("next_envelope", {"action": ["read"]}, "action must be a str (what this agent did), not list"),
        ("next_envelope", {"goal": "s"}, "goal must be a mapping of JSON data (a dict), not str"),
        ("next_envelope", {"budget": []}, "budget must be a mapping of JSON data (a dict), not list"),
        ("next_envelope", {"provenance_status": None}, "provenance_status must be a str (verified, asserted or unverified), not NoneType"),
        ("next_envelope", {"note": 3}, "note must be a str (a note for the provenance entry), not int"),
        ("next_envelope", {"status": ["ready"]}, "status must be a str (the envelope's status), not list"),
        ("next_envelope", {"handoff_id": 7}, "handoff_id must be a str (the new handoff's id), not int"),
        ("join_envelope", {"me": None}, "me must be a str (this agent's id), not NoneType"),
        ("join_envelope", {"to": False}, "to must be a str (the receiving agent's id), not bool"),
        ("join_envelope", {"action": None}, "action must be a str (what this agent did), not NoneType"),
        ("join_envelope", {"goal": ["s"]}, "goal must be a mapping of JSON data (a dict), not list"),
        ("join_envelope", {"budget": 100}, "budget must be a mapping of JSON data (a dict), not int"),
        ("join_envelope", {"parent": "envelope"}, "parent must be a mapping of JSON data (a dict), not str"),
        ("join_envelope", {"note": []}, "note must be a str (a note for the provenance entry), not list"),
        ("join_envelope", {"handoff_id": 7}, "handoff_id must be a str (the new handoff's id), not int"),
        ("first_envelope", {"now": 1764410531.25}, "now must be a function (the time in seconds since the Unix epoch), not float"),
        ("next_envelope", {"now": "2026-12-01"}, "now must be a function (the time in seconds since the Unix epoch), not str"),
        ("join_envelope", {"now": 7}, "now must be a function (the time in seconds since the Unix epoch), not int"),
    ],
)
def test_an_option_of_the_wrong_type_is_named(call: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=_exactly(f"{call}(): {message}")):
        BUILDERS[call](options)


@pytest.mark.parametrize(
    ("call", "answer", "error", "message"),
    [
        ("first_envelope", math.nan, ValueError, "now() returned nan, outside the times an ISO 8601 record can hold"),
        ("next_envelope", 1e20, ValueError, "now() returned 1e+20, outside the times an ISO 8601 record can hold"),
        ("join_envelope", "2026-12-01", TypeError, "now() must return seconds since the Unix epoch as a number, not str"),
        (
            "first_envelope",
            1764410531250,
            TypeError,
            "now() returned 1764410531250, which is milliseconds since the Unix epoch: it must return seconds (time.time())",
        ),
    ],
)
def test_the_clock_is_read_as_accept_reads_it(call: str, answer: object, error: type[Exception], message: str) -> None:
    """A wrong clock gets the words accept() gives it (seam_handoff._clock.read_clock)."""
    with pytest.raises(error, match=_exactly(f"{call}(): {message}")):
        BUILDERS[call]({"now": lambda: answer})


def test_the_clock_is_written_at_the_range_ends() -> None:
    """Times datetime cannot hold are written as JavaScript writes them."""
    assert BUILDERS["first_envelope"]({"now": lambda: -8.64e12})["provenance"][0]["at"] == "-271821-04-20T00:00:00.000Z"
    assert BUILDERS["first_envelope"]({"now": lambda: -62198755200.0})["provenance"][0]["at"] == "-000001-01-01T00:00:00.000Z"


def test_the_options_are_checked_first() -> None:
    """A mistyped me is named, not looked up as an agent (a dict would be unhashable there)."""
    with pytest.raises(TypeError, match=_exactly("first_envelope(): me must be a str (this agent's id), not dict")):
        BUILDERS["first_envelope"]({"me": {"id": "triage"}, "to": "ghost"})
    with pytest.raises(TypeError, match=_exactly("next_envelope(): budget must be a mapping of JSON data (a dict), not list")):
        desk.next_envelope(cast(Any, None), me="billing", to="triage", action="a", budget=cast(Any, []))


def test_options_of_the_right_type_given_or_left_out_are_taken() -> None:
    given: dict[str, Any] = {"provenance_status": "verified", "note": "n", "status": "ready", "handoff_id": "h-1"}
    first = BUILDERS["first_envelope"](given)
    assert (first["handoff_id"], first["status"], first["provenance"][0]["status"], first["provenance"][0]["note"]) == (
        "h-1",
        "ready",
        "verified",
        "n",
    )
    assert BUILDERS["first_envelope"]({})["task_id"] == "t"
    assert BUILDERS["next_envelope"]({**given, "goal": GOAL, "budget": BUDGET})["budget"] == BUDGET
    assert BUILDERS["next_envelope"]({})["hop"]["index"] == 2
    parent: Any = {"goal": GOAL, "budget": BUDGET}
    assert BUILDERS["join_envelope"]({**given, "parent": parent})["goal"] == GOAL
    assert BUILDERS["join_envelope"]({"goal": GOAL, "budget": BUDGET})["budget"] == BUDGET


def test_a_gated_handoff_carries_its_approval() -> None:
    """The builders write approval (envelope 1.4) after the completion fields, as a copy."""
    import payouts_validators as payouts

    approval: Any = {
        "approver": "ops-lead",
        "approved_at": "2026-12-01T09:05:00.000Z",
        "pending_handoff_id": "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
    }
    envelope: Any = payouts.first_envelope(
        me="desk",
        to="approver",
        task_id="t-approval",
        goal=GOAL,
        budget=BUDGET,
        action="approved",
        status="ready",
        approval=approval,
        constraints=["c"],
        now=clock,
    )
    assert envelope["approval"] == approval
    assert envelope["approval"] is not approval
    assert list(envelope)[-2:] == ["status", "approval"]


def test_a_whole_number_written_as_a_float_is_handed_on_as_an_int() -> None:
    """JSON.parse reads 1.0 as 1, and accept() takes it: the next hop is 2 and a join's spend 5,
    as the JavaScript builders write them, not 2.0 and 5.0 (nor a TypeError)."""
    received: Any = desk.first_envelope(
        me="triage", to="billing", task_id="t-floats", goal=GOAL, budget=BUDGET, action="a", constraints=["c"], now=clock
    )
    received["hop"]["index"] = 1.0
    assert desk.accept(received, me="billing").ok
    reply = desk.next_envelope(received, me="billing", to="triage", action="answers", status="ready", now=clock)
    assert (reply["hop"]["index"], type(reply["hop"]["index"])) == (2, int)
    arrivals: Any = [
        {
            **reply,
            "hop": {**reply["hop"], "index": 2.0, "branch": "fan/billing"},
            "budget": {"limit": {"tokens": 4000}, "consumed": {"tokens": 3.0}},
        },
        {
            **reply,
            "hop": {**reply["hop"], "index": 3, "branch": "fan/refunds"},
            "budget": {"limit": {"tokens": 4000}, "consumed": {"tokens": 1}},
        },
    ]
    parent: Any = {"budget": {"consumed": {"tokens": 1.0}, "limit": {"tokens": 4000}}, "goal": GOAL}
    joined: Any = desk.join_envelope(arrivals, me="triage", to="billing", action="joins", parent=parent, now=clock)
    assert joined["hop"]["index"] == 4
    # Whole sums are ints (a fraction, which accept() never takes, is refused: see below).
    assert joined["budget"] == {"limit": {"tokens": 4000}, "consumed": {"tokens": 5}}
    assert type(joined["budget"]["consumed"]["tokens"]) is int
    # The first of equal indexes is the longest, whichever way its index is written.
    arrivals[1]["hop"]["index"] = 2
    tied: Any = desk.join_envelope(arrivals, me="triage", to="billing", action="joins", now=clock)
    assert tied["hop"]["path"] == [*arrivals[0]["hop"]["path"], "billing"]


def test_a_join_without_a_parent_adds_up_the_arrivals_limits() -> None:
    """A fan-out at the entry has no parent budget: the join hands on its arrivals' limits added up,
    for the counters every arrival limits (as the ledger records at the join), and their spend."""
    received: Any = desk.first_envelope(
        me="triage", to="billing", task_id="t-entry-join", goal=GOAL, budget=BUDGET, action="a", constraints=["c"], now=clock
    )
    reply = desk.next_envelope(received, me="billing", to="triage", action="answers", status="ready", now=clock)
    arrivals: Any = [
        {
            **reply,
            "hop": {**reply["hop"], "branch": "fan/billing"},
            "budget": {"limit": {"tokens": 900.0, "retries": 2}, "consumed": {"tokens": 300}},
        },
        {**reply, "hop": {**reply["hop"], "branch": "fan/refunds"}, "budget": {"limit": {"tokens": 100}, "consumed": {"tokens": 20}}},
    ]
    joined: Any = desk.join_envelope(arrivals, me="triage", to="billing", action="joins", now=clock)
    assert joined["budget"] == {"limit": {"tokens": 1000}, "consumed": {"tokens": 320}}
    assert type(joined["budget"]["limit"]["tokens"]) is int


def test_a_join_stops_its_sums_at_the_largest_safe_integer() -> None:
    """Spend and limits added up stop at 2**53 - 1, as the ledger's do (and as JavaScript, whose
    doubles cannot add past it exactly, writes them)."""
    most = 2**53 - 1
    received: Any = desk.first_envelope(
        me="triage", to="billing", task_id="t-huge", goal=GOAL, budget=BUDGET, action="a", constraints=["c"], now=clock
    )
    reply = desk.next_envelope(received, me="billing", to="triage", action="answers", status="ready", now=clock)
    arrivals: Any = [
        {
            **reply,
            "hop": {**reply["hop"], "branch": "fan/billing"},
            "budget": {"limit": {"tokens": most}, "consumed": {"tokens": 2**52 + 1}},
        },
        {
            **reply,
            "hop": {**reply["hop"], "branch": "fan/refunds"},
            "budget": {"limit": {"tokens": most}, "consumed": {"tokens": 2**52 + 2}},
        },
    ]
    joined: Any = desk.join_envelope(arrivals, me="triage", to="billing", action="joins", now=clock)
    assert joined["budget"] == {"limit": {"tokens": most}, "consumed": {"tokens": most}}
