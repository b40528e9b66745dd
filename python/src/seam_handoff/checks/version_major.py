"""`envelope_version` is MAJOR.MINOR.PATCH in the one version grammar (no leading zeros: the agent
versions' and seam check's), and its major is the graph's."""

import re
from typing import Final

from .._catalogue import rule_reason
from .._records import GraphInfo, Reason
from .._untrusted import quote_untrusted
from .._values import js_text
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("version-major", "envelope", "/envelope_version")

# At most 16 digits a part, as the agent versions' grammar has it.
_ENVELOPE_VERSION: Final = re.compile(r"(0|[1-9][0-9]{0,15})\.(?:0|[1-9][0-9]{0,15})\.(?:0|[1-9][0-9]{0,15})\Z", re.ASCII)
# The shape the schema's own pattern names; the grammar above is its stricter part.
_SCHEMA_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\Z", re.ASCII)


# Producers repeat one version: the last well-formed one and its major are kept (one tuple,
# replaced whole, so threads never see half of it).
_last_well_formed: tuple[str, float] | None = None


def check_version(graph: GraphInfo, version: object, reasons: list[Reason]) -> None:
    """Checks one envelope_version (not a str: the schema says so)."""
    global _last_well_formed
    if not isinstance(version, str):
        return
    last = _last_well_formed
    if last is not None and last[0] == version:
        major = last[1]
    else:
        matched = _ENVELOPE_VERSION.match(version)
        if matched is None:
            if _SCHEMA_VERSION.match(version):
                reasons.append(rule_reason(RULE.pointer, RULE.id, "malformed", version=quote_untrusted(version)))
            return
        major = float(matched.group(1))
        _last_well_formed = (version, major)
    if major != graph.envelope[0]:
        reasons.append(rule_reason(RULE.pointer, RULE.id, "unsupported", major=js_text(major), graph=graph.name, speaks=graph.envelope[0]))
