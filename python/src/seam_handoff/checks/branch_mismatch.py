"""hop.branch names the branch of a fan-out the handoff travels in: over a fan_out edge it must be
that edge's branch (NAME/to), and wherever it is given it must be a branch of the graph (as
src/runtime/checks/branch-mismatch.ts)."""

from collections.abc import Collection

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("branch-mismatch", "graph", "/hop/branch")


def check_branch(
    graph: str,
    branches: Collection[str],
    sender: str,
    receiver: str,
    own: tuple[str, str] | None,
    claimed: str | None,
    reasons: list[Reason],
) -> bool:
    """Checks claimed (hop.branch, None when absent) for the edge sender -> receiver whose branch
    is own, (fan-out name, branch id) (None for an edge with no fan_out); branches: every branch
    id of the graph, in edge order. Returns whether claimed may be given to the ledger."""
    if own is not None:
        fan_out, branch = own
        if claimed == branch:
            return True
        if claimed is None:
            reasons.append(rule_reason(RULE.pointer, RULE.id, "missing", **{"from": sender}, to=receiver, branch=branch, fanout=fan_out))
        else:
            reasons.append(
                rule_reason(
                    RULE.pointer,
                    RULE.id,
                    "other",
                    **{"from": sender},
                    to=receiver,
                    branch=branch,
                    fanout=fan_out,
                    claimed=quote_untrusted(claimed),
                )
            )
        return False
    if claimed is None or claimed in branches:
        return True
    if not branches:
        reasons.append(rule_reason(RULE.pointer, RULE.id, "none", graph=graph))
    else:
        reasons.append(
            rule_reason(
                RULE.pointer, RULE.id, "unknown", claimed=quote_untrusted(claimed), graph=graph, branches=", ".join(list(branches)[:20])
            )
        )
    return False
