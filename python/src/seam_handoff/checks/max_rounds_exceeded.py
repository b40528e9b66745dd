"""hop.path takes each bounded edge at most max_rounds times (the walk is in `bad_hop_path`)."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("max-rounds-exceeded", "graph", "/hop/path/<i>")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def check_rounds(i: int, producer: str, receiver: str, taken: int, rounds: int, reasons: list[Reason]) -> None:
    """Reports step i (producer -> receiver), taken for the taken-th time, when that is one past rounds."""
    if taken == rounds + 1:
        reasons.append(
            rule_reason(f"/hop/path/{i}", RULE.id, "rounds", nth=ordinal(taken), rounds=rounds, **{"from": producer, "to": receiver})
        )
