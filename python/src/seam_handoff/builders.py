"""Builders of the envelopes a producer sends (the JavaScript runtime's createEnvelopeBuilder), so
the correct envelope is the easy one to write: the header (ids, hop index, limit and path, roles
and declared versions, the envelope version, the provenance time) comes from the graph and the
envelope received, never from hand. Everything taken from the caller or the received envelope is
deep-copied: changing the new envelope never changes the one received, and the reverse.

A generated module binds them to its graph as first_envelope() and next_envelope().
"""

import copy
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Final, cast

from ._records import AgentInfo, EdgeInfo, GraphInfo
from ._untrusted import quote_untrusted

__all__ = ["EnvelopeBuilder"]

_CARRIED: Final = ("decisions", "artefacts", "constraints", "open_questions")
_COMPLETION: Final = ("status", "allowed_next_step", "safe_resume", "blocked_on")


def _get(value: object, key: str) -> Any:
    """value[key] for a mapping, else None."""
    return cast("Mapping[str, Any]", value).get(key) if isinstance(value, Mapping) else None


def _iso(seconds: float) -> str:
    stamp = datetime.fromtimestamp(seconds, tz=timezone.utc)
    return f"{stamp.strftime('%Y-%m-%dT%H:%M:%S')}.{stamp.microsecond // 1000:03d}Z"


