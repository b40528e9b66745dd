"""Builders of the envelopes a producer sends (the JavaScript runtime's createEnvelopeBuilder), so
the correct envelope is the easy one to write: the header (ids, hop index, limit and path, roles
and declared versions, the envelope version, the provenance time) comes from the graph and the
envelope received, never from hand. Everything taken from the caller or the received envelope is
deep-copied: changing the new envelope never changes the one received, and the reverse.

A generated module binds them to its graph as first_envelope() and next_envelope().
"""

import copy
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

from ._clock import iso_time, read_clock
from ._fan_outs import fan_out_map
from ._fields import BUDGET_COUNTERS, add_counts, whole_number
from ._records import AgentInfo, EdgeInfo, GraphInfo
from ._untrusted import quote_untrusted

__all__ = ["EnvelopeBuilder"]

_CARRIED: Final = ("decisions", "artefacts", "constraints", "open_questions")
_COMPLETION: Final = ("status", "allowed_next_step", "safe_resume", "blocked_on", "approval")
# The str options the builders check, each with what it holds, for the message. A caller without
# types may pass anything, and an envelope built from it would only be refused by its receiver,
# far from the mistake. The JavaScript builders check the same options with the same words.
_STR_OPTIONS: Final = {
    "me": "this agent's id",
    "to": "the receiving agent's id",
    "action": "what this agent did",
    "provenance_status": "verified, asserted or unverified",
    "note": "a note for the provenance entry",
    "status": "the envelope's status",
    "handoff_id": "the new handoff's id",
    "task_id": "the task's id",
}


def _get(value: object, key: str) -> Any:
    """value[key] for a mapping, else None."""
    return cast("Mapping[str, Any]", value).get(key) if isinstance(value, Mapping) else None


