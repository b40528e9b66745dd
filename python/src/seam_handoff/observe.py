"""Ingest with its handoff event: observe_accept() wraps a generated module's accept() (and
observe_accept_async() its accept_async()) so that every call, whatever its verdict, is described
once (a HandoffEvent) and handed to the event log and to telemetry, the observe -> warn -> enforce
rollout of the JavaScript runtime's observeAccept(). accept() stays pure; this is the layer a
service opts into. The wrapper has accept()'s exact signature (me stays a Literal of the graph's
agents); with_delivery() adds what the service knows of the delivery.
"""

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, NamedTuple, ParamSpec, Protocol, cast

from ._records import AcceptResult, EdgeInfo, GraphInfo
from .events import EventLog, HandoffDescriber, HandoffEvent

__all__ = ["HandoffObserver", "IngestTiming", "ObservedAccept", "ObservedAcceptAsync", "observe_accept", "observe_accept_async"]

P = ParamSpec("P")


class IngestTiming(NamedTuple):
    """When one ingest ran, in ns since the Unix epoch (what OpenTelemetry takes)."""

    started_ns: int
    ended_ns: int


def _start() -> tuple[int, int]:
    """Now in ns, on the wall clock (what IngestTiming gives) and on the monotonic clock (what times the call)."""
    return time.time_ns(), time.perf_counter_ns()


def _timing(started: tuple[int, int]) -> IngestTiming:
    """The call begun at started (_start), its end reckoned on the monotonic clock: the wall clock
    may be set back during the call, and an ingest time is never negative."""
    wall, monotonic = started
    return IngestTiming(wall, wall + time.perf_counter_ns() - monotonic)


class HandoffObserver(Protocol):
    """Something that records each ingest (telemetry: a span and metrics). Must not raise."""

    def observe(self, event: HandoffEvent, timing: IngestTiming) -> None:
        """Records one ingest."""
        ...


class _Reporter:
    __slots__ = ("_describe", "_events", "_telemetry")

    def __init__(self, graph: GraphInfo, edges: Sequence[EdgeInfo], events: EventLog | None, telemetry: HandoffObserver | None) -> None:
        self._describe = HandoffDescriber(graph, edges)
        self._events = events
        self._telemetry = telemetry

    def report(
        self,
        envelope: object,
        options: dict[str, object],
        result: AcceptResult,
        timing: IngestTiming,
        sent_at_ms: int | float | None,
        size_bytes: int | None,
    ) -> None:
        now = options.get("now")
        # accept() checked now(): seconds since the Unix epoch as a number.
        completed: int | float = round(timing.ended_ns / 1_000_000) if not callable(now) else cast(float, now()) * 1000
        me = options.get("me")
        event = self._describe.describe(
            envelope,
            result,
            receiver=me if isinstance(me, str) else "",
            completed_at_ms=completed,
            ingest_ms=(timing.ended_ns - timing.started_ns) / 1_000_000,
            sent_at_ms=sent_at_ms,
            size_bytes=size_bytes,
        )
        if self._events is not None:
            self._events.write(event)
        if self._telemetry is not None:
            try:
                self._telemetry.observe(event, timing)
            except Exception:  # telemetry must never break ingest
                pass


class ObservedAccept(Generic[P]):
    """accept() that also reports each handoff: the same arguments, verdicts and errors. What
    accept() raises (a misuse, a failing store) is raised unchanged and nothing is reported."""

    __slots__ = ("_accept", "_reporter", "_sent_at_ms", "_size_bytes")

    def __init__(
        self,
        accept: Callable[P, AcceptResult],
        reporter: _Reporter,
        sent_at_ms: int | float | None = None,
        size_bytes: int | None = None,
    ) -> None:
        self._accept = accept
        self._reporter = reporter
        self._sent_at_ms = sent_at_ms
        self._size_bytes = size_bytes

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> AcceptResult:
        """accept(envelope, *, me, ...), reported."""
        started = _start()
        result = self._accept(*args, **kwargs)
        timing = _timing(started)
        self._reporter.report(args[0] if args else None, dict(kwargs), result, timing, self._sent_at_ms, self._size_bytes)
        return result

    def with_delivery(self, *, sent_at_ms: int | float | None = None, size_bytes: int | None = None) -> "ObservedAccept[P]":
        """This accept for one delivery: sent_at_ms, when the producer finished (ms since the Unix
        epoch, e.g. the queue message's timestamp; the start of the handoff latency); size_bytes,
        the envelope's size as received (the request body's length)."""
        return ObservedAccept(self._accept, self._reporter, sent_at_ms, size_bytes)


class ObservedAcceptAsync(Generic[P]):
    """observe_accept() for accept_async(): the span and ingest time cover the whole call (the
    artefact checks and the store's claim included)."""

    __slots__ = ("_accept", "_reporter", "_sent_at_ms", "_size_bytes")

    def __init__(
        self,
        accept: Callable[P, Awaitable[AcceptResult]],
        reporter: _Reporter,
        sent_at_ms: int | float | None = None,
        size_bytes: int | None = None,
    ) -> None:
        self._accept = accept
        self._reporter = reporter
        self._sent_at_ms = sent_at_ms
        self._size_bytes = size_bytes

    async def __call__(self, *args: P.args, **kwargs: P.kwargs) -> AcceptResult:
        """await accept_async(envelope, *, me, ...), reported."""
        started = _start()
        result = await self._accept(*args, **kwargs)
        timing = _timing(started)
        self._reporter.report(args[0] if args else None, dict(kwargs), result, timing, self._sent_at_ms, self._size_bytes)
        return result

    def with_delivery(self, *, sent_at_ms: int | float | None = None, size_bytes: int | None = None) -> "ObservedAcceptAsync[P]":
        """This accept for one delivery (see ObservedAccept.with_delivery)."""
        return ObservedAcceptAsync(self._accept, self._reporter, sent_at_ms, size_bytes)


def observe_accept(
    accept: Callable[P, AcceptResult],
    *,
    graph: GraphInfo,
    edges: Sequence[EdgeInfo],
    events: EventLog | None = None,
    telemetry: HandoffObserver | None = None,
) -> ObservedAccept[P]:
    """Wraps a module's accept so each call is described and reported to events (an EventLog)
    and telemetry (seam_handoff.telemetry.load_telemetry()); graph and edges: the same module's
    GRAPH and EDGES. The verdict is returned unchanged; the log and telemetry never raise into
    the caller."""
    return ObservedAccept(accept, _Reporter(graph, edges, events, telemetry))


def observe_accept_async(
    accept_async: Callable[P, Awaitable[AcceptResult]],
    *,
    graph: GraphInfo,
    edges: Sequence[EdgeInfo],
    events: EventLog | None = None,
    telemetry: HandoffObserver | None = None,
) -> ObservedAcceptAsync[P]:
    """observe_accept() for a module's accept_async."""
    return ObservedAcceptAsync(accept_async, _Reporter(graph, edges, events, telemetry))
