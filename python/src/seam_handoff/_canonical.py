"""RFC 8785 (JSON Canonicalization Scheme) text, byte-identical to the
`canonicalize` package the JavaScript runtime uses, and the loop signature built on it.
"""

import hashlib
import math
from collections.abc import Callable
from typing import cast

from ._values import es_number, js_double, json_string


def _utf16_order(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _well_formed(text: str) -> str:
    """text with surrogate pairs joined; ValueError when a surrogate stands alone (RFC 8785, 3.2.2.2)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        try:
            return text.encode("utf-16-be", "surrogatepass").decode("utf-16-be")
        except UnicodeDecodeError:
            raise ValueError("loop signature: a lone surrogate has no RFC 8785 form") from None


def _canonical(value: object, out: list[str], active: set[int]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(json_string(_well_formed(value)))
    elif isinstance(value, (int, float)):
        number = js_double(value)
        if not math.isfinite(number):
            raise ValueError("loop signature: NaN and infinities have no RFC 8785 form")
        out.append(es_number(number))
    elif isinstance(value, (list, tuple, dict)):
        container = cast("list[object] | tuple[object, ...] | dict[object, object]", value)
        if id(container) in active:
            raise ValueError("loop signature: a value contains itself")
        active.add(id(container))
        if isinstance(container, dict):
            names: list[str] = []
            for key in container:
                if not isinstance(key, str):
                    raise TypeError(f"loop signature: the key {key!r} is not a string")
                names.append(key)
            out.append("{")
            for i, key in enumerate(sorted(names, key=_utf16_order)):
                if i:
                    out.append(",")
                _canonical(key, out, active)
                out.append(":")
                _canonical(container[key], out, active)
            out.append("}")
        else:
            out.append("[")
            for i, item in enumerate(container):
                if i:
                    out.append(",")
                _canonical(item, out, active)
            out.append("]")
        active.discard(id(container))
    else:
        raise TypeError(f"loop signature: a {type(value).__name__} has no JSON form")


def canonical_json(value: object) -> str:
    """RFC 8785 canonical JSON of a JSON value (https://www.rfc-editor.org/rfc/rfc8785).

    Keys sorted by UTF-16 code units, numbers as ECMAScript writes them, strings as
    JSON.stringify writes them: the same text as the JavaScript runtime for the same JSON.
    Raises ValueError for NaN, infinities, lone surrogates, cycles and nesting too deep to walk;
    TypeError for values with no JSON form (sets, bytes, non-string keys, other objects).
    """
    out: list[str] = []
    try:
        _canonical(value, out, set())
    except RecursionError:
        raise ValueError("loop signature: the value is nested too deeply") from None
    return "".join(out)


def _collect(value: object, segments: tuple[str, ...], at: int, out: list[object]) -> None:
    if at == len(segments):
        out.append(value)
        return
    segment = segments[at]
    if segment == "[]":
        if isinstance(value, list):
            for item in cast("list[object]", value):
                _collect(item, segments, at + 1, out)
    elif isinstance(value, dict) and segment in value:
        _collect(cast("dict[str, object]", value)[segment], segments, at + 1, out)


def create_loop_signature(paths: tuple[tuple[str, tuple[str, ...]], ...]) -> Callable[[object], str]:
    compiled = [(json_string(text), segments, "[]" in segments) for text, segments in sorted(set(paths))]

    def loop_signature(envelope: object) -> str:
        parts: list[str] = []
        for key, segments, is_set in compiled:
            found: list[object] = []
            _collect(envelope, segments, 0, found)
            if is_set:
                forms = sorted(set(canonical_json(item) for item in found), key=_utf16_order)
                parts.append(key + ":[" + ",".join(forms) + "]")
            elif found:
                parts.append(key + ":" + canonical_json(found[0]))
        text = "{" + ",".join(parts) + "}"
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    return loop_signature
