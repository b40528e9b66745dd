"""The hop limit: the graph's is the authority (an envelope may claim a lower one, never a higher).
Both hop.index and the length of hop.path witness how far the task has come, so a malformed index
does not hide a long path."""

from typing import TYPE_CHECKING, Any, cast

from .._catalogue import rule_reason
from .._fields import MAX_SAFE_INTEGER, non_negative_integer, whole_number
from .._records import GraphInfo, Reason
from .._values import js_text
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("hop-limit-reached", "envelope", "/hop/index")


def check_hop_limit(graph: GraphInfo, hop: object, reasons: list[Reason]) -> bool:
    """hop: the envelope's hop. Returns whether the task is at or past the limit."""
    if not isinstance(hop, dict):
        return False
    if TYPE_CHECKING:  # a cast, without its call at run time
        hop = cast("dict[str, Any]", hop)
    fields = hop
    index = non_negative_integer(fields.get("index"))
    own = fields.get("limit")
    own = own if type(own) is int and 0 <= own <= MAX_SAFE_INTEGER else whole_number(own)
    limit = own if own is not None and 1 <= own < graph.hop_limit else graph.hop_limit
    if index is not None and index >= limit:
        reasons.append(rule_reason("/hop/index", RULE.id, "index", index=js_text(index), limit=_whose(graph, limit), action=_action(graph)))
        return True
    path = fields.get("path")
    handoffs = len(path) - 1 if isinstance(path, list) else -1  # pyright: ignore[reportUnknownArgumentType]
    if handoffs >= limit:
        reasons.append(rule_reason("/hop/path", RULE.id, "path", handoffs=handoffs, limit=_whose(graph, limit), action=_action(graph)))
        return True
    return False


def _whose(graph: GraphInfo, limit: int) -> str:
    return f"the limit of graph {graph.name}, {limit}" if limit == graph.hop_limit else f"the envelope's own limit of {limit}"


def _action(graph: GraphInfo) -> str:
    return "escalate to a human" if graph.on_hop_limit == "escalate" else "fail the task"
