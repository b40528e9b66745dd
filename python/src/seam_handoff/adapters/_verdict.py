"""What the adapters share: the one route name of a verdict, and the import of a framework."""

import importlib
from types import ModuleType
from typing import Literal, TypeAlias

from .._records import Accepted, Rejected

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


def load_framework(module: str, extra: str) -> ModuleType:
    """Imports a framework's module when an adapter first needs it. Raises ImportError naming
    the extra to install when the framework is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(f"{module} is not installed: pip install 'seam-handoff[{extra}]'") from error
