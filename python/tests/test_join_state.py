"""join_state(): how a service asks about a task's join (the conformance suite's fan-out cases
cover the states; here, the answer for an unknown task and the misuses)."""

import asyncio

import pytest
import refund_desk_validators as desk

from seam_handoff import JoinReport, JoinStateRequest, JoinStateResult


def test_a_task_the_store_does_not_know_has_no_join() -> None:
    report = desk.join_state("never-seen", seen=desk.create_memory_seen_store(), now=lambda: 1_780_000_000.0)
    assert report == JoinReport("none")
    assert report.to_dict() == {"state": "none"}


def test_misuse_is_a_type_error() -> None:
    class NoJoinState:
        def claim(self, request: object) -> object:
            return None

    with pytest.raises(
        TypeError, match=r"^join_state\(\): seen must be the store accept\(\) claims on, with a join_state\(request\) method"
    ):
        desk.join_state("t", seen=NoJoinState())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^join_state\(\): task_id must be the task_id of the task, a non-empty str$"):
        desk.join_state("", seen=desk.create_memory_seen_store())

    class Asynchronous:
        def claim(self, request: object) -> object:
            return None

        async def join_state(self, request: JoinStateRequest) -> JoinStateResult:
            return JoinStateResult("none")

    with pytest.raises(TypeError, match=r"^join_state\(\): seen.join_state returned an awaitable: use join_state_async"):
        desk.join_state("t", seen=Asynchronous())  # type: ignore[arg-type]
    assert asyncio.run(desk.join_state_async("t", seen=Asynchronous())) == JoinReport("none")  # type: ignore[arg-type]
