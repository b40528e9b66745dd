"""LangGraph nodes that check the handoff envelope in the graph's state before an agent's node
spends a model call on it, and route on the verdict (tested with langgraph==1.2.24, the
seam-handoff[langgraph] extra).

Two shapes, as LangGraph offers both:
- guard_node(accept, me=..., goto={...}): a node that checks state[envelope_key], writes the
  verdict to state[verdict_key] and returns a Command whose goto is the node its route names;
- check_node(accept, me=...) with route_on_verdict(): a node that only writes the verdict, and
  the function add_conditional_edges routes with, over verdict_path_map({...}).

Both shapes end the run (END) on a route the mapping leaves out, with the verdict in the state:
so, unless mapped, an arrival a join holds (route held: accepted and recorded, but the join waits
for other branches of its fan-out) stops there without an error, and the arrival that fires the
join (route proceed) goes on to the join agent's node.

The verdict in the state is verdict.to_dict() (JSON data, so checkpointers store it as is): the
JavaScript runtime's shape, {"ok": true, "record": {...}} or {"ok": false, "rejection": {...}}.
"""

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final, Protocol, TypeVar, get_args

from .._records import AcceptResult
from ._verdict import VerdictRoute, load_framework, verdict_route

__all__ = [
    "DEFAULT_ENVELOPE_KEY",
    "DEFAULT_VERDICT_KEY",
    "StateNode",
    "check_node",
    "check_node_async",
    "guard_node",
    "guard_node_async",
    "route_on_verdict",
    "verdict_path_map",
]

DEFAULT_ENVELOPE_KEY: Final = "envelope"
"""The state key the nodes read the envelope from."""
DEFAULT_VERDICT_KEY: Final = "seam_verdict"
"""The state key the nodes write the verdict to."""

_ROUTES: Final[frozenset[str]] = frozenset(get_args(VerdictRoute))

State = Mapping[str, Any]
"""A LangGraph state: the dict (or TypedDict) a node receives."""

_Out_co = TypeVar("_Out_co", covariant=True)


class StateNode(Protocol[_Out_co]):
    """A node as StateGraph.add_node takes it under mypy and pyright: called with the graph's
    state, whatever its schema (a TypedDict, a dataclass, a pydantic model), as state=. A plain
    Callable[[Mapping[str, Any]], ...] is not one: LangGraph's node protocol names the parameter
    and bounds its type by the state schemas it supports."""

    def __call__(self, state: Any) -> _Out_co: ...


def _options(state: State, envelope_key: str, sender_key: str | None) -> tuple[object, str | None]:
    sender = None if sender_key is None else state.get(sender_key)
    if sender is not None and not isinstance(sender, str):
        raise TypeError(f"state[{sender_key!r}] must be the authenticated sender's agent id, a str, or None")
    return state.get(envelope_key), sender


def verdict_path_map(goto: Mapping[str, str]) -> dict[str, str]:
    """The path_map of builder.add_conditional_edges(check, route_on_verdict(), verdict_path_map({...})):
    goto (route -> node name; "proceed", where an accepted envelope goes, is required) with every
    route goto leaves out sent to END ("__end__"): a refusal you do not map, a duplicate, and an
    arrival a join holds (held) end the run with the verdict in the state, as with guard_node.
    Raises TypeError when goto names no route or lacks "proceed"; ImportError when langgraph is
    not installed."""
    table = dict(goto)
    unknown = sorted(set(table) - _ROUTES)
    if unknown:
        raise TypeError(f"goto names no route {', '.join(map(repr, unknown))}; the routes are {', '.join(sorted(_ROUTES))}")
    if "proceed" not in table:
        raise TypeError("goto needs a node for 'proceed', where an accepted envelope goes")
    end: str = load_framework("langgraph.graph", "langgraph").END
    return {route: table.get(route, end) for route in get_args(VerdictRoute)}


