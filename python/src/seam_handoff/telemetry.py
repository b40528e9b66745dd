"""OpenTelemetry for ingest (install the extra seam-handoff[otel], which pins opentelemetry-api):
one span per ingested handoff and four metrics, with the names, attributes, units and bucket
boundaries of the JavaScript runtime (src/runtime/telemetry.ts), so dashboards read Python and
JavaScript services alike. The service's SDK (a TracerProvider and MeterProvider it configures)
decides sampling and export; without one, the API's no-op providers cost next to nothing.

Span "ingest <receiver>" (kind INTERNAL) with gen_ai.agent.name, seam.graph.name, seam.edge.*,
seam.hop.*, seam.verdict, seam.route, seam.handoff.*, seam.envelope.*, seam.rejection.* (or
seam.warning.*) and error.type; status ERROR for a rejection. Metrics: seam.handoffs ({handoff},
by edge, verdict and status), seam.ingest.rejections ({reason}, by producer, field and rule),
seam.hop.index ({hop}) and seam.envelope.size (By) histograms by edge.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from ._records import AgentInfo, EdgeInfo, GraphInfo
from ._version import __version__
from .events import HandoffEvent
from .observe import HandoffObserver, IngestTiming

if TYPE_CHECKING:
    from opentelemetry.metrics import CallbackOptions, Meter, Observation
    from opentelemetry.trace import Tracer

__all__ = ["INSTRUMENTATION_SCOPE", "SEMCONV_VERSION", "Telemetry", "load_telemetry"]

SEMCONV_VERSION: Final = "1.41.0"
"""The semantic conventions version whose attribute names Seam emits."""

INSTRUMENTATION_SCOPE: Final = "seam-handoff"
"""The instrumentation scope name of Seam's tracer and meter."""

_OTHER: Final = "_OTHER"
_STATUSES: Final = frozenset(("ready", "partial", "blocked", "waiting_review", "failed"))
_MAX_SERIES: Final = 2000
"""The most attribute sets a counter keeps; more go to one overflow series, as the SDK does."""
_OVERFLOW: Final = ("\0overflow",)
_INDEX: Final = re.compile(r"/(0|[1-9][0-9]*)(?=/|$)")

Attributes = dict[str, str | int | float | list[str]]


def field_label(path: str, rule: str) -> str:
    """The field a reason names, with array indexes as * (/artefacts/*/ref) and, for an
    additional property, its parent's /*: bounded label values."""
    field = _INDEX.sub("/*", path)
    return f"{field[: field.rfind('/')]}/*" if rule == "additional-property" else field


class _Counts:
    __slots__ = ("series",)

    def __init__(self) -> None:
        self.series: dict[tuple[str, ...], tuple[Attributes, int]] = {}

    def add(self, key: tuple[str, ...], attributes: Attributes) -> None:
        found = self.series.get(key)
        if found is not None:
            self.series[key] = (found[0], found[1] + 1)
        elif len(self.series) < _MAX_SERIES:
            self.series[key] = (attributes, 1)
        else:
            self.add(_OVERFLOW, {"otel.metric.overflow": "true"})