class EnvelopeBuilder:
    """The envelope builders of one graph (a generated module's GRAPH, AGENTS and EDGES).

    Fields are JSON data (dicts, lists, str, int, float, bool, None) shaped as the envelope schema
    says: goal, budget, decisions, artefacts, constraints, open_questions; status,
    allowed_next_step, safe_resume, blocked_on. now: the clock of the provenance time, in seconds
    since the Unix epoch (default time.time). handoff_id: default a random UUID (RFC 9562 version 4).
    """

    __slots__ = ("_agents", "_edges", "_graph", "_version")

    def __init__(self, graph: GraphInfo, agents: Sequence[AgentInfo], edges: Sequence[EdgeInfo]) -> None:
        self._graph = graph
        self._agents = {agent.id: agent for agent in agents}
        self._edges = frozenset((edge.from_agent, edge.to_agent) for edge in edges)
        self._version = f"{graph.envelope[0]}.{graph.envelope[1]}.0"

    def _ref(self, agent_id: str) -> dict[str, Any]:
        agent = self._agents.get(agent_id)
        if agent is None:
            raise TypeError(f"graph {self._graph.name} has no agent {quote_untrusted(agent_id)}")
        ref: dict[str, Any] = {"id": agent_id, "role": agent.role}
        if agent.version is not None:
            ref["version"] = agent.version
        return ref

    def _check_edge(self, me: str, to: str) -> None:
        self._ref(me)
        self._ref(to)
        if (me, to) not in self._edges:
            raise TypeError(f"graph {self._graph.name} has no edge {me} -> {to}")

    @staticmethod
    def _provenance(me: str, action: str, status: str, note: str | None, now: Callable[[], float] | None) -> dict[str, Any]:
        entry: dict[str, Any] = {"agent": me, "action": action, "at": _iso(time.time() if now is None else now()), "status": status}
        if note is not None:
            entry["note"] = note
        return entry

    def first(
        self,
        *,
        me: str,
        to: str,
        task_id: str,
        goal: Mapping[str, Any],
        budget: Mapping[str, Any],
        action: str,
        fields: Mapping[str, Any],
        provenance_status: str = "asserted",
        note: str | None = None,
        now: Callable[[], float] | None = None,
        handoff_id: str | None = None,
    ) -> dict[str, Any]:
        """The first envelope of a new task, from entry agent me to to: hop 1, path [me, to].
        fields: the optional fields to send (decisions, artefacts, ..., status...), each only when
        given. Raises TypeError when me is no entry of the graph or it has no edge me -> to, and
        ValueError when the graph allows no handoff."""
        if me not in self._graph.entries:
            raise TypeError(
                f"{quote_untrusted(me)} is not an entry of graph {self._graph.name}: a task starts at {', '.join(self._graph.entries)}"
            )
        self._check_edge(me, to)
        if self._graph.hop_limit < 1:
            raise ValueError(f"graph {self._graph.name} allows no handoff")
        envelope: dict[str, Any] = {
            "envelope_version": self._version,
            "handoff_id": handoff_id if handoff_id is not None else str(uuid.uuid4()),
            "task_id": task_id,
            "hop": {"index": 1, "limit": self._graph.hop_limit, "path": [me, to]},
            "from_agent": self._ref(me),
            "to_agent": self._ref(to),
            "goal": copy.deepcopy(dict(goal)),
        }
        return self._finish(envelope, dict(budget), fields, None, [self._provenance(me, action, provenance_status, note, now)])

    def next(
        self,
        received: Mapping[str, Any],
        *,
        me: str,
        to: str,
        action: str,
        fields: Mapping[str, Any],
        goal: Mapping[str, Any] | None = None,
        budget: Mapping[str, Any] | None = None,
        provenance_status: str = "asserted",
        note: str | None = None,
        now: Callable[[], float] | None = None,
        handoff_id: str | None = None,
    ) -> dict[str, Any]:
        """The envelope that hands a received (accepted) task on from me to to: the same task_id,
        a fresh handoff_id, hop.index + 1, the graph's hop.limit, the path extended by to, roles
        and declared versions from the graph, the received provenance plus this agent's entry;
        goal, budget and the carried fields (decisions, artefacts, constraints, open_questions)
        default to the received ones. Raises TypeError when received was not addressed to me or
        has no hop.path, or the graph has no edge me -> to; ValueError when the task is at its hop
        limit (escalate or fail it, as the graph's on_hop_limit says, instead of handing it on)."""
        addressed = _get(received.get("to_agent"), "id")
        if addressed != me:
            raise TypeError(f"the envelope received was addressed to {quote_untrusted(addressed)}, not to {quote_untrusted(me)}")
        path = _get(received.get("hop"), "path")
        index = _get(received.get("hop"), "index")
        if not isinstance(path, list) or type(index) is not int:
            raise TypeError("the envelope received has no hop.path and hop.index to extend")
        self._check_edge(me, to)
        index += 1
        if index >= self._graph.hop_limit:
            then = "escalate the task to a human" if self._graph.on_hop_limit == "escalate" else "fail the task"
            raise ValueError(
                f"hop {index} would reach the hop limit of graph {self._graph.name}, {self._graph.hop_limit}: {then} instead of handing it on"
            )
        before: Any = received.get("provenance")
        # On an observe edge a malformed provenance may have been accepted (as a warning): it restarts here.
        earlier: list[dict[str, Any]] = copy.deepcopy(cast("list[dict[str, Any]]", before)) if isinstance(before, list) else []
        provenance = [*earlier, self._provenance(me, action, provenance_status, note, now)]
        envelope: dict[str, Any] = {
            "envelope_version": self._version,
            "handoff_id": handoff_id if handoff_id is not None else str(uuid.uuid4()),
            "task_id": received.get("task_id"),
            "hop": {"index": index, "limit": self._graph.hop_limit, "path": [*copy.deepcopy(cast("list[str]", path)), to]},
            "from_agent": self._ref(me),
            "to_agent": self._ref(to),
            "goal": copy.deepcopy(dict(goal) if goal is not None else received.get("goal")),
        }
        chosen_budget = dict(budget) if budget is not None else received.get("budget")
        return self._finish(envelope, chosen_budget, fields, received, provenance)

    def _finish(
        self,
        envelope: dict[str, Any],
        budget: object,
        fields: Mapping[str, Any],
        received: Mapping[str, Any] | None,
        provenance: list[dict[str, Any]],
    ) -> dict[str, Any]:
        unknown = sorted(set(fields) - set(_CARRIED) - set(_COMPLETION))
        if unknown:
            raise TypeError(
                f"unknown envelope fields {', '.join(quote_untrusted(name) for name in unknown)}: the builder fills in the header"
            )
        # The optional fields in schema order, each only when given (or, carried, received).
        for name in ("decisions", "artefacts", "constraints"):
            value = fields.get(name, received.get(name) if received is not None else None)
            if value is not None:
                envelope[name] = copy.deepcopy(value)
        envelope["budget"] = copy.deepcopy(budget)
        questions = fields.get("open_questions", received.get("open_questions") if received is not None else None)
        if questions is not None:
            envelope["open_questions"] = copy.deepcopy(questions)
        envelope["provenance"] = provenance
        for name in _COMPLETION:
            if fields.get(name) is not None:
                envelope[name] = copy.deepcopy(fields[name])
        return envelope
