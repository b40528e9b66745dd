"""The handoff event: one JSON object per handoff a receiver ingests, whatever the verdict, with
the fields, key order and version of the JavaScript runtime's (src/runtime/handoff-event.ts), so
`seam report` reads the event logs of Python and JavaScript services alike; and the event log,
which writes each event as one line of JSON (JSON Lines) to a text sink, by default standard
output. Every string taken from the envelope is escaped and bounded (MAX_EVENT_TEXT), so a hostile
envelope can neither inject lines into a log nor grow a record without limit.
"""

import json
import math
import re
import sys
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, Final, Literal, Protocol, TypedDict, cast

from ._clock import IsoClock
from ._fields import whole_number
from ._records import Accepted, AcceptResult, EdgeInfo, GraphInfo
from ._untrusted import escape_untrusted
from ._values import es_number, js_double

__all__ = [
    "HANDOFF_EVENT_VERSION",
    "MAX_EVENT_REASONS",
    "MAX_EVENT_TEXT",
    "EventLog",
    "EventReason",
    "HandoffDescriber",
    "HandoffEvent",
    "TextSink",
]

HANDOFF_EVENT_VERSION: Final = 1
"""The version of the record's shape; a reader refuses records of a version it does not know."""

MAX_EVENT_TEXT: Final = 200
"""Code points of an id, version or status string a record keeps before the cut."""

MAX_EVENT_REASONS: Final = 32
"""The most reasons a record lists; reasons_total says how many there were."""

HandoffVerdict = Literal["accepted", "observed", "rejected", "duplicate"]

_LONE_SURROGATE: Final = re.compile(r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")

# What json.dumps may write otherwise than JSON.stringify: a number with a fraction or an exponent
# (1.0, 1e-07, 1e+16: JSON.stringify writes 1, 1e-7, 10000000000000000), of 16 digits or more
# (past 2**53 JavaScript holds the nearest double), NaN or Infinity (null). A text with none is
# measured as it is; a match inside a string only costs the exact measure.
_MAYBE_OTHER_NUMBER: Final = re.compile(r"[0-9][.eE]|[0-9]{16}|NaN|Infinity")

# A JSON string of json.dumps' output (skipped), or a number, NaN or an infinity (group 1).
_JSON_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|(-?[0-9][0-9.eE+-]*|-?Infinity|NaN)')

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MILLISECOND: Final = timedelta(milliseconds=1)


class EventReason(TypedDict):
    """One reason of a rejection (or warning of an observed handoff), without its message."""

    path: str
    rule: str


class HandoffEvent(TypedDict):
    """One handoff as the receiver saw it (docs/production.md lists each field). Times: at is ISO
    8601 UTC with milliseconds; latency_ms (producer finished -> ingest ended, negative under
    clock skew) and ingest_ms (accept() itself, to the microsecond) are milliseconds; size_bytes is
    the envelope's UTF-8 JSON length unless the service gave the received size."""

    event: Literal["seam.handoff"]
    v: int
    at: str
    graph: str
    handoff_id: str | None
    task_id: str | None
    producer: str | None
    receiver: str
    edge: str | None
    status: str | None
    envelope_version: str | None
    latency_ms: int | float | None
    ingest_ms: float
    verdict: HandoffVerdict
    route: str
    size_bytes: int | None
    hop_index: int | None
    hop_limit: int
    reasons: list[EventReason]
    reasons_total: int
    branch: str | None
    """The fan-out branch an accepted handoff travels in (hop.branch); None outside one and for refusals."""
    join: str | None
    """An accepted arrival at a join: "held" or "fired"; else None."""


def _text_at(value: object, key: str) -> str | None:
    if not isinstance(value, dict):
        return None
    found = cast("dict[str, object]", value).get(key)
    return escape_untrusted(found, MAX_EVENT_TEXT) if isinstance(found, str) else None


def _field(value: object, key: str) -> object:
    return cast("dict[str, object]", value).get(key) if isinstance(value, dict) else None


def _parse_time_ms(text: str) -> int | None:
    """An RFC 3339 time in whole ms since the Unix epoch, None when it is none. Digits past the
    millisecond are dropped, as Date.parse drops them; counted in integers, since timestamp() *
    1000 is a float that misses about one millisecond time in a hundred (1073765325509.0001)."""
    try:
        parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in ("Z", "z") else text)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return (parsed - _EPOCH) // _MILLISECOND


def _latest_provenance(envelope: object) -> int | None:
    provenance = _field(envelope, "provenance")
    if not isinstance(provenance, list):
        return None
    latest: int | None = None
    for entry in cast("list[object]", provenance):
        at = _field(entry, "at")
        if isinstance(at, str):
            ms = _parse_time_ms(at)
            if ms is not None and (latest is None or ms > latest):
                latest = ms
    return latest


def _js_number_text(token: str) -> str:
    """A number as json.dumps wrote it, as JSON.stringify writes the double JSON.parse reads for it."""
    if token.endswith(("NaN", "Infinity")):
        return "null"
    value = float(token) if any(mark in token for mark in ".eE") else js_double(int(token))
    return es_number(value) if math.isfinite(value) else "null"


def _size_of(envelope: object) -> int | None:
    """The UTF-8 length of JSON.stringify(envelope) for the value JSON.parse reads the envelope's
    text as: a number as JavaScript writes it (a whole-number float such as 1.0 as 1), NaN and
    the infinities as null, a lone surrogate as a \\uXXXX escape (6 bytes)."""
    try:
        text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return None
    size = len(_LONE_SURROGATE.sub("\\\\u0000", text).encode("utf-8"))
    if _MAYBE_OTHER_NUMBER.search(text) is None:
        return size
    for token in _JSON_TOKEN.finditer(text):
        number = token.group(1)
        if number is not None:
            size += len(_js_number_text(number)) - len(number)
    return size


