"""What the pure and the compiled build must answer alike (CI runs this suite against each): a
store's answer of a subclass of a result class, misused constructor arguments, deep nesting."""

import re
from typing import Any, cast

import pytest
import refund_desk_validators as desk

import seam_handoff
from seam_handoff import Claimed, ClaimHolder, ClaimRequest, Duplicate, Noted


class MyClaimed(Claimed):
    pass


class MyDuplicate(Duplicate):
    pass


class MyNoted(Noted):
    pass


class AnsweringStore:
    """A store whose claim() always gives `answer`."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def claim(self, request: ClaimRequest) -> object:
        return self.answer


@pytest.mark.parametrize(
    ("answer", "ok", "route"),
    [
        (MyClaimed(), True, "proceed"),
        (MyDuplicate("handoff", ClaimHolder("0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39", "billing", 0)), False, "discard"),
        (MyNoted(attempt=1), False, "repair"),
    ],
)
def test_a_subclass_of_a_result_class_is_taken_as_that_class(envelope: dict[str, Any], answer: object, ok: bool, route: str) -> None:
    result = desk.accept(envelope, me="billing", seen=cast(Any, AnsweringStore(answer)))
    assert result.ok is ok
    assert (result.record.route if isinstance(result, seam_handoff.Accepted) else result.rejection.route) == route


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"ttl_ms": 60e3}, "create_memory_seen_store: ttl_ms must be a positive whole number of milliseconds, not 60000.0"),
        ({"ttl_ms": "1"}, "create_memory_seen_store: ttl_ms must be a positive whole number of milliseconds, not '1'"),
        ({"lease_ms": True}, "create_memory_seen_store: lease_ms must be a whole number of milliseconds, 0 (no lease) or more, not True"),
        ({"scope": None}, 'create_memory_seen_store: scope must be "graph" or "receiver", not None'),
    ],
)
def test_a_misused_memory_store_argument_is_named(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        desk.create_memory_seen_store(**cast(Any, arguments))


@pytest.mark.parametrize("bound", [1e4, "2", True, 0])
def test_a_misused_loop_detector_bound_is_named(bound: object) -> None:
    with pytest.raises(TypeError, match=f"^LoopDetector: max_tasks must be a positive whole number, not {re.escape(repr(bound))}$"):
        desk.create_loop_detector(max_tasks=cast(Any, bound))


def test_a_loop_signature_of_a_value_nested_past_the_stack_is_a_value_error() -> None:
    deep: object = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ValueError, match=r"^loop signature: the value is nested too deeply$"):
        desk.loop_signature({"goal": {"statement": deep}})
