"""What every ingest check module declares (as src/runtime/checks/ingest-rule.ts does): its rule
id (the `rule` of the reasons it makes), the stage of the pipeline it runs in, the JSON Pointer it
reports at, and its one-line description from the runtime catalogue shared with the JavaScript
runtime. The check itself is the module's other export; `__init__.py` lists every module in
pipeline order."""

from typing import Literal, NamedTuple

from .._catalogue import RUNTIME_RULES

IngestStage = Literal["schema", "envelope", "graph", "artefacts", "ledger"]
"""The stages of accept(), in order: the JSON Schema and JSON data; the envelope's own semantics;
the graph; the required artefacts (can_read); the task ledger (the store's answer)."""


class IngestRule(NamedTuple):
    """One ingest rule, as its module declares it. pointer: the JSON Pointer (RFC 6901) its
    reasons point at, `<i>` standing for an array index; description: one line, from the catalogue."""

    id: str
    stage: IngestStage
    pointer: str
    description: str


def ingest_rule(rule_id: str, stage: IngestStage, pointer: str) -> IngestRule:
    """Declares a rule; its description comes from the catalogue. Raises KeyError for a rule the
    catalogue lacks (a bug in Seam)."""
    return IngestRule(rule_id, stage, pointer, RUNTIME_RULES[rule_id])
