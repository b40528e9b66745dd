"""Routes at ingest (the port of src/runtime/guard-route.ts): which guarded edge the graph
chooses for an envelope (docs/language.md, Guards). The guarded edges out of one agent are its
router, tried in declaration order; a route takes an envelope when its guard matches and its
confidence floor (if any) holds, and an otherwise edge takes what no other route takes. A guard
reads what the envelope says: status, allowed_next_step, and confidence, the lowest
decisions[].confidence. The checks guard-unmet and confidence-below-floor word what this finds."""

import builtins
import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple, cast

from ._records import EdgeInfo, FloorInfo, GuardCondition, GuardInfo
from ._values import es_number, js_double

_POINTERS = {"status": "/status", "allowed_next_step": "/allowed_next_step", "confidence": "/decisions"}


class LowestConfidence(NamedTuple):
    """The lowest numeric decisions[].confidence and the index of the first decision that has it."""

    value: float
    position: int


class Below(NamedTuple):
    """A decision below a floor: its index in decisions, its id (any value) and its confidence."""

    position: int
    id: builtins.object  # mypyc looks a NamedTuple field's type up in the module's globals
    confidence: float


def _number(value: object) -> float | None:
    """value when it is a finite JSON number (bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    # An int past the doubles is infinite, as JSON.parse reads it (float() would raise).
    number = js_double(value)
    return number if math.isfinite(number) else None


def lowest_confidence(decisions: object) -> LowestConfidence | None:
    """The lowest confidence among the decisions that state a number; None when none does."""
    if not isinstance(decisions, list):
        return None
    lowest: LowestConfidence | None = None
    for i, decision in enumerate(cast("list[object]", decisions)):
        if not isinstance(decision, dict):
            continue
        confidence = _number(cast("dict[str, object]", decision).get("confidence"))
        if confidence is not None and (lowest is None or confidence < lowest.value):
            lowest = LowestConfidence(confidence, i)
    return lowest


def condition_holds(condition: GuardCondition, fields: Mapping[str, object]) -> bool | None:
    """Whether condition holds: None when the field it reads is absent or of the wrong type (the
    edge's contract requires it, so the schema has said so already)."""
    if condition.subject != "confidence":
        value = fields.get(condition.subject)
        return value in condition.values if isinstance(value, str) else None
    lowest = lowest_confidence(fields.get("decisions"))
    if lowest is None or condition.value is None:
        return None
    x, bound = lowest.value, condition.value
    if condition.operator == "<":
        return x < bound
    if condition.operator == "<=":
        return x <= bound
    if condition.operator == ">":
        return x > bound
    return x >= bound


def guard_matches(guard: GuardInfo, fields: Mapping[str, object]) -> bool:
    """Whether every condition of a when guard holds (an otherwise guard is decided by the router)."""
    return not guard.otherwise and all(condition_holds(c, fields) is True for c in guard.conditions)


def below_floor(floor: FloorInfo, decisions: object) -> list[Below]:
    """The decisions the floor applies to whose stated confidence is below it, in envelope order."""
    found: list[Below] = []
    if not isinstance(decisions, list):
        return found
    for i, decision in enumerate(cast("list[object]", decisions)):
        if not isinstance(decision, dict):
            continue
        fields = cast("dict[str, object]", decision)
        confidence = _number(fields.get("confidence"))
        if confidence is None or not confidence < floor.value:
            continue
        decision_id = fields.get("id")
        if floor.decisions and not (isinstance(decision_id, str) and decision_id in floor.decisions):
            continue
        found.append(Below(i, decision_id, confidence))
    return found


def _takes(edge: EdgeInfo, fields: Mapping[str, object]) -> bool:
    """Whether edge takes the envelope: its guard matches (otherwise: always) and no decision is below its floor."""
    guard = edge.guard
    if guard is not None and not guard.otherwise and not guard_matches(guard, fields):
        return False
    return edge.min_confidence is None or not below_floor(edge.min_confidence, fields.get("decisions"))


def choose_route(router: Sequence[EdgeInfo], fields: Mapping[str, object]) -> EdgeInfo | None:
    """The route the graph chooses among router (the guarded edges out of one agent, in
    declaration order): the first when edge that takes the envelope, else the first otherwise
    edge that does; None when none does."""
    for edge in router:
        if edge.guard is not None and not edge.guard.otherwise and _takes(edge, fields):
            return edge
    for edge in router:
        if edge.guard is not None and edge.guard.otherwise and _takes(edge, fields):
            return edge
    return None


def taken_earlier(router: Sequence[EdgeInfo], edge: EdgeInfo, fields: Mapping[str, object]) -> EdgeInfo | None:
    """The first route tried before edge (declared earlier, or any when edge for an otherwise
    edge) that takes the envelope, which edge therefore cannot."""
    when = [e for e in router if e.guard is not None and not e.guard.otherwise]
    earlier = when if edge.guard is not None and edge.guard.otherwise else when[: when.index(edge)] if edge in when else []
    return next((e for e in earlier if _takes(e, fields)), None)


def condition_pointer(condition: GuardCondition, fields: Mapping[str, object]) -> str:
    """The JSON Pointer of the field a condition reads (/decisions/<i>/confidence for the lowest decision)."""
    if condition.subject != "confidence":
        return _POINTERS[condition.subject]
    lowest = lowest_confidence(fields.get("decisions"))
    return _POINTERS["confidence"] if lowest is None else f"/decisions/{lowest.position}/confidence"


def number_text(value: float) -> str:
    """A number as JavaScript's String() writes it (0.8, 1, 0.00001, 1e-7, 1e+21), so both
    runtimes word a message alike: a decision's confidence may be any JSON number."""
    return es_number(js_double(value))


def describe_guard(guard: GuardInfo) -> str:
    """A guard as the graph writes it: `when status is ready, partial and confidence >= 0.8`, or `otherwise`."""
    if guard.otherwise:
        return "otherwise"
    parts = [
        f"confidence {c.operator} {number_text(c.value or 0.0)}" if c.subject == "confidence" else f"{c.subject} is {', '.join(c.values)}"
        for c in guard.conditions
    ]
    return "when " + " and ".join(parts)


def describe_edge(edge: EdgeInfo) -> str:
    """An edge as the graph writes it, without its guard: `return billing -> triage`."""
    return f"{edge.kind} {edge.from_agent} -> {edge.to_agent}"


def describe_route(edge: EdgeInfo) -> str:
    """An edge with its guard: `return billing -> review otherwise`."""
    return describe_edge(edge) if edge.guard is None else f"{describe_edge(edge)} {describe_guard(edge.guard)}"
