"""from_agent.version and to_agent.version fit the agents' declared versions (the caret rule of
`_untrusted.version_mismatch`)."""

from typing import Any

from .._catalogue import rule_reason
from .._fields import ABSENT
from .._records import Reason
from .._untrusted import quote_untrusted, version_mismatch
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("agent-version", "graph", "/<side>/version")

_MEMO_LIMIT = 1024


def check_agent_version(
    side: str,
    agent_id: str,
    declared: tuple[int, int, int, str] | None,
    claimed: object,
    memo: dict[tuple[str, str], str | None],
    reasons: list[Reason],
) -> None:
    """side: "from_agent" or "to_agent"; declared: the agent's parsed version (None: any);
    claimed: the envelope's version for it; memo: answers kept per (agent, claimed version), since
    producers repeat the same few versions (cleared past 1,024 entries)."""
    if declared is None or not isinstance(claimed, str):
        return
    key = (agent_id, claimed)
    mismatch: Any = memo.get(key, ABSENT)
    if mismatch is ABSENT:
        mismatch = version_mismatch(declared, claimed)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[key] = mismatch
    if mismatch is not None:
        reasons.append(rule_reason(f"/{side}/version", RULE.id, "version", agent=agent_id, claimed=quote_untrusted(claimed), why=mismatch))