def _js_valued(value: int | float) -> int | float:
    """A whole-number float as an int: json.dumps writes 2.0 where JSON.stringify writes 2."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


class HandoffDescriber:
    """Turns one ingest into its HandoffEvent; never raises, whatever the envelope holds.

    graph, edges: a generated module's GRAPH and EDGES.
    """

    __slots__ = ("_graph", "_iso", "_kinds")

    def __init__(self, graph: GraphInfo, edges: Sequence[EdgeInfo]) -> None:
        kinds: dict[tuple[str, str], set[str]] = {}
        for edge in edges:
            kinds.setdefault((edge.from_agent, edge.to_agent), set()).add(edge.kind)
        self._kinds = {pair: "|".join(sorted(names)) for pair, names in kinds.items()}
        self._graph = graph
        # Date.toISOString's text, as the JavaScript describer writes at, for every year (a
        # four-digit one from 0 to 9999, which RFC 3339 and seam report take).
        self._iso = IsoClock()

    def describe(
        self,
        envelope: object,
        result: AcceptResult,
        *,
        receiver: str,
        completed_at_ms: int | float,
        ingest_ms: float,
        sent_at_ms: int | float | None = None,
        size_bytes: int | None = None,
    ) -> HandoffEvent:
        """The event of one ingest: envelope as passed to accept(), its result, the receiving
        agent, when ingest ended and how long accept() took (ms), when the producer finished (ms
        since the Unix epoch, e.g. the queue message's timestamp; default the latest
        provenance[].at) and the size received (bytes; default the envelope's UTF-8 JSON length)."""
        try:
            source = _field(envelope, "from_agent")
            from_id = _field(source, "id")
            raw_index = _field(_field(envelope, "hop"), "index")
            handoff_id = _text_at(envelope, "handoff_id")
            task_id = _text_at(envelope, "task_id")
            producer = _text_at(source, "id")
            status = _text_at(envelope, "status")
            envelope_version = _text_at(envelope, "envelope_version")
            # A whole number however JSON wrote it: 1.0 and 1e0 are 1 to JSON.parse and to accept().
            hop_index = raw_index if type(raw_index) is int and 0 <= raw_index <= 2**53 - 1 else whole_number(raw_index)
            sent = sent_at_ms if sent_at_ms is not None else _latest_provenance(envelope)
            edge = self._kinds.get((from_id, receiver)) if isinstance(from_id, str) else None
        except Exception:  # a mapping that raises: accept() refused it as unreadable
            handoff_id = task_id = producer = status = envelope_version = edge = None
            hop_index = None
            sent = None
        verdict: HandoffVerdict
        route: str
        branch: str | None = None
        join: str | None = None
        if isinstance(result, Accepted):
            reasons, route = result.record.warnings, result.record.route
            if result.record.branch is not None:
                branch = escape_untrusted(result.record.branch, MAX_EVENT_TEXT)
            if result.record.join is not None:
                join = "fired" if result.record.join["fired"] else "held"
            verdict = "observed" if reasons else "accepted"
        else:
            reasons, route = result.rejection.reasons, result.rejection.route
            verdict = "duplicate" if result.duplicate else "rejected"
        latency: int | float | None = None
        # A latency that is no number (a sent_at_ms of NaN or an infinity) is written null, as
        # JSON.stringify writes it: json.dumps would write NaN, which is no JSON.
        if sent is not None and math.isfinite(completed_at_ms - sent):
            latency = _js_valued(completed_at_ms - sent)
        return {
            "event": "seam.handoff",
            "v": HANDOFF_EVENT_VERSION,
            "at": self._iso(math.floor(completed_at_ms)),
            "graph": escape_untrusted(self._graph.name, MAX_EVENT_TEXT),
            "handoff_id": handoff_id,
            "task_id": task_id,
            "producer": producer,
            "receiver": escape_untrusted(receiver, MAX_EVENT_TEXT),
            "edge": edge,
            "status": status,
            "envelope_version": envelope_version,
            "latency_ms": latency,
            "ingest_ms": _js_valued(round(ingest_ms * 1000) / 1000),
            "verdict": verdict,
            "route": route,
            "size_bytes": size_bytes if size_bytes is not None else _size_of(envelope),
            "hop_index": hop_index,
            "hop_limit": self._graph.hop_limit,
            "reasons": [
                {"path": escape_untrusted(reason.path, MAX_EVENT_TEXT), "rule": escape_untrusted(reason.rule, MAX_EVENT_TEXT)}
                for reason in reasons[:MAX_EVENT_REASONS]
            ],
            "reasons_total": len(reasons),
            "branch": branch,
            "join": join,
        }


class TextSink(Protocol):
    """Anything with write(text): sys.stdout, an open text file, a test's io.StringIO."""

    def write(self, text: str, /) -> Any:
        """Writes text."""
        ...


class EventLog:
    """Writes handoff events, one JSON line each, to sink (default sys.stdout, where container
    platforms collect logs). write() never raises: a sink that raises loses that line (the
    handoff is not affected) and failures counts it."""

    __slots__ = ("_sink", "failures")

    def __init__(self, sink: TextSink | None = None) -> None:
        self._sink: TextSink = sys.stdout if sink is None else sink
        self.failures = 0
        """How many writes the sink refused by raising."""

    def write(self, event: HandoffEvent) -> None:
        """Writes one event as one line (json.dumps escapes every control character)."""
        try:
            self._sink.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        except Exception:
            self.failures += 1
