"""min_confidence: every decision the floor applies to (all, or the ids it names) is at least that
sure. Each decision below it is reported at its confidence, with the route the graph chooses for
the envelope instead (the router of the sending agent: the first route whose guard matches and
whose floor holds, else its otherwise); with no such route, the refusal goes to a person
(escalate), as "below the floor, escalate" asks."""

from collections.abc import Mapping, Sequence

from .._catalogue import render_message, rule_reason
from .._guard_route import below_floor, choose_route, describe_edge, describe_route, number_text
from .._records import EdgeInfo, Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("confidence-below-floor", "graph", "/decisions/<i>/confidence")


def check_floor(edge: EdgeInfo, router: Sequence[EdgeInfo], fields: Mapping[str, object], reasons: list[Reason]) -> bool:
    """Checks the floor of edge (router: the guarded edges out of edge.from_agent, in declaration
    order). Returns True when a decision is below it and no other route takes the envelope."""
    floor = edge.min_confidence
    if floor is None:
        return False
    below = below_floor(floor, fields.get("decisions"))
    if not below:
        return False
    chosen = choose_route(router, fields)
    elsewhere = chosen is not None and chosen is not edge
    if chosen is not None and elsewhere:
        route = render_message(RULE.id, "route", route=describe_route(chosen))
    else:
        route = render_message(RULE.id, "escalate", agent=edge.from_agent)
    for decision in below:
        reasons.append(
            rule_reason(
                f"/decisions/{decision.position}/confidence",
                RULE.id,
                "below",
                decision=quote_untrusted(decision.id) if isinstance(decision.id, str) else "(no id)",
                confidence=number_text(decision.confidence),
                floor=number_text(floor.value),
                edge=describe_edge(edge),
                route=route,
            )
        )
    return not elsewhere
