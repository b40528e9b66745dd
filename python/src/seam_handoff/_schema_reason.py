"""A JSON Schema error as a Reason, with the JavaScript runtime's rule id and wording (the port of
schemaErrorToReason in src/runtime/reason.ts)."""

import re
from collections.abc import Sequence
from typing import cast

from ._records import Reason
from ._untrusted import quote_untrusted
from ._values import SchemaError, js_text


def append_pointer(pointer: str, token: str) -> str:
    """pointer with one more reference token, "~" escaped as "~0" and "/" as "~1" (RFC 6901 section 3)."""
    return pointer + "/" + token.replace("~", "~0").replace("/", "~1")


_RULES: dict[str, str] = {"additionalProperties": "additional-property"}


def schema_rule_of(keyword: str) -> str:
    """The rule id of a JSON Schema keyword: kebab-case, additional-property for additionalProperties."""
    rule = _RULES.get(keyword)
    if rule is None:
        rule = _RULES[keyword] = re.sub("[A-Z]", lambda match: "-" + match.group().lower(), keyword)
    return rule


def _counted(limit: object, noun: str) -> str:
    """1 item, 2 items: a schema limit with its noun in the number it takes (as the JavaScript runtime words it)."""
    return f"{js_text(limit)} {noun if limit == 1 and not isinstance(limit, bool) else noun + 's'}"


def schema_error_to_reason(error: SchemaError) -> Reason:
    """Turns a SchemaError into a Reason with the JavaScript runtime's rule id and wording."""
    keyword, params, path = error.keyword, error.params, error.instance_path
    if keyword == "required":
        name = js_text(params.get("missingProperty"))
        return Reason(append_pointer(path, name), "required", f"missing required field {quote_untrusted(name)}")
    if keyword == "additionalProperties":
        name = js_text(params.get("additionalProperty"))
        return Reason(
            append_pointer(path, name),
            "additional-property",
            f"unexpected field {quote_untrusted(name)}: the envelope is closed, add no fields of your own",
        )
    rule = schema_rule_of(keyword)
    if keyword == "type":
        return Reason(path, rule, f"must be of type {js_text(params.get('type'))} (values are never coerced)")
    if keyword == "enum":
        allowed = params.get("allowedValues")
        listed = (
            ", ".join(quote_untrusted(value) for value in cast("Sequence[object]", allowed)) if isinstance(allowed, (list, tuple)) else ""
        )
        return Reason(path, rule, f"must be one of {listed}")
    if keyword == "const":
        return Reason(path, rule, f"must be {quote_untrusted(params.get('allowedValue'))}")
    if keyword == "format":
        return Reason(path, rule, f"must be a valid {js_text(params.get('format'))}")
    if keyword == "pattern":
        return Reason(path, rule, f"must match the pattern {js_text(params.get('pattern'))}")
    if keyword in ("minimum", "maximum"):
        bound = "at least" if keyword == "minimum" else "at most"
        return Reason(path, rule, f"must be {bound} {js_text(params.get('limit'))}")
    if keyword in ("minLength", "maxLength"):
        bound = "at least" if keyword == "minLength" else "at most"
        return Reason(path, rule, f"must have {bound} {_counted(params.get('limit'), 'character')}")
    if keyword == "minItems":
        return Reason(path, rule, f"must have at least {_counted(params.get('limit'), 'item')}")
    return Reason(path, rule, f"fails the JSON Schema keyword {keyword}")