def check_node(
    accept: Callable[..., AcceptResult],
    *,
    me: str,
    envelope_key: str = DEFAULT_ENVELOPE_KEY,
    verdict_key: str = DEFAULT_VERDICT_KEY,
    sender_key: str | None = None,
    **options: object,
) -> StateNode[dict[str, Any]]:
    """A node (builder.add_node(name, check_node(...))) that checks state[envelope_key] with a
    graph module's accept for receiving agent me and returns {verdict_key: verdict.to_dict()}.

    sender_key: the state key holding the authenticated producer (accept's sender); options:
    accept's other keyword arguments (can_read, seen, now). Raises what accept raises for
    misuse (TypeError), never for a bad envelope."""

    def node(state: State) -> dict[str, Any]:
        envelope, sender = _options(state, envelope_key, sender_key)
        return {verdict_key: accept(envelope, me=me, sender=sender, **options).to_dict()}

    return node


def check_node_async(
    accept_async: Callable[..., Awaitable[AcceptResult]],
    *,
    me: str,
    envelope_key: str = DEFAULT_ENVELOPE_KEY,
    verdict_key: str = DEFAULT_VERDICT_KEY,
    sender_key: str | None = None,
    **options: object,
) -> StateNode[Awaitable[dict[str, Any]]]:
    """check_node for a module's accept_async (an asynchronous store or can_read), for graphs run with ainvoke."""

    async def node(state: State) -> dict[str, Any]:
        envelope, sender = _options(state, envelope_key, sender_key)
        return {verdict_key: (await accept_async(envelope, me=me, sender=sender, **options)).to_dict()}

    return node


def route_on_verdict(verdict_key: str = DEFAULT_VERDICT_KEY) -> Callable[[State], VerdictRoute]:
    """The path function of builder.add_conditional_edges(check, route_on_verdict(), verdict_path_map({route: node})):
    the route of the verdict check_node wrote (see VerdictRoute); a plain path_map must map every
    route the graph can give (held, at a join, included), which verdict_path_map does. Raises
    KeyError when the state holds no verdict (the check node did not run first)."""

    def route(state: State) -> VerdictRoute:
        verdict = state[verdict_key]
        found: object = verdict["record"]["route"] if verdict["ok"] else verdict["rejection"]["route"]
        if not isinstance(found, str) or found not in _ROUTES:
            raise ValueError(f"state[{verdict_key!r}] is no verdict of check_node: its route is {found!r}")
        return found  # type: ignore[return-value]

    return route


def _command(verdict: AcceptResult, paths: dict[str, str], verdict_key: str) -> Any:
    types = load_framework("langgraph.types", "langgraph")
    return types.Command(update={verdict_key: verdict.to_dict()}, goto=paths[verdict_route(verdict)])


def guard_node(
    accept: Callable[..., AcceptResult],
    *,
    me: str,
    goto: Mapping[str, str],
    envelope_key: str = DEFAULT_ENVELOPE_KEY,
    verdict_key: str = DEFAULT_VERDICT_KEY,
    sender_key: str | None = None,
    **options: object,
) -> StateNode[Any]:
    """A node that checks state[envelope_key] as check_node does and returns a langgraph
    Command: update {verdict_key: verdict.to_dict()}, goto the node goto names for the verdict's
    route (goto["proceed"] for an accepted envelope; "repair", "escalate", "fail", "discard", "retry",
    "human_input", "approval", "failed", "held" as mapped). A route goto does not name ends the run
    (END), with the verdict in the state: an arrival a join holds stops there unless "held" is
    mapped. Raises TypeError at once when goto names no route or lacks "proceed"; ImportError when
    langgraph is not installed."""
    table = verdict_path_map(goto)

    def node(state: State) -> Any:
        envelope, sender = _options(state, envelope_key, sender_key)
        return _command(accept(envelope, me=me, sender=sender, **options), table, verdict_key)

    return node


def guard_node_async(
    accept_async: Callable[..., Awaitable[AcceptResult]],
    *,
    me: str,
    goto: Mapping[str, str],
    envelope_key: str = DEFAULT_ENVELOPE_KEY,
    verdict_key: str = DEFAULT_VERDICT_KEY,
    sender_key: str | None = None,
    **options: object,
) -> StateNode[Awaitable[Any]]:
    """guard_node for a module's accept_async, for graphs run with ainvoke."""
    table = verdict_path_map(goto)

    async def node(state: State) -> Any:
        envelope, sender = _options(state, envelope_key, sender_key)
        return _command(await accept_async(envelope, me=me, sender=sender, **options), table, verdict_key)

    return node
