"""An OpenAI Agents SDK handoff that carries a Seam envelope (tested with openai-agents==0.24.0,
the seam-handoff[openai-agents] extra).

edge_handoff(agent, edge, accept=..., models=...) builds the SDK's Handoff for one edge of the
graph: its input_type is the edge's strict pydantic model (`seam compile --target python
--pydantic` writes them), so the handing-off agent's model is asked for that edge's envelope as
the tool call's arguments, and its on_handoff checks the envelope with the graph module's accept
for the receiving agent, the handing-off agent as the authenticated sender (the SDK knows which
agent made the call). A refused envelope stops the handoff: HandoffRefused, carrying the
rejection, is raised out of Runner.run, and its route says what to do (repair, escalate, fail,
discard). An arrival that a join holds (route held: the join waits for other branches of its
fan-out) is accepted and recorded, but the join agent must not start on it: HandoffHeld, carrying
the acceptance, ends the run there. It is no failure; the arrival that fires the join hands over.
"""

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from .._records import AcceptanceRecord, Accepted, AcceptResult, EdgeInfo, Rejected
from ._verdict import held_text, is_held, load_framework, refusal_text

__all__ = ["EnvelopeModel", "HandoffHeld", "HandoffRefused", "edge_handoff"]


class EnvelopeModel(Protocol):
    """What edge_handoff needs of a pydantic model instance."""

    def model_dump(self, *, mode: str, exclude_none: bool) -> dict[str, Any]: ...


class HandoffRefused(Exception):
    """accept() refused the envelope of a handoff: verdict is the Rejected, and
    verdict.rejection.route says what to do (repair: the producer fixes it; escalate, fail,
    discard). The message lists the reasons (rule and path)."""

    def __init__(self, edge: EdgeInfo, verdict: Rejected) -> None:
        super().__init__(f"{edge.from_agent} -> {edge.to_agent}: {refusal_text(verdict)}")
        self.edge = edge
        self.verdict = verdict


class HandoffHeld(Exception):
    """accept() took the envelope of a handoff to a join as an arrival the join holds: verdict is
    the Accepted, verdict.record.route is "held" and verdict.record.join says which branches the
    join waits for. Not a failure: the arrival is recorded (on_accepted saw it), and the run ends
    here because the join agent must not start before its branches are in; the arrival that
    fires the join hands over as any accepted envelope does. Catch it beside HandoffRefused."""

    def __init__(self, edge: EdgeInfo, verdict: Accepted) -> None:
        super().__init__(f"{edge.from_agent} -> {edge.to_agent}: {held_text(verdict.record)}")
        self.edge = edge
        self.verdict = verdict


def edge_handoff(
    agent: Any,
    edge: EdgeInfo,
    *,
    accept: Callable[..., AcceptResult | Awaitable[AcceptResult]],
    models: Mapping[tuple[str, str, str], type[Any]],
    on_accepted: Callable[[Any, AcceptanceRecord], object] | None = None,
    **options: Any,
) -> Any:
    """The agents.Handoff to agent (the SDK's Agent of edge.to_agent) for edge, one of the graph
    module's EDGES.

    accept: the graph module's accept or accept_async (the handoff awaits either); models: the
    models module's EDGE_MODELS (the edge's model becomes input_type); on_accepted(ctx, record):
    called with the run context and the acceptance record (store it, log it). options: accept's
    keyword arguments (seen, can_read, now) and the SDK handoff()'s (tool_name_override,
    tool_description_override, input_filter, is_enabled), told apart by name.

    Raises KeyError when models has no model of the edge, ImportError when the SDK is not
    installed; the handoff raises HandoffRefused for a refused envelope and, after on_accepted,
    HandoffHeld for an arrival a join holds (route held)."""
    sdk = load_framework("agents", "openai-agents")
    input_type = models[(edge.kind, edge.from_agent, edge.to_agent)]
    sdk_keys = {"tool_name_override", "tool_description_override", "input_filter", "is_enabled", "nest_handoff_history"}
    sdk_options = {key: value for key, value in options.items() if key in sdk_keys}
    accept_options = {key: value for key, value in options.items() if key not in sdk_keys}

    async def on_handoff(ctx: Any, envelope: EnvelopeModel) -> None:
        # A strict tool schema sends null for an omitted optional field; no envelope field is null.
        data = envelope.model_dump(mode="json", exclude_none=True)
        answer = accept(data, me=edge.to_agent, sender=edge.from_agent, **accept_options)
        verdict = await answer if inspect.isawaitable(answer) else answer
        if isinstance(verdict, Rejected):
            raise HandoffRefused(edge, verdict)
        if on_accepted is not None:
            done = on_accepted(ctx, verdict.record)
            if inspect.isawaitable(done):
                await done
        if is_held(verdict):
            raise HandoffHeld(edge, verdict)

    return sdk.handoff(agent, on_handoff=on_handoff, input_type=input_type, **sdk_options)
