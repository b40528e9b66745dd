"""The graph has an edge from from_agent.id to to_agent.id."""

from collections.abc import Container

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("unknown-edge", "graph", "/to_agent/id")


def report_unknown_edge(graph_name: str, producer: str, receiver: str, agents: Container[str], reasons: list[Reason]) -> None:
    """Reports a missing edge: which of the two agents the graph lacks, or the edge between them."""
    if producer not in agents:
        reasons.append(rule_reason("/from_agent/id", RULE.id, "from", graph=graph_name, agent=quote_untrusted(producer)))
    elif receiver not in agents:
        reasons.append(rule_reason("/to_agent/id", RULE.id, "to", graph=graph_name, agent=quote_untrusted(receiver)))
    else:
        reasons.append(rule_reason("/to_agent/id", RULE.id, "edge", graph=graph_name, **{"from": producer, "to": receiver}))