class Telemetry:
    """The HandoffObserver of one graph for observe_accept(): graph, agents, edges are a
    generated module's GRAPH, AGENTS and EDGES; tracer and meter default to the global providers'
    (opentelemetry.trace / opentelemetry.metrics). Raises ImportError without opentelemetry-api."""

    def __init__(
        self,
        graph: GraphInfo,
        agents: Sequence[AgentInfo],
        edges: Sequence[EdgeInfo],
        *,
        tracer: "Tracer | None" = None,
        meter: "Meter | None" = None,
    ) -> None:
        from opentelemetry import metrics, trace

        self._trace = trace
        self._tracer = tracer if tracer is not None else trace.get_tracer(INSTRUMENTATION_SCOPE, __version__)
        meter = meter if meter is not None else metrics.get_meter(INSTRUMENTATION_SCOPE, __version__)
        self._handoffs = _Counts()
        self._rejections = _Counts()
        meter.create_observable_counter(
            "seam.handoffs",
            callbacks=[self._observe_all(self._handoffs)],
            unit="{handoff}",
            description="Handoffs ingested, by edge, verdict and envelope status",
        )
        meter.create_observable_counter(
            "seam.ingest.rejections",
            callbacks=[self._observe_all(self._rejections)],
            unit="{reason}",
            description="Reasons of refused (or, on observe edges, warned) handoffs, by producer, field and rule",
        )
        self._hops = meter.create_histogram(
            "seam.hop.index",
            unit="{hop}",
            description="hop.index of ingested handoffs, by edge",
            explicit_bucket_boundaries_advisory=[1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64],
        )
        self._sizes = meter.create_histogram(
            "seam.envelope.size",
            unit="By",
            description="Size of ingested envelopes, by edge",
            explicit_bucket_boundaries_advisory=[512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576],
        )
        self._versions = {agent.id: agent.version for agent in agents if agent.version is not None}
        self._known = frozenset((*graph.entries, *(agent.id for agent in agents)))
        self._graph_name = graph.name
        del edges  # the edge of each handoff comes with its event

    @staticmethod
    def _observe_all(counts: _Counts) -> "Callable[[CallbackOptions], Iterable[Observation]]":
        from opentelemetry.metrics import Observation

        def observe(_options: "CallbackOptions") -> "Iterable[Observation]":
            return [Observation(value, attributes) for attributes, value in list(counts.series.values())]

        return observe

    def _label(self, agent: str | None) -> str:
        return agent if agent is not None and agent in self._known else _OTHER

    def _span_attributes(self, event: HandoffEvent) -> Attributes:
        attributes: Attributes = {
            "gen_ai.agent.name": event["receiver"],
            "seam.graph.name": self._graph_name,
            "seam.edge.to": event["receiver"],
            "seam.hop.limit": event["hop_limit"],
            "seam.verdict": event["verdict"],
            "seam.route": event["route"],
        }
        version = self._versions.get(event["receiver"])
        if version is not None:
            attributes["gen_ai.agent.version"] = version
        if event["task_id"] is not None:
            attributes["gen_ai.conversation.id"] = event["task_id"]
            attributes["seam.task.id"] = event["task_id"]
        optional: list[tuple[str, str | int | float | None]] = [
            ("seam.handoff.id", event["handoff_id"]),
            ("seam.edge.from", event["producer"]),
            ("seam.edge.kind", event["edge"]),
            ("seam.hop.index", event["hop_index"]),
            ("seam.envelope.size", event["size_bytes"]),
            ("seam.envelope.version", event["envelope_version"]),
            ("seam.handoff.status", event["status"]),
            ("seam.handoff.latency_ms", event["latency_ms"]),
        ]
        for name, value in optional:
            if value is not None:
                attributes[name] = value
        if event["reasons"]:
            prefix = "seam.warning" if event["verdict"] == "observed" else "seam.rejection"
            attributes[f"{prefix}.rules"] = [reason["rule"] for reason in event["reasons"]]
            attributes[f"{prefix}.pointers"] = [reason["path"] for reason in event["reasons"]]
            attributes[f"{prefix}.count"] = event["reasons_total"]
        if event["verdict"] == "rejected":
            attributes["error.type"] = "seam.handoff_rejected"
        return attributes

    def observe(self, event: HandoffEvent, timing: IngestTiming) -> None:
        """Records one ingest: its span (start and end from timing) and metrics. Never raises."""
        try:
            from opentelemetry.trace import SpanKind, Status, StatusCode

            span = self._tracer.start_span(
                f"ingest {event['receiver']}",
                kind=SpanKind.INTERNAL,
                start_time=timing.started_ns,
                attributes={"gen_ai.agent.name": event["receiver"], "seam.verdict": event["verdict"]},
            )
            if span.is_recording():
                span.set_attributes(self._span_attributes(event))
            if event["verdict"] == "rejected":
                reasons = event["reasons"]
                more = f" and {event['reasons_total'] - 1} more" if event["reasons_total"] > 1 else ""
                message = f"rejected: {reasons[0]['rule']} at {reasons[0]['path'] or '/'}{more}" if reasons else "rejected"
                span.set_status(Status(StatusCode.ERROR, message))
            span.end(end_time=timing.ended_ns)

            source, target = self._label(event["producer"]), self._label(event["receiver"])
            kind = event["edge"] if event["edge"] is not None else _OTHER
            status = event["status"]
            label = "none" if status is None else status if status in _STATUSES else _OTHER
            verdict = event["verdict"]
            self._handoffs.add(
                (source, target, kind, verdict, label),
                {
                    "seam.edge.from": source,
                    "seam.edge.to": target,
                    "seam.edge.kind": kind,
                    "seam.verdict": verdict,
                    "seam.handoff.status": label,
                },
            )
            if verdict == "duplicate":
                return
            edge: Attributes = {"seam.edge.from": source, "seam.edge.to": target, "seam.edge.kind": kind}
            if event["hop_index"] is not None:
                self._hops.record(event["hop_index"], edge)
            if event["size_bytes"] is not None:
                self._sizes.record(event["size_bytes"], edge)
            if verdict in ("rejected", "observed"):
                for reason in event["reasons"]:
                    field, rule = field_label(reason["path"], reason["rule"]), reason["rule"]
                    self._rejections.add(
                        (source, field, rule, verdict),
                        {
                            "seam.edge.from": source,
                            "seam.field": field,
                            "seam.rule": rule,
                            "seam.verdict": verdict,
                        },
                    )
        except Exception:  # telemetry must never break ingest: an SDK that raises loses this handoff's data only
            pass


def load_telemetry(graph: GraphInfo, agents: Sequence[AgentInfo], edges: Sequence[EdgeInfo]) -> HandoffObserver | None:
    """Telemetry for the graph on the global providers, or None when opentelemetry-api is not
    installed (then pass nothing to observe_accept(): no span, no metric, no cost). Raises what
    importing the package raises for any reason but its absence."""
    try:
        import opentelemetry.trace as available
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.split(".")[0] == "opentelemetry":
            return None
        raise
    del available
    return Telemetry(graph, agents, edges)