class EnvelopeBuilder:
    """The envelope builders of one graph (a generated module's GRAPH, AGENTS and EDGES).

    Fields are JSON data (dicts, lists, str, int, float, bool, None) shaped as the envelope schema
    says: goal, budget, decisions, artefacts, constraints, open_questions; status,
    allowed_next_step, safe_resume, blocked_on, approval (envelope 1.4: every handoff leaving an
    approval gate carries one). now: the clock of the provenance time, in seconds
    since the Unix epoch (default time.time). handoff_id: default a random UUID (RFC 9562 version 4).
    """

    __slots__ = ("_agents", "_edges", "_fan_outs", "_graph", "_version")

    def __init__(self, graph: GraphInfo, agents: Sequence[AgentInfo], edges: Sequence[EdgeInfo]) -> None:
        self._graph = graph
        self._agents = {agent.id: agent for agent in agents}
        self._edges = frozenset((edge.from_agent, edge.to_agent) for edge in edges)
        self._version = f"{graph.envelope[0]}.{graph.envelope[1]}.0"
        # hop.branch exists from envelope 1.4 on.
        branches = graph.envelope[0] == 1 and graph.envelope[1] >= 4
        self._fan_outs = fan_out_map(tuple(agents), tuple(edges) if branches else ())

    def _hop(self, me: str, to: str, index: int, path: list[str], inside: object) -> dict[str, Any]:
        """The hop of a handoff me -> to: in the edge's own branch over a fan_out edge, else in
        the received one (inside), else in none."""
        own = self._fan_outs.of_edge.get((me, to))
        branch = own.id if own is not None else inside if isinstance(inside, str) else None
        hop: dict[str, Any] = {"index": index, "limit": self._graph.hop_limit, "path": [*path, to]}
        if branch is not None:
            hop["branch"] = branch
        return hop

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
    def _provenance(call: str, me: str, action: str, status: str, note: str | None, now: Callable[[], float] | None) -> dict[str, Any]:
        # Read as accept() reads its clock, so that a wrong one gets the same words.
        entry: dict[str, Any] = {"agent": me, "action": action, "at": iso_time(read_clock(call, now)), "status": status}
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
        given. Raises TypeError when me, to, action, task_id or provenance_status is not a str,
        goal or budget not a mapping, note, status or handoff_id given (not None) but not a str, now
        given but not callable, me is no entry of the graph or it has no edge me -> to; ValueError
        when the graph allows no handoff. now() is read as accept() reads it (TypeError for no
        number or milliseconds, ValueError for a time outside +-8.64e12 s)."""
        _check_content("first_envelope", me, to, action, provenance_status, note, handoff_id, now, fields)
        _check_str("first_envelope", "task_id", task_id)
        chosen_goal = _mapping("first_envelope", "goal", goal)
        chosen_budget = _mapping("first_envelope", "budget", budget)
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
            "hop": self._hop(me, to, 1, [me], None),
            "from_agent": self._ref(me),
            "to_agent": self._ref(to),
            "goal": copy.deepcopy(chosen_goal),
        }
        return self._finish(
            envelope, chosen_budget, fields, None, [self._provenance("first_envelope", me, action, provenance_status, note, now)]
        )

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
        default to the received ones. Raises TypeError when me, to, action or provenance_status is
        not a str, goal or budget given (not None) but not a mapping, note, status or handoff_id
        given but not a str, now given but not callable, received is not a mapping, was not
        addressed to me, has no hop.path and whole-number hop.index or a hop.branch that is no
        str, or the graph has no edge me -> to; ValueError when the task is
        at its hop limit (escalate or fail it, as the graph's on_hop_limit says, instead of
        handing it on); now() as first()."""
        _check_content("next_envelope", me, to, action, provenance_status, note, handoff_id, now, fields)
        given_goal = None if goal is None else _mapping("next_envelope", "goal", goal)
        given_budget = None if budget is None else _mapping("next_envelope", "budget", budget)
        if not isinstance(cast(object, received), Mapping):
            raise TypeError("next_envelope(received, ...): received must be an envelope (the dict accept() took)")
        addressed = _get(received.get("to_agent"), "id")
        if addressed != me:
            raise TypeError(f"the envelope received was addressed to {quote_untrusted(addressed)}, not to {quote_untrusted(me)}")
        path = _get(received.get("hop"), "path")
        # A whole number however JSON wrote it (1.0 is 1 to accept() and to JSON.parse): the next
        # hop is 2, never 2.0.
        raw: object = _get(received.get("hop"), "index")
        index = raw if type(raw) is int else whole_number(raw)
        if not isinstance(path, list) or index is None:
            raise TypeError("the envelope received has no hop.path and hop.index to extend")
        inside = _get(received.get("hop"), "branch")
        if "branch" in cast("Mapping[str, object]", received.get("hop")) and not isinstance(inside, str):
            raise TypeError(
                f"the envelope received has a hop.branch of type {type(inside).__name__}, not a branch id (accept() refuses it)"
            )
        self._check_edge(me, to)
        known = self._fan_outs.by_id.get(inside) if isinstance(inside, str) else None
        sender = _get(received.get("from_agent"), "id")
        if known is not None and known.join is not None and known.join.agent == me and sender in self._fan_outs.inputs.get(me, frozenset()):
            raise TypeError(
                f"the envelope received reached the join of {me} in branch {known.id}: hand the task on with join_envelope(arrivals, ...) once the join fired"
            )
        index += 1
        self._check_limit(index)
        before: Any = received.get("provenance")
        # On an observe edge a malformed provenance may have been accepted (as a warning): it restarts here.
        earlier: list[dict[str, Any]] = copy.deepcopy(cast("list[dict[str, Any]]", before)) if isinstance(before, list) else []
        provenance = [*earlier, self._provenance("next_envelope", me, action, provenance_status, note, now)]
        envelope: dict[str, Any] = {
            "envelope_version": self._version,
            "handoff_id": handoff_id if handoff_id is not None else str(uuid.uuid4()),
            "task_id": received.get("task_id"),
            "hop": self._hop(me, to, index, copy.deepcopy(cast("list[str]", path)), inside),
            "from_agent": self._ref(me),
            "to_agent": self._ref(to),
            "goal": copy.deepcopy(given_goal if given_goal is not None else received.get("goal")),
        }
        chosen_budget = given_budget if given_budget is not None else received.get("budget")
        return self._finish(envelope, chosen_budget, fields, received, provenance)

    def _check_limit(self, index: int) -> None:
        if index >= self._graph.hop_limit:
            then = "escalate the task to a human" if self._graph.on_hop_limit == "escalate" else "fail the task"
            raise ValueError(
                f"hop {index} would reach the hop limit of graph {self._graph.name}, {self._graph.hop_limit}: {then} instead of handing it on"
            )

    def join(
        self,
        arrivals: Sequence[Mapping[str, Any]],
        *,
        me: str,
        to: str,
        action: str,
        fields: Mapping[str, Any],
        parent: Mapping[str, Any] | None = None,
        goal: Mapping[str, Any] | None = None,
        budget: Mapping[str, Any] | None = None,
        provenance_status: str = "asserted",
        note: str | None = None,
        now: Callable[[], float] | None = None,
        handoff_id: str | None = None,
    ) -> dict[str, Any]:
        """The envelope a join agent hands the task on with once its join fired (as the
        JavaScript builder's join): the hop after the longest arrival (the first of equals, in the
        order given), along its path, out of every branch; the arrivals' decisions, artefacts,
        constraints and open questions (each once, by id, ref or text) unless fields gives them,
        their provenance, then this agent's entry. budget defaults to parent's limits with
        parent's spend plus every arrival's (pass the firing record's join["consumed"] for a join
        that fired before every branch arrived); goal to parent's, else the first arrival's.
        parent: the envelope the supervisor received before it fanned out (None when the fan-out
        started the task). Raises TypeError when me, to, action or provenance_status is not a str,
        parent, goal or budget given (not None) but not a mapping, note, status or handoff_id given
        but not a str, now given but not callable, arrivals is not a sequence of mappings, no
        arrival is given, one is not addressed to me, is of another task or carries no hop.branch,
        hop.path, whole-number hop.index or budget, has a budget count that is no whole number from
        0 to 2**53 - 1, two come from one branch, or the graph has no
        edge me -> to; ValueError at the hop limit; now() as first()."""
        _check_content("join_envelope", me, to, action, provenance_status, note, handoff_id, now, fields)
        given_goal = None if goal is None else _mapping("join_envelope", "goal", goal)
        given_budget = None if budget is None else _mapping("join_envelope", "budget", budget)
        given_parent = None if parent is None else _mapping("join_envelope", "parent", parent)
        # Checked as any value: a caller without types may pass anything.
        given = cast(object, arrivals)
        if (
            not isinstance(given, Sequence)
            or isinstance(given, (str, bytes))
            or not all(isinstance(arrival, Mapping) for arrival in cast("Sequence[object]", given))
        ):
            raise TypeError("join_envelope(arrivals, ...): arrivals must be a list of envelopes (the dicts accept() took)")
        if not arrivals:
            raise TypeError("join_envelope(arrivals, ...): no arrival given; a join hands on what reached it")
        first = arrivals[0]
        longest = first
        longest_index: int | None = None
        branches: set[str] = set()
        for arrival in arrivals:
            addressed = _get(arrival.get("to_agent"), "id")
            if addressed != me:
                raise TypeError(f"an arrival was addressed to {quote_untrusted(addressed)}, not to {quote_untrusted(me)}")
            if arrival.get("task_id") != first.get("task_id"):
                raise TypeError(
                    f"the arrivals belong to tasks {quote_untrusted(first.get('task_id'))} and {quote_untrusted(arrival.get('task_id'))}: a join hands on one task"
                )
            hop = arrival.get("hop")
            raw: object = _get(hop, "index")
            index = raw if type(raw) is int else whole_number(raw)
            branch = _get(hop, "branch")
            budget_of = arrival.get("budget")
            if (
                not isinstance(branch, str)
                or not isinstance(_get(hop, "path"), list)
                or index is None
                or not isinstance(_get(budget_of, "limit"), Mapping)
                or not isinstance(_get(budget_of, "consumed"), Mapping)
            ):
                raise TypeError(
                    "an arrival has no hop.branch, hop.path, whole-number hop.index or budget: a join takes the envelopes its branches sent it"
                )
            counts = [
                *cast("Mapping[str, object]", _get(budget_of, "limit")).values(),
                *cast("Mapping[str, object]", _get(budget_of, "consumed")).values(),
            ]
            if any(whole_number(count) is None for count in counts):
                raise TypeError(
                    "an arrival's budget counts must be whole numbers from 0 to 2^53 - 1, as accept() requires: a join adds them up"
                )
            if branch in branches:
                raise TypeError(f"two arrivals come from branch {quote_untrusted(branch)}: a join takes each branch's arrival once")
            branches.add(branch)
            if longest_index is None or index > longest_index:
                longest, longest_index = arrival, index
        self._check_edge(me, to)
        index = cast(int, longest_index) + 1
        self._check_limit(index)
        carried: dict[str, Any] = dict(fields)
        for name, key in (("decisions", "id"), ("artefacts", "ref"), ("constraints", None), ("open_questions", "question")):
            if name not in carried:
                merged = _union([item for arrival in arrivals for item in _listed(arrival.get(name))], key)
                if merged:
                    carried[name] = merged
        provenance = _union([entry for arrival in arrivals for entry in _listed(arrival.get("provenance"))], "")
        envelope: dict[str, Any] = {
            "envelope_version": self._version,
            "handoff_id": handoff_id if handoff_id is not None else str(uuid.uuid4()),
            "task_id": first.get("task_id"),
            "hop": self._hop(me, to, index, copy.deepcopy(_get(longest.get("hop"), "path")), None),
            "from_agent": self._ref(me),
            "to_agent": self._ref(to),
            "goal": copy.deepcopy(given_goal if given_goal is not None else (given_parent or {}).get("goal", first.get("goal"))),
        }
        parent_budget = None if given_parent is None else given_parent.get("budget")
        chosen = given_budget if given_budget is not None else _joined_budget(parent_budget, arrivals)
        return self._finish(
            envelope,
            chosen,
            carried,
            None,
            [*copy.deepcopy(provenance), self._provenance("join_envelope", me, action, provenance_status, note, now)],
        )

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


