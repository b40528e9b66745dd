"""from_agent.role and to_agent.role are the roles the graph gives the agents."""

from typing import Final

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("role-mismatch", "graph", "/<side>/role")

_ROLES: Final = frozenset(("supervisor", "worker", "peer"))


def check_role(side: str, agent_id: str, role: str, claimed: object, graph_name: str, reasons: list[Reason]) -> None:
    """side: "from_agent" or "to_agent"; claimed: the envelope's role for the agent (not a role at all: the schema says so)."""
    if isinstance(claimed, str) and claimed in _ROLES and claimed != role:
        reasons.append(rule_reason(f"/{side}/role", RULE.id, "role", agent=agent_id, role=role, graph=graph_name, claimed=claimed))
