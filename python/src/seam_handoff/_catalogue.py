"""The runtime's reason catalogue, reasons.json: the rule ids, one-line descriptions and message
templates the JavaScript runtime renders too (src/runtime/reasons.json is the one source; the
build copies it into this package). Messages are rendered here and nowhere else in Python."""

import json
import re
from importlib import resources
from typing import Any, Final

from ._records import Reason

_CATALOGUE: Final[dict[str, Any]] = json.loads(resources.files("seam_handoff").joinpath("reasons.json").read_text("utf-8"))
_PLACEHOLDER: Final = re.compile(r"\{([a-z]+)\}")

PER_RULE_LIMIT: Final[int] = _CATALOGUE["perRuleLimit"]
"""How many reasons of one rule a verdict lists; the rest are counted in one final reason."""

MAX_ENVELOPE_BYTES: Final[int] = _CATALOGUE["maxEnvelopeBytes"]
"""The default size limit of parse_envelope, in bytes of UTF-8 (1 MiB)."""

RUNTIME_RULES: Final[dict[str, str]] = {rule: entry["description"] for rule, entry in _CATALOGUE["rules"].items()}
"""Every runtime rule id with its one-line description."""


def _fill(template: str, params: dict[str, object]) -> str:
    def one(match: re.Match[str]) -> str:
        value = params[match.group(1)]
        return value if isinstance(value, str) else str(value)

    return _PLACEHOLDER.sub(one, template)


def render_message(rule: str, message: str, **params: object) -> str:
    """The message `message` of catalogue rule `rule`, filled with params (numbers, or text
    already quoted and bounded). Raises KeyError for an unknown rule, message or parameter."""
    return _fill(_CATALOGUE["rules"][rule]["messages"][message], params)


def rule_reason(path: str, rule: str, message: str, **params: object) -> Reason:
    """The Reason of catalogue rule `rule` with its message `message`, filled with params
    (numbers, or text already quoted and bounded). Raises KeyError for an unknown rule, message
    or parameter: a bug in Seam, not bad input."""
    return Reason(path, rule, _fill(_CATALOGUE["rules"][rule]["messages"][message], params))


def cap_reasons(reasons: list[Reason]) -> list[Reason]:
    """reasons with at most PER_RULE_LIMIT of each rule, in their order; past it, one final
    reason per rule at the first left-out reason's path says how many more there were."""
    if len(reasons) <= PER_RULE_LIMIT:
        return reasons
    counts: dict[str, int] = {}
    kept: list[Reason] = []
    over: dict[str, list[Any]] = {}
    for reason in reasons:
        seen = counts.get(reason.rule, 0) + 1
        counts[reason.rule] = seen
        if seen <= PER_RULE_LIMIT:
            kept.append(reason)
        elif reason.rule in over:
            over[reason.rule][1] += 1
        else:
            over[reason.rule] = [reason.path, 1]
    if not over:
        return reasons
    for rule, (path, count) in over.items():
        kept.append(Reason(path, rule, _fill(_CATALOGUE["more"], {"count": count, "rule": rule, "limit": PER_RULE_LIMIT})))
    return kept
