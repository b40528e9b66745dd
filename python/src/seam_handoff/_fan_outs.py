"""The fan-outs of a graph as ingest reads them (a port of src/runtime/fan-out-map.ts): each
branch's id (NAME/AGENT, what hop.branch says), its siblings, and the join that waits for it."""

from typing import NamedTuple

from ._records import AgentInfo, EdgeInfo
from ._stores import ClaimJoin


class FanBranch(NamedTuple):
    """One branch of a fan-out, from the graph."""

    id: str
    fan_out: str
    from_agent: str
    agent: str
    siblings: tuple[str, ...]
    join: ClaimJoin | None


class FanOutMap(NamedTuple):
    """The fan-outs of one graph: every branch id (edge order), the branch of each fan_out edge
    (by its endpoints), the branch of each id (the first, should two supervisors share one), and
    each join agent's inputs."""

    ids: tuple[str, ...]
    of_edge: dict[tuple[str, str], FanBranch]
    by_id: dict[str, FanBranch]
    inputs: dict[str, frozenset[str]]


def fan_out_map(agents: tuple[AgentInfo, ...], edges: tuple[EdgeInfo, ...]) -> FanOutMap:
    """Maps the fan-outs: a fan-out's join is the first join agent (agent order) one of whose
    inputs its branches reach, with an edge to it, before they reach any join agent."""
    groups: dict[tuple[str, str], list[EdgeInfo]] = {}
    for edge in edges:
        if edge.fan_out is not None:
            groups.setdefault((edge.from_agent, edge.fan_out), []).append(edge)
    inputs = {agent.id: frozenset(agent.join.inputs) for agent in agents if agent.join is not None}
    out: dict[str, list[str]] = {}
    for edge in edges:
        out.setdefault(edge.from_agent, []).append(edge.to_agent)
    ids: list[str] = []
    of_edge: dict[tuple[str, str], FanBranch] = {}
    by_id: dict[str, FanBranch] = {}
    for (supervisor, name), group in groups.items():
        siblings = tuple(f"{name}/{edge.to_agent}" for edge in group)
        join = _join_of([edge.to_agent for edge in group], agents, inputs, out)
        for edge in group:
            branch = FanBranch(f"{name}/{edge.to_agent}", name, supervisor, edge.to_agent, siblings, join)
            ids.append(branch.id)
            of_edge[(edge.from_agent, edge.to_agent)] = branch
            by_id.setdefault(branch.id, branch)
    return FanOutMap(tuple(ids), of_edge, by_id, inputs)


def _join_of(
    targets: list[str], agents: tuple[AgentInfo, ...], inputs: dict[str, frozenset[str]], out: dict[str, list[str]]
) -> ClaimJoin | None:
    reached = set(targets)
    queue = list(targets)
    for name in queue:
        if name in inputs:
            continue
        for target in out.get(name, []):
            if target not in reached:
                reached.add(target)
                queue.append(target)
    for info in agents:
        join = info.join
        if join is not None and any(source in reached and info.id in out.get(source, []) for source in join.inputs):
            policy = join.otherwise
            outcome = None if policy == "escalate" else next((t.outcome for t in info.terminals if t.id == policy), None)
            return ClaimJoin(info.id, join.need, None if join.within is None else join.within * 1000, policy, outcome)
    return None
