"""observe_accept(): the handoff event log `seam report` reads, and OpenTelemetry spans and metrics."""

import io
import json
import math
from typing import Any, cast

import pytest
import refund_desk_validators as desk
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from seam_handoff.events import EventLog, HandoffDescriber
from seam_handoff.observe import observe_accept
from seam_handoff.telemetry import Telemetry, field_label


def test_every_ingest_writes_one_event_line(envelope: dict[str, Any]) -> None:
    sink = io.StringIO()
    accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=EventLog(sink))
    assert accept(envelope, me="billing", now=lambda: 1_764_410_600.0).ok
    envelope["handoff_id"] = "not-a-uuid"
    assert not accept.with_delivery(sent_at_ms=1_764_410_599_000, size_bytes=900)(envelope, me="billing", now=lambda: 1_764_410_600.0).ok
    first, second = (json.loads(line) for line in sink.getvalue().splitlines())
    assert list(first) == [
        "event", "v", "at", "graph", "handoff_id", "task_id", "producer", "receiver", "edge", "status", "envelope_version",
        "latency_ms", "ingest_ms", "verdict", "route", "size_bytes", "hop_index", "hop_limit", "reasons", "reasons_total", "branch", "join",
    ]  # fmt: skip
    assert {key: first[key] for key in ("event", "v", "at", "graph", "producer", "receiver", "edge", "verdict", "route", "hop_index")} == {
        "event": "seam.handoff",
        "v": 1,
        "at": "2025-11-29T10:03:20.000Z",
        "graph": "refund_desk",
        "producer": "triage",
        "receiver": "billing",
        "edge": "delegate",
        "verdict": "accepted",
        "route": "proceed",
        "hop_index": 1,
    }
    # The latest provenance[].at (2026-11-29T10:02:11Z) is after now: the producer's clock is ahead.
    assert first["latency_ms"] == 1_764_410_600_000 - 1_795_946_531_000
    assert (second["verdict"], second["latency_ms"], second["size_bytes"]) == ("rejected", 1000, 900)
    assert second["reasons"] == [{"path": "/handoff_id", "rule": "format"}]


def test_a_sink_that_raises_loses_the_line_not_the_verdict(envelope: dict[str, Any]) -> None:
    class Broken:
        def write(self, text: str, /) -> int:
            raise OSError("disk full")

    log = EventLog(Broken())
    accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=log)
    assert accept(envelope, me="billing").ok
    assert log.failures == 1


def test_spans_and_metrics_carry_the_javascript_names(envelope: dict[str, Any]) -> None:
    spans = InMemorySpanExporter()
    tracing = TracerProvider()
    tracing.add_span_processor(SimpleSpanProcessor(spans))
    reader = InMemoryMetricReader()
    meters = MeterProvider(metric_readers=[reader])
    telemetry = Telemetry(desk.GRAPH, desk.AGENTS, desk.EDGES, tracer=tracing.get_tracer("t"), meter=meters.get_meter("seam-handoff"))
    accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, telemetry=telemetry)
    accept(envelope, me="billing")
    del envelope["goal"]
    accept(envelope, me="billing")
    ok, rejected = spans.get_finished_spans()
    assert ok.name == "ingest billing"
    assert ok.attributes is not None and ok.attributes["seam.verdict"] == "accepted" and ok.attributes["gen_ai.agent.version"] == "2.0.0"
    assert rejected.attributes is not None and rejected.attributes["error.type"] == "seam.handoff_rejected"
    assert rejected.status.description == "rejected: required at /goal"
    data: Any = cast(Any, reader).get_metrics_data()
    assert data is not None
    names: set[str] = {metric.name for resource in data.resource_metrics for scope in resource.scope_metrics for metric in scope.metrics}
    assert names == {"seam.handoffs", "seam.ingest.rejections", "seam.hop.index", "seam.envelope.size"}


def test_field_labels_bound_array_indexes() -> None:
    assert field_label("/artefacts/3/ref", "format") == "/artefacts/*/ref"
    assert field_label("/goal/extra", "additional-property") == "/goal/*"


