"""An envelope takes an edge whose guard it meets, and no earlier route of the same agent takes it
(routes are tried in declaration order; an otherwise edge gets only what no other route takes).
Each unmet condition is reported at the field it reads, with its value and where the graph routes
the envelope instead; a field the guard cannot read (absent, the wrong type) is left to the
schema, which the edge's contract makes require it."""

from collections.abc import Mapping, Sequence

from .._catalogue import render_message, rule_reason
from .._guard_route import (
    choose_route,
    condition_holds,
    condition_pointer,
    describe_edge,
    describe_guard,
    describe_route,
    lowest_confidence,
    number_text,
    taken_earlier,
)
from .._records import EdgeInfo, Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("guard-unmet", "graph", "/status")


def _shown(subject: str, fields: Mapping[str, object]) -> str:
    """The value a condition read, for the message: quoted text, or the lowest confidence."""
    if subject == "confidence":
        lowest = lowest_confidence(fields.get("decisions"))
        return "undefined" if lowest is None else number_text(lowest.value)
    return quote_untrusted(fields.get(subject))


def route_text(router: Sequence[EdgeInfo], agent: str, fields: Mapping[str, object]) -> str:
    """Where the graph sends the envelope instead, in words."""
    chosen = choose_route(router, fields)
    if chosen is None:
        return render_message(RULE.id, "none", agent=agent)
    return render_message(RULE.id, "routes", route=describe_route(chosen))


def check_guard(edge: EdgeInfo, router: Sequence[EdgeInfo], fields: Mapping[str, object], reasons: list[Reason]) -> None:
    """Checks the guard of edge (one of router, the guarded edges out of edge.from_agent in
    declaration order) against the envelope's fields."""
    guard = edge.guard
    if guard is None:
        return
    name = describe_edge(edge)
    if not guard.otherwise:
        unmet = False
        for condition in guard.conditions:
            if condition_holds(condition, fields) is not False:
                continue
            unmet = True
            reasons.append(
                rule_reason(
                    condition_pointer(condition, fields),
                    RULE.id,
                    "lowest" if condition.subject == "confidence" else "unmet",
                    value=_shown(condition.subject, fields),
                    edge=name,
                    guard=describe_guard(guard),
                    route=route_text(router, edge.from_agent, fields),
                )
            )
        if unmet:
            return
    earlier = taken_earlier(router, edge, fields)
    if earlier is None or earlier.guard is None or not earlier.guard.conditions:
        return
    first = earlier.guard.conditions[0]
    reasons.append(
        rule_reason(
            condition_pointer(first, fields),
            RULE.id,
            "otherwise" if guard.otherwise else "earlier",
            value=_shown(first.subject, fields),
            route=describe_edge(earlier),
            guard=describe_guard(earlier.guard),
            edge=describe_route(edge),
            agent=edge.from_agent,
        )
    )
