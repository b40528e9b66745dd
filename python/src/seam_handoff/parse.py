"""parse_envelope(text): the strict reading of an envelope off the wire, before accept().

json.loads (like JavaScript's JSON.parse) keeps the last of two equal keys silently, so an envelope
with "to_agent" twice reads one way to a reviewer or gateway and another to the agent behind it;
and it parses whatever size it is given. parse_envelope refuses both: a key given twice in one
object (rule duplicate-key, at the repeated member's JSON Pointer, in text order) and a text past
a size limit (envelope-too-large, checked before parsing), with the rule ids and messages of the
JavaScript runtime's parseEnvelope (both render reasons.json). It never raises on bad input.
"""

import builtins
import json
from typing import Any, Final, NamedTuple, cast

from ._catalogue import MAX_ENVELOPE_BYTES, cap_reasons, rule_reason
from ._records import Reason
from ._untrusted import quote_untrusted


class ParsedEnvelope(NamedTuple):
    """What parse_envelope gives. ok True: envelope is the value for accept() and reasons is
    empty; ok False: envelope is None and reasons say why (invalid-json or envelope-too-large at
    "", or duplicate-key at each repeated member; at most 20 per rule, then one counting the rest)."""

    ok: bool
    envelope: builtins.object  # mypyc looks a NamedTuple field's type up in the module's globals
    reasons: list[Reason]

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data: {"ok": True, "envelope": ...} or {"ok": False, "reasons": [...]}."""
        if self.ok:
            return {"ok": True, "envelope": self.envelope}
        return {"ok": False, "reasons": [r.to_dict() for r in self.reasons]}


class _Repeated(Exception):
    """Raised out of json.loads at the first repeated key: the text scan then names every one."""


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Repeated
    return value


def _not_a_json_constant(name: str) -> object:
    # json.loads reads NaN, Infinity and -Infinity, which RFC 8259 section 6 leaves out.
    raise ValueError(f"{name} is not a JSON value")


def _long_integer_as_javascript_reads_it(digits: str) -> int | float:
    """An integer literal past Python's int-conversion limit (sys.get_int_max_str_digits(),
    4300 digits by default), which json.loads refuses: read as a float, as JSON.parse reads
    every number (RFC 8259 section 6 leaves the range to implementations), so it becomes
    infinity and accept() names it (not-json-data), as the JavaScript runtime does."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def _append_pointer(pointer: str, token: str | int) -> str:
    """pointer with one more reference token (RFC 6901: "~" as "~0", "/" as "~1")."""
    if isinstance(token, int):
        return f"{pointer}/{token}"
    return pointer + "/" + token.replace("~", "~0").replace("/", "~1")


def _string_end(text: str, start: int) -> int:
    """The index of the quote that closes the JSON string opening at start."""
    i = start + 1
    while True:
        i = text.index('"', i)
        backslashes = 0
        while text[i - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return i
        i += 1


def duplicate_keys(text: str) -> list[tuple[str, str]]:
    """Every repeated key of JSON text that json.loads accepted, as (JSON Pointer of the member,
    decoded key), in text order, each repeat once per extra occurrence. One pass and an explicit
    stack, so deep nesting cannot exhaust Python's recursion limit; the same scan, in the same
    order, as the JavaScript runtime's findDuplicateKeys."""
    found: list[tuple[str, str]] = []
    # A frame: [kind, pointer, keys seen (objects) or None, current key or array index].
    stack: list[list[Any]] = []
    expect_key = False

    def child_pointer() -> str:
        if not stack:
            return ""
        top = stack[-1]
        return _append_pointer(top[1], top[3])

    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            if expect_key and stack and stack[-1][0] == "object":
                top = stack[-1]
                raw = text[i + 1 : end]
                key: str = json.loads(text[i : end + 1]) if "\\" in raw else raw
                if key in top[2]:
                    found.append((_append_pointer(top[1], key), key))
                else:
                    top[2].add(key)
                top[3] = key
                expect_key = False
            i = end
        elif char == "{":
            stack.append(["object", child_pointer(), set(), ""])
            expect_key = True
        elif char == "[":
            stack.append(["array", child_pointer(), None, 0])
            expect_key = False
        elif char in "}]":
            stack.pop()
            expect_key = False
        elif char == "," and stack:
            top = stack[-1]
            if top[0] == "object":
                expect_key = True
            else:
                top[3] += 1
        i += 1
    return found


def parse_envelope(text: str | bytes | bytearray | memoryview, *, max_bytes: int = MAX_ENVELOPE_BYTES) -> ParsedEnvelope:
    """Parses one envelope strictly: UTF-8 (for bytes; a leading byte order mark is dropped), at
    most max_bytes bytes of UTF-8, JSON (RFC 8259: no NaN or Infinity) with no key twice in one
    object.

    text: the envelope as received, a str or its bytes. max_bytes: the size limit in bytes of
    UTF-8 (default 1 MiB), a positive int. Raises TypeError for a text that is neither str nor
    bytes, or a max_bytes that is not a positive int (a misuse, not bad input).
    """
    limit = cast(object, max_bytes)  # checked as any value: callers need not be type-checked
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise TypeError("parse_envelope(text, max_bytes=...): max_bytes must be a positive whole number of bytes")
    received = cast(object, text)
    if isinstance(received, str):
        # A code point is at least one byte of UTF-8: only a short text needs encoding to count.
        if len(received) > max_bytes:
            return _refused(rule_reason("", "envelope-too-large", "large", size=f"more than {max_bytes}", limit=max_bytes))
        size = len(received.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            return _refused(rule_reason("", "envelope-too-large", "large", size=size, limit=max_bytes))
        json_text = received
    elif isinstance(received, (bytes, bytearray, memoryview)):
        data = bytes(cast("bytes | bytearray | memoryview[int]", received))
        if len(data) > max_bytes:
            return _refused(rule_reason("", "envelope-too-large", "large", size=len(data), limit=max_bytes))
        try:
            json_text = data.decode("utf-8")
        except UnicodeDecodeError:
            return _refused(rule_reason("", "invalid-json", "utf8"))
    else:
        raise TypeError("parse_envelope(text): text must be a str or the bytes received")
    json_text = json_text.removeprefix("\ufeff")
    try:
        try:
            envelope = json.loads(json_text, object_pairs_hook=_refuse_repeats, parse_constant=_not_a_json_constant)
        except ValueError:
            # Only a text that is not JSON, or holds an integer too long for int(), gets here;
            # read again, integers through int() or float(): a text that is not JSON fails
            # the same way, and the accepted path is never read twice.
            envelope = json.loads(
                json_text,
                object_pairs_hook=_refuse_repeats,
                parse_constant=_not_a_json_constant,
                parse_int=_long_integer_as_javascript_reads_it,
            )
    except _Repeated:
        reasons = [rule_reason(pointer, "duplicate-key", "twice", key=quote_untrusted(key)) for pointer, key in duplicate_keys(json_text)]
        return ParsedEnvelope(False, None, cap_reasons(reasons))
    except RecursionError:
        return _refused(rule_reason("", "invalid-json", "syntax", why=quote_untrusted("nested deeper than the parser reads")))
    except ValueError as error:
        return _refused(rule_reason("", "invalid-json", "syntax", why=quote_untrusted(str(error))))
    return ParsedEnvelope(True, envelope, [])


def _refused(reason: Reason) -> ParsedEnvelope:
    return ParsedEnvelope(False, None, [reason])


__all__: Final = ["MAX_ENVELOPE_BYTES", "ParsedEnvelope", "duplicate_keys", "parse_envelope"]
