"""Where JSON text first stops being JSON this runtime reads, for the invalid-json reason of
parse_envelope: a port of src/core/json-fault.ts (the scan) and src/runtime/json-fault.ts (the
words), line for line, so both runtimes place every
fault alike and word it from reasons.json (json.loads and JSON.parse word their errors each its
own way). It runs only after json.loads has refused a text, or a text was found nested past
MAX_DEPTH: the grammar of RFC 8259 plus the nesting limit of its section 9. A differential test
(test/runtime/parse-envelope-differential.test.ts) holds the two ports equal.
"""

import re
from typing import Final, NamedTuple

from ._catalogue import MAX_DEPTH, rule_reason
from ._records import Reason


class JsonFault(NamedTuple):
    """The first fault of a JSON text: kind, the id of its invalid-json message in reasons.json;
    offset, a code point index (the end of the text for empty and truncated, the opening quote
    for unclosed)."""

    kind: str
    offset: int


# What may come next, as the grammar has it.
_VALUE: Final = 0
_FIRST_VALUE: Final = 1  # right after "[": a value or "]"
_KEY: Final = 2
_FIRST_KEY: Final = 3  # right after "{": a key or "}"
_COLON: Final = 4
_NEXT: Final = 5  # after a value inside an array or object: "," or its closer
_END: Final = 6  # after the top-level value: only whitespace

# The scan skips runs of characters with one C-speed match each, not one Python step per character.
_SPACE: Final = re.compile(r"[ \t\n\r]*")
_PLAIN: Final = re.compile(r'[^"\\\x00-\x1f]*')
_DIGITS: Final = re.compile(r"[0-9]*")
_HEX4: Final = re.compile(r"[0-9A-Fa-f]{4}")
_ESCAPES: Final = frozenset('"\\/bfnrt')


def _skip(run: re.Pattern[str], text: str, i: int) -> int:
    """The index after the run of characters that run (a pattern ending in "*") matches at i."""
    match = run.match(text, i)
    return i if match is None else match.end()


def find_json_fault(text: str, max_depth: int = MAX_DEPTH) -> JsonFault | None:
    """The first fault of text, or None when it is one JSON value (whitespace around it allowed)
    nested at most max_depth levels. One pass with an explicit stack, so no text can exhaust the
    recursion limit; it stops at the first fault. text: the JSON text, its byte order mark (if
    any) already removed."""
    closers: list[str] = []
    n = len(text)
    state = _VALUE
    i = 0
    while True:
        i = _skip(_SPACE, text, i)
        if i >= n:
            if state == _END:
                return None
            # _VALUE with nothing open is the state of the start only.
            return JsonFault("empty" if state == _VALUE and not closers else "truncated", n)
        char = text[i]
        if state == _END:
            return JsonFault("after", i)
        if state == _COLON:
            if char != ":":
                return JsonFault("colon", i)
            i += 1
            state = _VALUE
            continue
        if state == _NEXT:
            closer = closers[-1]
            if char == ",":
                i += 1
                state = _KEY if closer == "}" else _VALUE
            elif char == closer:
                i += 1
                closers.pop()
                state = _NEXT if closers else _END
            else:
                return JsonFault("object-next" if closer == "}" else "array-next", i)
            continue
        if state in (_FIRST_KEY, _KEY):
            if char == "}" and state == _FIRST_KEY:
                i += 1
                closers.pop()
                state = _NEXT if closers else _END
                continue
            if char != '"':
                return JsonFault("key", i)
            end = _string_end(text, i)
            if isinstance(end, JsonFault):
                return end
            i = end
            state = _COLON
            continue
        # _VALUE or _FIRST_VALUE.
        if char == "]" and state == _FIRST_VALUE:
            i += 1
            closers.pop()
            state = _NEXT if closers else _END
            continue
        if char in "{[":
            if len(closers) >= max_depth:
                return JsonFault("depth", i)
            closers.append("}" if char == "{" else "]")
            i += 1
            state = _FIRST_KEY if char == "{" else _FIRST_VALUE
            continue
        value_end: int | JsonFault
        if char == '"':
            value_end = _string_end(text, i)
        elif char == "-" or "0" <= char <= "9":
            value_end = _number_end(text, i)
        elif text.startswith("true", i) or text.startswith("null", i):
            value_end = i + 4
        elif text.startswith("false", i):
            value_end = i + 5
        else:
            return JsonFault("value", i)
        if isinstance(value_end, JsonFault):
            return value_end
        i = value_end
        state = _NEXT if closers else _END


def _string_end(text: str, start: int) -> int | JsonFault:
    """The index after the string whose opening quote is at start, or its fault."""
    n = len(text)
    i = start + 1
    while True:
        i = _skip(_PLAIN, text, i)
        if i >= n:
            break
        char = text[i]
        if char == '"':
            return i + 1
        if char != "\\":
            return JsonFault("control", i)
        if i + 1 >= n:
            break
        escaped = text[i + 1]
        if escaped == "u":
            # A text that ends inside the four digits is an unclosed string, as anywhere else in one.
            if i + 6 > n:
                break
            if _HEX4.match(text, i + 2) is None:
                return JsonFault("unicode", i)
            i += 6
        elif escaped in _ESCAPES:
            i += 2
        else:
            return JsonFault("escape", i)
    return JsonFault("unclosed", start)


def _is_digit(text: str, i: int) -> bool:
    return i < len(text) and "0" <= text[i] <= "9"


def _number_end(text: str, start: int) -> int | JsonFault:
    """The index after the number that starts at start (RFC 8259 section 6), or its fault."""
    i = start
    if text[i] == "-":
        i += 1
    if i < len(text) and text[i] == "0":
        i += 1
        if _is_digit(text, i):
            return JsonFault("leading-zero", start)
    elif _is_digit(text, i):
        i = _skip(_DIGITS, text, i)
    else:
        return JsonFault("digit", i)
    if i < len(text) and text[i] == ".":
        i += 1
        if not _is_digit(text, i):
            return JsonFault("digit", i)
        i = _skip(_DIGITS, text, i)
    if i < len(text) and text[i] in "eE":
        i += 1
        if i < len(text) and text[i] in "+-":
            i += 1
        if not _is_digit(text, i):
            return JsonFault("digit", i)
        i = _skip(_DIGITS, text, i)
    return i


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column of code point offset in text, both from 1: a line ends at a line feed,
    a column counts code points (as the JavaScript runtime counts them in UTF-16)."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def invalid_json_reason(text: str) -> Reason:
    """The invalid-json reason (at "") for text, which json.loads refused or was found nested past
    MAX_DEPTH: its first fault with its line and column, in the words of reasons.json; unread
    when the scan finds none (json.loads out of stack on a text within the limit, say)."""
    fault = find_json_fault(text)
    if fault is None:
        return rule_reason("", "invalid-json", "unread")
    if fault.kind == "empty":
        return rule_reason("", "invalid-json", "empty")
    line, column = line_and_column(text, fault.offset)
    if fault.kind == "depth":
        return rule_reason("", "invalid-json", "depth", limit=MAX_DEPTH, line=line, column=column)
    if fault.kind == "control":
        return rule_reason("", "invalid-json", "control", char=f"U+{ord(text[fault.offset]):04X}", line=line, column=column)
    return rule_reason("", "invalid-json", fault.kind, line=line, column=column)


__all__: Final = ["JsonFault", "find_json_fault", "invalid_json_reason", "line_and_column"]
