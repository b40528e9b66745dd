"""The reasons of a validator's JSON Schema errors (stage 1 of accept): each (rule, path) once, the
first PER_RULE_LIMIT of a rule with their messages, the rest only counted (the port of
src/runtime/schema-reasons.ts).

An envelope within the 1 MiB limit can make a validator report 1.7 * 10^6 errors (a decisions
array of empty objects, five missing fields each); a reason and a message for each cost seconds
per envelope, more than the validator's own pass. So a rule past its limit gets one reason in the
list, at the place of its first left-out reason, standing for SchemaReasons.counted[rule] reasons,
which cap_reasons turns into the "and N more" reason the full list would give."""

import re
from collections.abc import Sequence
from typing import Final

from ._catalogue import PER_RULE_LIMIT
from ._records import Reason
from ._schema_reason import append_pointer, schema_error_to_reason, schema_rule_of
from ._values import SchemaError, js_text

STATED_TWICE: Final = "/hop/limit"
"""The one value a contract's validator and its envelope's $ref both state (type and cap), so the
one place a fault can come twice: a contract's schema states only what the envelope's does not
(contractOverlaySchema in src/emit/edge-schemas.ts), and the envelope's schemas have no
combinator (anyOf, allOf...), so each states a fault at most once. Remembering every fault of an
envelope with 10^6 of them, to report each once, cost more than the validator's pass."""

_ARTEFACT: Final = re.compile(r"/artefacts/(\d+)(/ref)?\Z", re.ASCII)


_HEADER: Final = re.compile(r"/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:/|\Z)")


def is_header_path(path: str) -> bool:
    """Whether a JSON Pointer lies in the envelope's header (/hop/index, /to_agent...): no observe edge warns there."""
    return _HEADER.match(path) is not None


class SchemaReasons:
    """What schema_reasons gives.

    reasons: in the validator's order, the first PER_RULE_LIMIT of each rule, then one reason (at
    the first left-out path, with an empty message) standing for counted[rule] left out.
    counted: rule -> how many reasons its entry past PER_RULE_LIMIT stands for (cap_reasons reads it).
    header_fault_counted: some reason left out lies in the header.
    faulty_refs: the indexes of the artefacts whose ref has a fault, listed or counted (the
    required artefacts to ask can_read about skip them)."""

    __slots__ = ("reasons", "counted", "header_fault_counted", "faulty_refs")

    def __init__(self, reasons: list[Reason], counted: dict[str, int], header_fault_counted: bool, faulty_refs: set[int]) -> None:
        self.reasons = reasons
        self.counted = counted
        self.header_fault_counted = header_fault_counted
        self.faulty_refs = faulty_refs


def schema_reasons(errors: Sequence[SchemaError]) -> SchemaReasons:
    """Turns a validator's errors (in its order) into reasons, each (rule, path) once: a contract's
    validator can report a fault at STATED_TWICE twice, and the first is kept."""
    reasons: list[Reason] = []
    rules: dict[str, str] = {}
    reported: set[tuple[str, str | None]] = set()
    listed: dict[str, int] = {}
    counted: dict[str, int] = {}
    header_fault_counted = False
    faulty_refs: set[int] = set()
    # The errors of one value come together: its pointer is read once, not once per error.
    last_path: str | None = None
    item_at = -1  # i for /artefacts/i
    ref_at = -1  # i for /artefacts/i/ref
    in_header = False
    for error in errors:
        instance_path, keyword, params = error
        if instance_path != last_path:
            last_path = instance_path
            artefact = _ARTEFACT.match(instance_path) if instance_path.startswith("/artefacts/") else None
            item_at = -1 if artefact is None or artefact.group(2) is not None else int(artefact.group(1))
            ref_at = -1 if artefact is None or artefact.group(2) is None else int(artefact.group(1))
            # Below the root a pointer lies where its value's does; at the root it names a field.
            in_header = instance_path != "" and is_header_path(instance_path)
        # Read inline, not through helpers: this loop may run 10^6 times for one envelope.
        rule = rules.get(keyword)
        if rule is None:
            rule = rules[keyword] = schema_rule_of(keyword)
        name: str | None = None
        if keyword == "required" or keyword == "additionalProperties":
            named = params.get("missingProperty" if keyword == "required" else "additionalProperty")
            name = named if isinstance(named, str) else js_text(named)
        if instance_path == STATED_TWICE:
            if (rule, name) in reported:
                continue
            reported.add((rule, name))
        # A fault at /artefacts/i/ref, or ref missing from /artefacts/i.
        ref = ref_at if name is None else item_at if name == "ref" else -1
        if ref >= 0:
            faulty_refs.add(ref)
        count = listed.get(rule, 0) + 1
        if count <= PER_RULE_LIMIT:
            listed[rule] = count
            reasons.append(schema_error_to_reason(error))
            continue
        # A counted fault's pointer is made only where it is needed: most are only counted.
        needs_path = rule not in counted or instance_path == ""
        path = (instance_path if name is None else append_pointer(instance_path, name)) if needs_path else ""
        if rule in counted:
            counted[rule] += 1
        else:
            counted[rule] = 1
            reasons.append(Reason(path, rule, ""))
        if not header_fault_counted and (is_header_path(path) if instance_path == "" else in_header):
            header_fault_counted = True
    return SchemaReasons(reasons, counted, header_fault_counted, faulty_refs)
