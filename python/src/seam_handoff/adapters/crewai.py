"""A guard on CrewAI's delegation (tested with crewai==1.15.30, the seam-handoff[crewai] extra).

An agent with allow_delegation=True hands work over with CrewAI's "Delegate work to coworker"
and "Ask question to coworker" tools. DelegationGuard is a before_tool_call hook on those tools:
the delegating agent puts the Seam envelope, as JSON text, in the tool's context argument; the
guard reads it strictly (parse_envelope) and checks it with the graph module's accept for the
coworker's agent id, the delegating agent's as the authenticated sender (CrewAI knows which agent
made the call). A refused envelope blocks the tool call, and so does an arrival a join holds
(route held: accepted and recorded, but the join waits for other branches of its fan-out, so the
coworker must not start on it; the arrival that fires the join runs). What the delegating agent
reads as the tool's result then says why, as an after_tool_call hook: the refusal's route and
reasons, or which join holds the arrival and what it waits for. Every verdict is kept in
verdicts and passed to on_verdict. Other tools pass untouched.
"""

from collections.abc import Callable, Mapping
from typing import Any, Final

from .._catalogue import rule_reason
from .._records import AcceptResult, GraphInfo, Reason, Rejected, Rejection
from .._untrusted import quote_untrusted
from ..parse import parse_envelope
from ._verdict import held_text, is_held, load_framework, refusal_text

__all__ = ["DELEGATION_TOOLS", "DelegationGuard"]

DELEGATION_TOOLS: Final = frozenset(("delegate_work_to_coworker", "ask_question_to_coworker"))
"""CrewAI's delegation tools, by the sanitized names its hooks see."""


_MAX_BLOCKED: Final = 64
"""Blocked calls kept for their after_tool_call answer: CrewAI runs the after hook right after the
before hook, so only calls dispatched without it (a direct run_before_tool_call_hooks) pile up."""


def _role(name: object) -> str:
    # CrewAI's own matching of a coworker: whitespace collapsed, quotes dropped, case folded.
    return " ".join(str(name).split()).replace('"', "").casefold()


class DelegationGuard:
    """A before_tool_call hook (with its after_tool_call half): guard = DelegationGuard(desk.accept, graph=desk.GRAPH, agents={...}); guard.register().

    accept: the graph module's accept; graph: its GRAPH; agents: each CrewAI agent's role -> its agent id in the
    graph; envelope_field: the tool argument holding the envelope's JSON text (default
    "context"); on_verdict(verdict, tool_input): called for every delegation checked; options:
    accept's keyword arguments (seen, can_read, now)."""

    def __init__(
        self,
        accept: Callable[..., AcceptResult],
        *,
        graph: GraphInfo,
        agents: Mapping[str, str],
        envelope_field: str = "context",
        on_verdict: Callable[[AcceptResult, Mapping[str, Any]], object] | None = None,
        **options: object,
    ) -> None:
        self._accept = accept
        self._graph = graph
        self._agents = {_role(role): agent_id for role, agent_id in agents.items()}
        self._field = envelope_field
        self._on_verdict = on_verdict
        self._options = options
        self.verdicts: list[AcceptResult] = []
        """Every verdict, in order."""
        # The tool inputs of the calls blocked and not yet answered, each with what the agent is
        # told: CrewAI hands the after hook the very dict it gave the before hook.
        self._blocked: list[tuple[Mapping[str, Any], str]] = []

    def __call__(self, context: Any) -> bool | None:
        """The before_tool_call hook: False blocks the tool call (a refusal, or an arrival a join
        holds), None lets it run."""
        if context.tool_name not in DELEGATION_TOOLS:
            return None
        tool_input: Mapping[str, Any] = context.tool_input
        verdict = self.check(getattr(context.agent, "role", None), tool_input)
        self.verdicts.append(verdict)
        if self._on_verdict is not None:
            self._on_verdict(verdict, tool_input)
        if isinstance(verdict, Rejected):
            self._blocked.append((tool_input, f"Seam: {refusal_text(verdict)}"))
            del self._blocked[:-_MAX_BLOCKED]
            return False
        if is_held(verdict):
            self._blocked.append((tool_input, f"Seam: {held_text(verdict.record)}"))
            del self._blocked[:-_MAX_BLOCKED]
            return False
        return None

    def after(self, context: Any) -> str | None:
        """The after_tool_call hook: for a delegation this guard blocked, the tool result the
        delegating agent reads (why it did not run: the refusal's route and reasons, or the join
        that holds the arrival) instead of CrewAI's bare "blocked by hook"; None (the result as
        it is) for every other call."""
        for index, (tool_input, text) in enumerate(self._blocked):
            if tool_input is context.tool_input:
                del self._blocked[index]
                return text
        return None

    def check(self, delegator_role: object, tool_input: Mapping[str, Any]) -> AcceptResult:
        """The verdict on one delegation: delegator_role, the CrewAI role of the delegating agent;
        tool_input, the tool's arguments (coworker, task, the envelope field). A delegation
        between roles the graph does not know, or without a readable envelope, is refused."""
        sender = self._agents.get(_role(delegator_role)) if delegator_role is not None else None
        coworker = tool_input.get("coworker")
        receiver = self._agents.get(_role(coworker)) if isinstance(coworker, str) else None
        if sender is None:
            return _refused(
                rule_reason("/from_agent/id", "unknown-edge", "from", graph=self._graph.name, agent=quote_untrusted(delegator_role))
            )
        if receiver is None:
            return _refused(rule_reason("/to_agent/id", "unknown-edge", "to", graph=self._graph.name, agent=quote_untrusted(coworker)))
        text = tool_input.get(self._field)
        # No envelope text at all reads as the empty text: not JSON.
        parsed = parse_envelope(text if isinstance(text, str) else "")
        if not parsed.ok:
            return _refused(*parsed.reasons)
        return self._accept(parsed.envelope, me=receiver, sender=sender, **self._options)

    def register(self) -> None:
        """Registers the guard with CrewAI as a global before_tool_call hook and its after method
        as an after_tool_call hook."""
        hooks = load_framework("crewai.hooks", "crewai")
        hooks.register_before_tool_call_hook(self)
        hooks.register_after_tool_call_hook(self.after)

    def unregister(self) -> None:
        """Removes the guard's two hooks from CrewAI's."""
        hooks = load_framework("crewai.hooks", "crewai")
        hooks.unregister_before_tool_call_hook(self)
        hooks.unregister_after_tool_call_hook(self.after)


def _refused(*reasons: Reason) -> Rejected:
    # Refused before accept(): nothing was claimed, so the delegating agent repairs it.
    return Rejected(Rejection(None, None, None, "repair", reasons, None, 1))