def test_a_whole_number_written_as_a_float_is_recorded_as_javascript_records_it(envelope: dict[str, Any]) -> None:
    """hop.index 1.0 (JSON text 1.0 or 1e0) is 1 to accept(), and to the record: hop_index 1, and
    size_bytes the length of JSON.stringify's text, which writes 1.0 as 1 and 1e-7 as 1e-7."""
    sink = io.StringIO()
    accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=EventLog(sink))
    envelope["provenance"][0]["at"] = "2004-01-10T20:08:45.509Z"  # timestamp() * 1000 gives 1073765325509.0001
    as_javascript_writes_it = len(json.dumps(envelope, separators=(",", ":")).encode("utf-8"))
    envelope["hop"]["index"] = 1.0
    envelope["budget"]["consumed"]["tokens"] = 1200.0
    envelope["budget"]["limit"]["tokens"] = 40000.0
    assert accept(envelope, me="billing", now=lambda: 1_764_410_600.0).ok
    line = sink.getvalue()
    assert '"latency_ms":690645274491,' in line
    assert f'"size_bytes":{as_javascript_writes_it},"hop_index":1,"hop_limit":8,' in line
    # Quiet: a fraction is no hop index, and a number JSON.stringify writes as Python does counts as it is.
    envelope["handoff_id"] = "7d0e6a52-1c4b-4f3e-8a9d-5b2c6e1f0a47"
    envelope["hop"]["index"] = 1.5
    envelope["budget"]["consumed"]["tokens"] = 1200
    envelope["budget"]["limit"]["tokens"] = 40000
    assert not accept(envelope, me="billing", now=lambda: 1_764_410_600.0).ok
    second = json.loads(sink.getvalue().splitlines()[1])
    assert (second["hop_index"], second["size_bytes"]) == (None, as_javascript_writes_it + 2)
    envelope["hop"]["index"] = 1e-7
    assert not accept(envelope, me="billing", now=lambda: 1_764_410_600.0).ok
    third = json.loads(sink.getvalue().splitlines()[2])
    assert (third["hop_index"], third["size_bytes"]) == (None, as_javascript_writes_it + len("1e-7") - 1)


def test_a_clock_set_back_during_the_call_gives_no_negative_ingest_time(envelope: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """seam report refuses a negative ingest_ms: the call is timed on the monotonic clock."""
    wall = iter([1_764_410_600_000_000_000, 1_764_410_599_000_000_000])  # an NTP step back of 1 s
    monkeypatch.setattr("seam_handoff.observe.time.time_ns", lambda: next(wall))
    sink = io.StringIO()
    accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=EventLog(sink))
    assert accept(envelope, me="billing").ok
    assert 0 <= json.loads(sink.getvalue())["ingest_ms"] < 1000


def test_the_record_is_what_seam_report_reads_whatever_the_clocks_say(envelope: dict[str, Any]) -> None:
    """at is RFC 3339 with a four-digit year, as Date.toISOString writes it, even for a clock before
    the year 1000 (or at the year 0); a sent time that is no number leaves the latency null, as
    JSON.stringify writes it, not NaN, which is no JSON."""
    result = desk.accept(envelope, me="billing")
    describe = HandoffDescriber(desk.GRAPH, desk.EDGES).describe
    early = describe(envelope, result, receiver="billing", completed_at_ms=-31_000_000_000_000, ingest_ms=0.0)
    assert early["at"] == "0987-08-25T16:53:20.000Z"  # new Date(-31e12).toISOString()
    assert (
        describe(envelope, result, receiver="billing", completed_at_ms=-62_167_219_200_000, ingest_ms=0.0)["at"]
        == "0000-01-01T00:00:00.000Z"
    )
    for sent in (math.nan, math.inf, -math.inf):
        sink = io.StringIO()
        EventLog(sink).write(
            describe(envelope, result, receiver="billing", completed_at_ms=1_764_410_600_000, ingest_ms=0.0, sent_at_ms=sent)
        )
        assert json.loads(sink.getvalue(), parse_constant=lambda name: pytest.fail(f"not JSON: {name}"))["latency_ms"] is None
