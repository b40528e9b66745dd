"""parse_envelope(text): the strict reading of an envelope off the wire, before accept().

json.loads (like JavaScript's JSON.parse) keeps the last of two equal keys silently, so an envelope
with "to_agent" twice reads one way to a reviewer or gateway and another to the agent behind it;
and it parses whatever size it is given. parse_envelope refuses both: a key given twice in one
object (rule duplicate-key, at the repeated member's JSON Pointer, in text order) and a text past
a size limit (envelope-too-large, checked before parsing). Text that is not JSON, or nests arrays
and objects past MAX_DEPTH levels (RFC 8259 section 9 lets a parser limit it; accept() takes no
deeper value anyway), is invalid-json with one message per kind of fault and its line and column,
found by _json_fault's scan, not json.loads's own words. Rule ids and messages are those of the
JavaScript runtime's parseEnvelope (both render reasons.json). It never raises on bad input.
"""

import builtins
import json
import operator
import re
from itertools import accumulate, count
from typing import Any, Final, NamedTuple, cast

from ._catalogue import MAX_DEPTH, MAX_ENVELOPE_BYTES, cap_reasons, rule_reason
from ._json_fault import invalid_json_reason
from ._records import Reason
from ._untrusted import quote_untrusted


class ParsedEnvelope(NamedTuple):
    """What parse_envelope gives. ok True: envelope is the value for accept() and reasons is
    empty; ok False: envelope is None and reasons say why (one invalid-json, the first fault or
    nesting past MAX_DEPTH, or envelope-too-large, at ""; or duplicate-key at each repeated
    member, at most 20, then one counting the rest)."""

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


# A JSON string, which the depth measure drops: an unclosed one runs to the end of the text, so
# the pattern never backtracks nor restarts inside one (a text of escaped quotes is one match).
_STRING: Final = re.compile(r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*(?:"|\Z)')
# Every byte but the four brackets, which the measure deletes in the same C-speed translation
# that weighs each opening bracket 2 and each closing one 0.
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_WEIGHTS: Final = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_LEAF: Final = b"\x02\x00"


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in text, exact for JSON text; for text that is
    not JSON, at least the depth json.loads reaches before it stops. C-speed steps only (one
    regular expression over the strings, translations, itertools), no Python step per character:
    parse_envelope runs it on the texts with more opening brackets than MAX_DEPTH, before
    json.loads, which recurses once per level and would otherwise hit the recursion limit at a
    depth that hangs on the caller's own stack."""
    brackets = _STRING.sub("", text).encode("utf-8", "surrogatepass").translate(_BRACKET_WEIGHTS, _NOT_BRACKETS)
    # Dropping the innermost containers (an opening bracket right before a closing one) first
    # takes one level off every deepest path and leaves little to add up: a flood of 350,000
    # empty objects goes in one replace.
    inner = brackets.replace(_LEAF, b"")
    if len(inner) == len(brackets):
        return 0 if not brackets else _running_max(brackets)
    return 1 + _running_max(inner)


def _running_max(weights: bytes) -> int:
    """The highest nesting reached along brackets weighed 2 (opening) and 0 (closing): after k
    of them, twice the opened minus k."""
    return max(0, max(map(operator.sub, accumulate(weights), count(1)), default=0))


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
    """Parses one envelope strictly: UTF-8 (for bytes), at most max_bytes bytes of UTF-8, JSON
    (RFC 8259: no NaN or Infinity) nested at most MAX_DEPTH levels, with no key twice in one
    object. One leading byte order mark is dropped, from bytes or a str; a second is a fault of
    the text. The reasons, in this order: envelope-too-large; invalid-json for bytes that are not
    UTF-8; invalid-json at the first fault of the text in text order (a syntax error, or the
    bracket that nests past the limit), placed at a line and column (lines end at a line feed,
    columns count code points, from 1); then duplicate-key.

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
    # Counting brackets is C-speed and clears every envelope of at most MAX_DEPTH of them; only
    # the rest are measured, so that json.loads never meets a text deeper than the limit.
    if json_text.count("[") + json_text.count("{") > MAX_DEPTH and nesting_depth(json_text) > MAX_DEPTH:
        return _refused(invalid_json_reason(json_text))
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
        # The hook stopped json.loads at the first repeated key, maybe before a syntax error
        # further on, which JSON.parse meets first: the whole text is read once more, hook-less.
        if not _is_json(json_text):
            return _refused(invalid_json_reason(json_text))
        reasons = [rule_reason(pointer, "duplicate-key", "twice", key=quote_untrusted(key)) for pointer, key in duplicate_keys(json_text)]
        return ParsedEnvelope(False, None, cap_reasons(reasons))
    except (ValueError, RecursionError):
        # The cold path. RecursionError: a caller already near the recursion limit, on a text
        # within MAX_DEPTH (the scan then finds no fault: message unread).
        return _refused(invalid_json_reason(json_text))
    return ParsedEnvelope(True, envelope, [])


def _is_json(text: str) -> bool:
    """Whether json.loads reads text (nested at most MAX_DEPTH levels) as JSON, integers of any
    length and no NaN or Infinity included."""
    try:
        json.loads(text, parse_constant=_not_a_json_constant, parse_int=_long_integer_as_javascript_reads_it)
    except (ValueError, RecursionError):
        return False
    return True


def _refused(reason: Reason) -> ParsedEnvelope:
    return ParsedEnvelope(False, None, [reason])


__all__: Final = ["MAX_ENVELOPE_BYTES", "ParsedEnvelope", "duplicate_keys", "nesting_depth", "parse_envelope"]
