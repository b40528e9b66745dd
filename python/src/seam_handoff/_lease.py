"""commit() and release() (and their async forms), the port of src/runtime/lease.ts: the end of
a leased claim. With a store that leases claims (lease_ms), accept() holds an accepted handoff
under the claim's token (record.lease) until the service says how processing went, as a queue
consumer deletes an SQS message or XACKs a Redis Streams entry: commit once the handoff is
processed (every redelivery is then a duplicate), release when it will not be (the next
delivery takes the claim over at once). A record whose lease is None was committed when it was
claimed: both answer Committed() without asking the store."""

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal, cast

from ._clock import read_clock
from ._records import AcceptanceRecord
from ._stores import Committed, SettleRequest, SettleResult

__all__ = ["commit", "commit_async", "release", "release_async"]


def _request(
    call: str, record: object, seen: object, now: Callable[[], float] | None, action: Literal["commit", "release"]
) -> SettleRequest | None:
    if not isinstance(record, AcceptanceRecord):
        raise TypeError(f"{call}(): record must be the acceptance record accept() returned (verdict.record)")
    if not callable(getattr(seen, "claim", None)):
        raise TypeError(f"{call}(): seen must be the store accept() claimed on")
    if record.lease is None:
        return None
    if not callable(getattr(seen, "settle", None)):
        raise TypeError(
            f"{call}(): seen has no settle method, so it cannot hold the lease record.lease names: pass the store accept() claimed on"
        )
    at = read_clock(call, now)
    return SettleRequest(record.task_id, record.handoff_id.lower(), record.producer, record.lease.token, action, at)


def _ask(seen: object, request: SettleRequest) -> object:
    """The store's answer (checked callable by _request)."""
    settle = cast(Callable[[SettleRequest], object], cast(Any, seen).settle)
    return settle(request)


def _settled(call: str, answer: object) -> SettleResult:
    if inspect.isawaitable(answer):
        if inspect.iscoroutine(answer):
            answer.close()
        raise TypeError(f"{call}(): seen.settle returned an awaitable: use {call}_async")
    return cast(SettleResult, answer)


def commit(record: AcceptanceRecord, *, seen: object, now: Callable[[], float] | None = None) -> SettleResult:
    """Commits the claim of an accepted handoff: it is processed, and every redelivery is a
    duplicate from now on (idempotent). Returns Committed(), or Lost(holder) when the lease ran
    out and another delivery took the claim over (holder) or the store forgot the task (None).
    now: the clock in seconds (default time.time). Raises TypeError on a misuse; what the store raises."""
    request = _request("commit", record, seen, now, "commit")
    return Committed() if request is None else _settled("commit", _ask(seen, request))


async def commit_async(record: AcceptanceRecord, *, seen: object, now: Callable[[], float] | None = None) -> SettleResult:
    """commit() over an asynchronous store (AsyncRedisSeenStore): raises what the store raises (StoreUnavailableError: commit again)."""
    request = _request("commit_async", record, seen, now, "commit")
    if request is None:
        return Committed()
    answer = _ask(seen, request)
    return cast(SettleResult, await cast(Awaitable[object], answer) if inspect.isawaitable(answer) else answer)


def release(record: AcceptanceRecord, *, seen: object, now: Callable[[], float] | None = None) -> SettleResult:
    """Releases the claim of an accepted handoff that will not be processed: the next delivery
    to this receiver takes it over at once. Returns Released(); Committed() when it was committed
    before (it stays committed); Lost as for commit()."""
    request = _request("release", record, seen, now, "release")
    return Committed() if request is None else _settled("release", _ask(seen, request))


async def release_async(record: AcceptanceRecord, *, seen: object, now: Callable[[], float] | None = None) -> SettleResult:
    """release() over an asynchronous store."""
    request = _request("release_async", record, seen, now, "release")
    if request is None:
        return Committed()
    answer = _ask(seen, request)
    return cast(SettleResult, await cast(Awaitable[object], answer) if inspect.isawaitable(answer) else answer)
