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

_SEGMENT: Final = re.compile(r"\[\]|[A-Za-z_][A-Za-z0-9_-]*")
_EACH_ITEM: Final = "[]"


class _Node:
    """A place of RestatedLocations' tree: the named fields below it."""

    __slots__ = ("fields",)

    def __init__(self) -> None:
        self.fields: dict[str, _Node] = {}


class RestatedLocations:
    """The places where a contract's validator can report a fault that its envelope's $ref reports
    too. A contract's schema (contractOverlaySchema in src/emit/edge-schemas.ts) states only what
    the envelope's does not, at the root, at hop and along its required paths; but one value has a
    cap in both (hop.limit), and the places outside arrays are few, so all of them are kept, as a
    guard. Inside an array's items the contract states nothing the envelope does, and the
    envelope's schemas have no combinator (anyOf, allOf...), so a fault there comes once and is not
    remembered: a set of every fault of an envelope with 10^6 of them cost more than the
    validator's whole pass.

    require: the contract's required field paths ("decisions[].rationale"); None for a validator
    that restates nothing (the envelope's own)."""

    __slots__ = ("_root",)

    def __init__(self, require: Sequence[str] | None) -> None:
        self._root: _Node | None = None
        if require is None:
            return
        root = _Node()
        hop = _Node()
        root.fields["hop"] = hop
        hop.fields["path"] = _Node()
        hop.fields["limit"] = _Node()
        for path in require:
            node = root
            for segment in _SEGMENT.findall(path):
                if segment == _EACH_ITEM:
                    break
                child = node.fields.get(segment)
                if child is None:
                    child = node.fields[segment] = _Node()
                node = child
        self._root = root

    def node_at(self, instance_path: str) -> "_Node | None":
        """The place of the value at instance_path (a JSON Pointer), or None where nothing is restated."""
        node = self._root
        if node is None or instance_path == "":
            return node
        # Field names are plain (no "~", no "/"): the pointer's segments compare as written.
        for segment in instance_path[1:].split("/"):
            child = node.fields.get(segment)
            if child is None:
                return None
            node = child
        return node


_HEADER: Final = re.compile(r"/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:/|\Z)")


def is_header_path(path: str) -> bool:
    """Whether a JSON Pointer lies in the envelope's header (/hop/index, /to_agent...): no observe edge warns there."""
    return _HEADER.match(path) is not None


_ARTEFACT: Final = re.compile(r"/artefacts/(\d+)(?:/ref)?\Z", re.ASCII)


def _artefact_of(instance_path: str) -> int:
    """The index i of a pointer /artefacts/i or /artefacts/i/ref, else -1."""
    if not instance_path.startswith("/artefacts/"):
        return -1
    match = _ARTEFACT.match(instance_path)
    return -1 if match is None else int(match.group(1))


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


def schema_reasons(errors: Sequence[SchemaError], restated: RestatedLocations) -> SchemaReasons:
    """Turns a validator's errors into reasons. A contract restates the types it needs beside the
    envelope's $ref, so one fault can come twice: it is reported once, where it first comes."""
    reasons: list[Reason] = []
    rules: dict[str, str] = {}
    # Only a fault where the contract restates the envelope can come twice: only those are remembered.
    reported: set[tuple[str, str, str | None]] = set()
    listed: dict[str, int] = {}
    counted: dict[str, int] = {}
    header_fault_counted = False
    faulty_refs: set[int] = set()
    # The errors of one value come together: its place is found once, not once per error.
    last_path: str | None = None
    node: _Node | None = None
    artefact = -1
    in_header = False
    for error in errors:
        instance_path, keyword, params = error
        if instance_path != last_path:
            last_path = instance_path
            node = restated.node_at(instance_path)
            artefact = _artefact_of(instance_path)
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
        if node is not None and (name is None or name in node.fields):
            key = (rule, instance_path, name)
            if key in reported:
                continue
            reported.add(key)
        # A fault at /artefacts/i/ref, or ref missing from /artefacts/i.
        if artefact >= 0 and (instance_path.endswith("/ref") if name is None else name == "ref" and not instance_path.endswith("/ref")):
            faulty_refs.add(artefact)
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
