"""The memory store keeps a task it saw start as one flat tuple until a read needs more: the
ledger it then makes of it is the one it would have kept (the hop, path, budget and pending
approval), and the chain of custody is checked against it as before."""

import gc
from typing import Any

import pytest

from seam_handoff import ClaimApproval, Claimed, ClaimRequest, Custody, CustodyFault, Duplicate, MemorySeenStore
from seam_handoff._stores import ClaimBudget, _handoff_key  # pyright: ignore[reportPrivateUsage]

_AT = 1_700_000_000_000


def _request(
    hop_index: int, handoff_id: str, producer: str, receiver: str, path: tuple[str, ...] | None, budget: ClaimBudget | None, **more: Any
) -> ClaimRequest:
    return ClaimRequest(handoff_id, "t-1", hop_index, producer, receiver, None, "accepted", _AT + hop_index, path, budget, **more)


@pytest.mark.parametrize(
    ("path", "budget", "approval"),
    [
        (None, None, None),
        (("a", "b"), None, None),
        (("a", "b"), ClaimBudget(None, None), None),
        (("a", "b"), ClaimBudget({"tokens": 60000, "tool_calls": 12}, None), None),
        (("a", "b"), ClaimBudget({"tokens": 60000, "tool_calls": 12}, {"tool_calls": 1, "tokens": 2300}), None),
        ((), ClaimBudget({}, {}), ClaimApproval(True, None)),
    ],
)
def test_a_fresh_task_reads_back_as_the_ledger_it_was_given(
    path: tuple[str, ...] | None, budget: ClaimBudget | None, approval: ClaimApproval | None
) -> None:
    store = MemorySeenStore()
    assert store.claim(_request(1, "h-1", "a", "b", path, budget, approval=approval)) == Claimed()
    # Flat, the entry is no object the cyclic GC keeps traversing.
    gc.collect()
    assert not gc.is_tracked(store._tasks["t-1"])  # pyright: ignore[reportPrivateUsage]
    task = store._task("t-1")  # pyright: ignore[reportPrivateUsage]
    assert task is not None
    assert [tuple(hop) for hop in task.hops] == [(1, "h-1", "a", "b", _AT + 1, None, None, None)]
    assert (task.path, task.budget, task.touched, task.ended, task.refusals) == (path, budget, _AT + 1, None, None)
    # Counters keep their order: a ledger compares them in it.
    assert [list(counts or {}) for counts in budget or ()] == [list(counts or {}) for counts in task.budget or ()]
    assert task.pending == ("h-1" if approval is not None and approval.waits else None)
    # The handoff's entry is the task's hop again, the one a duplicate names.
    assert store._accepted["1:a:h-1"] is task.hops[0]  # pyright: ignore[reportPrivateUsage]


def test_the_next_hop_is_checked_against_the_flat_task() -> None:
    store = MemorySeenStore()
    first = _request(1, "h-1", "a", "b", ("a", "b"), ClaimBudget({"tokens": 100}, {"tokens": 40}))
    assert store.claim(first) == Claimed()
    # Spend reported lower than the last hop's, and a path that rewrites its first step.
    answer = store.claim(_request(2, "h-2", "b", "c", ("x", "b", "c"), ClaimBudget({"tokens": 100}, {"tokens": 10})))
    assert isinstance(answer, Custody)
    assert set(answer.faults) == {
        CustodyFault("path", 0, "a"),
        CustodyFault("budget-consumed", counter="tokens", before=40, hop=1),
    }
    # The same handoff again is a duplicate of the recorded hop.
    assert isinstance(store.claim(first), Duplicate)


def _claim_at(store: MemorySeenStore, task_id: str, handoff_id: str, at: int) -> object:
    return store.claim(ClaimRequest(handoff_id, task_id, 1, "a", "b", None, "accepted", at, ("a", "b"), None))


def test_a_flat_task_expires_with_its_handoff() -> None:
    store = MemorySeenStore(ttl_ms=1_000)
    assert _claim_at(store, "t-1", "h-1", _AT) == Claimed()
    # Another task's claim a ttl later sweeps the first while it is still flat.
    assert _claim_at(store, "t-2", "h-2", _AT + 1_000) == Claimed()
    assert list(store._tasks) == ["t-2"]  # pyright: ignore[reportPrivateUsage]
    assert _handoff_key("a", "h-1") not in store._accepted  # pyright: ignore[reportPrivateUsage]
    # Forgotten, the handoff starts its task afresh.
    assert _claim_at(store, "t-1", "h-1", _AT + 2_000) == Claimed()


def test_the_sweep_looks_again_at_a_task_that_became_first() -> None:
    store = MemorySeenStore(ttl_ms=1_000)
    # t-2 is written second with an earlier time (a clock that went back): t-1 stays first.
    assert _claim_at(store, "t-1", "h-1", _AT + 500) == Claimed()
    assert _claim_at(store, "t-2", "h-2", _AT) == Claimed()
    # Its next hop moves t-1 behind t-2, which expires before the time t-1 expired at.
    assert store.claim(ClaimRequest("h-3", "t-1", 2, "b", "c", None, "accepted", _AT + 600, ("a", "b", "c"), None)) == Claimed()
    assert _claim_at(store, "t-3", "h-4", _AT + 1_200) == Claimed()
    assert list(store._tasks) == ["t-1", "t-3"]  # pyright: ignore[reportPrivateUsage]


def test_a_handoff_reused_in_another_task_finds_the_flat_tasks_hop() -> None:
    store = MemorySeenStore()
    assert _claim_at(store, "t-1", "h-1", _AT) == Claimed()
    answer = _claim_at(store, "t-2", "h-1", _AT + 1)
    assert isinstance(answer, Duplicate)
    # The first task was made a _Task to name the hop that holds the handoff.
    assert not isinstance(store._tasks["t-1"], tuple)  # pyright: ignore[reportPrivateUsage]
    task = store._task("t-1")  # pyright: ignore[reportPrivateUsage]
    assert task is not None
    assert store._accepted[_handoff_key("a", "h-1")] is task.hops[0]  # pyright: ignore[reportPrivateUsage]
