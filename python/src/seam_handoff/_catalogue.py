"""The runtime's reason catalogue, reasons.json: the rule ids, one-line descriptions and message
templates the JavaScript runtime renders too (src/runtime/reasons.json is the one source; the
build copies it into this package). Messages are rendered here and nowhere else in Python."""

import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, Final

from ._records import Reason

_CATALOGUE: Final[dict[str, Any]] = json.loads(resources.files("seam_handoff").joinpath("reasons.json").read_text("utf-8"))
_PLACEHOLDER: Final = re.compile(r"\{([a-z]+)\}")

PER_RULE_LIMIT: Final[int] = _CATALOGUE["perRuleLimit"]
"""How many reasons of one rule a verdict lists; the rest are counted in one final reason."""

MAX_ENVELOPE_BYTES: Final[int] = _CATALOGUE["maxEnvelopeBytes"]
"""The default size limit of parse_envelope, in bytes of UTF-8 (1 MiB)."""

MAX_DEPTH: Final[int] = _CATALOGUE["maxDepth"]
"""The deepest nesting of arrays and objects either runtime takes: parse_envelope refuses a text
nested deeper (invalid-json; RFC 8259 section 9 lets a parser limit it) and accept() a value
(not-json-data). The JavaScript runtime reads the same number from reasons.json."""

LOOP_MAX_TASKS: Final[int] = _CATALOGUE["loopMaxTasks"]
"""How many tasks the loop detector remembers by default (the least recently observed go first)."""

LOOP_MAX_SIGNATURES_PER_TASK: Final[int] = _CATALOGUE["loopMaxSignaturesPerTask"]
"""How many loop signatures the loop detector keeps per task by default."""

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


def cap_reasons(reasons: list[Reason], counted: Mapping[str, int] | None = None) -> list[Reason]:
    """reasons with at most PER_RULE_LIMIT of each rule, in their order; past it, one final
    reason per rule at the first left-out reason's path says how many more there were. For a rule
    in counted, the reason after its first PER_RULE_LIMIT stands for counted[rule] left out (the
    schema stage counts its faults past the limit instead of listing them)."""
    if len(reasons) <= PER_RULE_LIMIT:
        return reasons
    counts: dict[str, int] = {}
    kept: list[Reason] = []
    over: dict[str, list[Any]] = {}
    for reason in reasons:
        rule = reason.rule
        seen = counts.get(rule, 0) + 1
        counts[rule] = seen
        if seen <= PER_RULE_LIMIT:
            kept.append(reason)
            continue
        weight = counted.get(rule, 1) if counted is not None and seen == PER_RULE_LIMIT + 1 else 1
        if rule in over:
            over[rule][1] += weight
        else:
            over[rule] = [reason.path, weight]
    if not over:
        return reasons
    for rule, (path, count) in over.items():
        kept.append(Reason(path, rule, _fill(_CATALOGUE["more"], {"count": count, "rule": rule, "limit": PER_RULE_LIMIT})))
    return kept