def _listed(value: object) -> list[Any]:
    """value when it is a list (an arrival's decisions, artefacts...), else nothing."""
    return list(cast("list[object]", value)) if isinstance(value, list) else []


def _union(items: list[Any], key: str | None) -> list[Any]:
    """items without repeats, the first of each kept, in order: by item[key], by the item itself
    (key None), or by its canonical JSON (key "")."""
    seen: set[str] = set()
    out: list[Any] = []
    for item in items:
        mark = json.dumps(item, sort_keys=True) if key == "" else str(item) if key is None else str(_get(item, key))
        if mark in seen:
            continue
        seen.add(mark)
        out.append(item)
    return out


def _mapping(call: str, name: str, value: object) -> dict[str, Any]:
    """value, a mapping of JSON data the caller gave as name, as a dict; a TypeError naming it
    otherwise (dict(None) would only say 'NoneType' object is not iterable)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{call}(): {name} must be a mapping of JSON data (a dict), not {type(value).__name__}")
    return dict(cast("Mapping[str, Any]", value))


def _check_str(call: str, name: str, value: object) -> None:
    """A TypeError naming name and what it holds unless value, given as name, is a str (as
    _mapping names a mapping that is not)."""
    if not isinstance(value, str):
        raise TypeError(f"{call}(): {name} must be a str ({_STR_OPTIONS[name]}), not {type(value).__name__}")


def _check_content(
    call: str,
    me: object,
    to: object,
    action: object,
    provenance_status: object,
    note: object,
    handoff_id: object,
    now: object,
    fields: Mapping[str, Any],
) -> None:
    """The str options every builder takes, before anything that would fail on a mistyped one
    less clearly: me, to, action and provenance_status always, note, status and handoff_id
    unless None (left out); and now, a function, unless None."""
    for name, value in (("me", me), ("to", to), ("action", action), ("provenance_status", provenance_status)):
        _check_str(call, name, value)
    for name, value in (("note", note), ("status", fields.get("status")), ("handoff_id", handoff_id)):
        if value is not None:
            _check_str(call, name, value)
    if now is not None and not callable(now):
        raise TypeError(f"{call}(): now must be a function (the time in seconds since the Unix epoch), not {type(now).__name__}")


def _joined_budget(parent: object, arrivals: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The parent's limits, and its spend plus every arrival's, counter by counter (what the ledger
    records at the join). Without a parent (a fan-out at the entry), each limit is the sum of every
    arrival's, for the counters they all limit: at most what the ledger holds, which adds up every
    branch the fan-out opened. Sums stop at 2**53 - 1, as the ledger's do (add_counts)."""
    consumed: dict[str, Any] = dict(_get(parent, "consumed") or {})
    for arrival in arrivals:
        spends = cast("Mapping[str, object]", _get(arrival.get("budget"), "consumed") or {})
        for counter, spent in spends.items():
            # Any number, as the JavaScript builder adds them; a whole-number float (1.0) counts as
            # the int it is, so the sum is written 3, not 3.0.
            if isinstance(spent, (int, float)) and not isinstance(spent, bool):
                total = add_counts(consumed.get(counter, 0), spent)
                whole = whole_number(total)
                consumed[counter] = total if whole is None else whole
    limit = _arrival_limits(arrivals) if parent is None else dict(_get(parent, "limit") or {})
    return {"limit": limit, "consumed": consumed}


def _arrival_limits(arrivals: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Each counter's limit summed over the arrivals, for the counters every arrival limits with a
    number (a whole-number float counting as its int, as in the spend)."""
    limit: dict[str, Any] = {}
    for counter in BUDGET_COUNTERS:
        held = [_get(_get(arrival.get("budget"), "limit"), counter) for arrival in arrivals]
        if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in held):
            continue
        total: float = 0
        for value in cast("list[float]", held):
            total = add_counts(total, value)
        whole = whole_number(total)
        limit[counter] = total if whole is None else whole
    return limit
