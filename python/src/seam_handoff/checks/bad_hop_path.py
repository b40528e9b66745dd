"""hop.path is a walk of the graph: it starts at an entry, has hop.index + 1 entries, ends in this
handoff, and each step is an edge (taken at most max_rounds times, max-rounds-exceeded). Only the
first hop_limit + 1 entries are walked: a longer path is past the hop limit (hop-limit-reached),
and the work stays bounded by the graph, not by the envelope."""

from collections.abc import Mapping
from typing import NamedTuple, Protocol

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule
from .max_rounds_exceeded import check_rounds

RULE: IngestRule = ingest_rule("bad-hop-path", "graph", "/hop/path/<i>")


class PathPair(Protocol):
    """An ordered pair of agents with an edge: the rounds its edges allow together (None: unbounded)."""

    @property
    def max_rounds(self) -> int | None: ...


class PathGraph(NamedTuple):
    """What the walk needs of the graph: its name, hop limit, entries (and their list as text) and
    its pairs of agents with an edge."""

    name: str
    hop_limit: int
    entries: frozenset[str]
    entry_list: str
    pairs: Mapping[tuple[str, str], PathPair]


def check_hop_path(graph: PathGraph, path: list[str], index: int | None, producer: str, receiver: str, reasons: list[Reason]) -> None:
    """path: the envelope's hop.path (all str); index: hop.index when a whole number."""
    n = len(path)
    if index is not None and n != index + 1:
        reasons.append(rule_reason("/hop/path", RULE.id, "length", length=n, index=index, needed=index + 1))
    if n > 0 and path[0] not in graph.entries:
        reasons.append(
            rule_reason("/hop/path/0", RULE.id, "start", agent=quote_untrusted(path[0]), graph=graph.name, entries=graph.entry_list)
        )
    if n < 2 or path[n - 2] != producer or path[n - 1] != receiver:
        reasons.append(rule_reason(f"/hop/path/{max(n - 1, 0)}", RULE.id, "end", **{"from": producer, "to": receiver}))
    counts: dict[tuple[str, str], int] = {}
    pairs = graph.pairs
    for i in range(1, min(n, graph.hop_limit + 1)):
        step = (path[i - 1], path[i])
        pair = pairs.get(step)
        if pair is None:
            reasons.append(
                rule_reason(
                    f"/hop/path/{i}",
                    RULE.id,
                    "step",
                    graph=graph.name,
                    **{"from": quote_untrusted(step[0]), "to": quote_untrusted(step[1])},
                )
            )
        elif pair.max_rounds is not None:
            taken = counts.get(step, 0) + 1
            counts[step] = taken
            check_rounds(i, step[0], step[1], taken, pair.max_rounds, reasons)
