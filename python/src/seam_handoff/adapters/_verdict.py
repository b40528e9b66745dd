"""What the adapters share: the one route name of a verdict, the words a framework's agent is told
when its handoff does not go ahead, and the import of a framework."""

import importlib
from types import ModuleType
from typing import Literal, TypeAlias, cast

from .._records import AcceptanceRecord, Accepted, Rejected

Verdict: TypeAlias = Accepted | Rejected
"""What accept() returns."""

VerdictRoute: TypeAlias = Literal["proceed", "human_input", "approval", "failed", "held", "repair", "escalate", "fail", "discard", "retry"]
"""Where a verdict sends the task: an accepted envelope's record.route (proceed, human_input,
approval, failed; held for an arrival at a join that still waits for other branches) or a
refused one's rejection.route (repair, escalate, fail; discard for a duplicate or a late branch;
retry for a handoff held by a live claim lease, lease-held)."""


def verdict_route(verdict: Verdict) -> VerdictRoute:
    """The route of a verdict: record.route when accepted, rejection.route when refused."""
    if isinstance(verdict, Accepted):
        return verdict.record.route
    return verdict.rejection.route


def is_held(verdict: Verdict) -> bool:
    """Whether verdict accepted an arrival at a join that still waits for other branches (route
    held): the arrival is recorded, and the join agent must not start on it; the arrival that
    fires the join (route proceed) goes on with the task."""
    return isinstance(verdict, Accepted) and verdict.record.route == "held"


def held_text(record: AcceptanceRecord) -> str:
    """One line on a held arrival for the agent that made it: which join holds it and which
    branches it waits for (branch names come from the graph, FAN_OUT/AGENT)."""
    join = record.join or {}
    waiting = cast("list[str]", join.get("waiting") or [])
    agent = join.get("agent", record.receiver)
    also = f": it waits for {', '.join(waiting)}" if waiting else ""
    return f"the join of {agent} holds this arrival{f' ({record.branch})' if record.branch else ''}{also}; the task goes on when the join fires, so do not send it again"


def refusal_text(verdict: Rejected) -> str:
    """One line on a refused handoff: its route, then each reason's rule, JSON Pointer and
    message (messages quote envelope text escaped and bounded, as accept() writes them)."""
    reasons = "; ".join(f"{reason.rule} at {reason.path or '/'}: {reason.message}" for reason in verdict.rejection.reasons)
    return f"the handoff was refused ({verdict.rejection.route}): {reasons}"


def load_framework(module: str, extra: str) -> ModuleType:
    """Imports a framework's module when an adapter first needs it. Raises ImportError naming
    the extra to install when the framework is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        # Until seam-handoff is published, a checkout's ./python is where the extra installs from.
        raise ImportError(
            f"{module} is not installed: install the seam-handoff[{extra}] extra"
            f" (pip install './python[{extra}]' from a Seam checkout; the package is not yet published)"
        ) from error
