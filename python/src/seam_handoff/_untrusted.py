"""Text from an envelope made safe for a log line (a port of
`src/core/untrusted-text.ts`), what counts as JSON data (of `src/runtime/json-data.ts`), and
agent versions with their caret rule (of `src/core/agent-version.ts`), character for character,
so both runtimes write the same messages.
"""

import math
import re
from typing import Any, Final, cast

from ._catalogue import MAX_DEPTH
from ._records import Reason
from ._values import INT_LIMIT, js_text

_QUOTE_LIMIT: Final = 120
LONE_SURROGATE: Final = re.compile(r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
_UNSAFE: Final = re.compile(
    r"[\x00-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
    r"|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
_UNSAFE_OR_QUOTE: Final = re.compile(_UNSAFE.pattern + r'|["\\]')
_SHORT_ESCAPES: Final = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    return _SHORT_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _cut(text: str, limit: float) -> tuple[str, int]:
    if len(text) <= limit:
        return text, 0
    end = int(limit)
    return text[:end], len(text) - end


def escape_untrusted(text: str, limit: float = math.inf) -> str:
    """text with controls, bidirectional and invisible format characters and unpaired surrogates
    written as JSON escapes; cut after limit code points with the number left out."""
    shown, left = _cut(text, limit)
    body = _UNSAFE.sub(_escape_char, shown) if not shown.isascii() or _UNSAFE.search(shown) else shown
    return f"{body}\u2026 ({left} more characters)" if left > 0 else body


def quote_untrusted(value: object, limit: float = _QUOTE_LIMIT) -> str:
    """value as a double-quoted string safe to print (at most limit code points); a number,
    boolean or null as JSON shows it; an object or array named, not shown."""
    if not isinstance(value, str):
        if isinstance(value, dict):
            return "an object"
        if isinstance(value, list):
            return "an array"
        return escape_untrusted(js_text(value), limit)
    shown, left = _cut(value, limit)
    body = _UNSAFE_OR_QUOTE.sub(_escape_char, shown)
    return f'"{body}\u2026" ({left} more characters)' if left > 0 else f'"{body}"'


# The deepest nesting accepted, the limit parse_envelope applies to text too (reasons.json).
_MAX_DEPTH: Final = MAX_DEPTH
_MAX_PROBLEMS: Final = 20
# Why a number read from JSON text can be infinite: RFC 8259 section 6 leaves the range to IEEE 754 doubles.
_BEYOND_DOUBLE: Final = " (a number written past \u00b11.7976931348623157e308, the largest IEEE 754 double, reads as \u00b1Infinity)"


_MAX_VALUES: Final = 5_000_000


def _pointer(tokens: list[Any]) -> str:
    return "".join("/" + (str(token) if isinstance(token, int) else token.replace("~", "~0").replace("/", "~1")) for token in tokens)


class NotJsonDataError(TypeError):
    """The caller passed a value json.loads never returns (a tuple, a Decimal, a pydantic model, a
    key that is not a str, a dict that contains itself): a bug of the caller, not of the producer
    whose JSON text it claims to be."""


def _not_json(tokens: list[Any], what: str) -> NotJsonDataError:
    where = "the envelope" if not tokens else f"the envelope's {quote_untrusted(_pointer(tokens))}"
    return NotJsonDataError(
        f"{where} {what}, which json.loads never returns: pass the parsed JSON text "
        '(json.loads(text); for a pydantic model, model.model_dump(mode="json"))'
    )


def json_data_problems(value: object) -> list[Reason]:
    """The ways value, parsed JSON text, is not I-JSON (RFC 7493), at most 20, each at the JSON
    Pointer of the offending value or key: rule unpaired-surrogate for a string or key with an
    unpaired surrogate; rule not-json-data for NaN or an infinity (or an int too large for a
    double, which ECMAScript reads as one), nesting past 64 levels, more than 5,000,000 values
    (shared parts counted each time). Subclasses of dict and list are read as what they are.

    Raises NotJsonDataError (a TypeError) at the first value no JSON text can give: a type other
    than dict, list, str, int, float, bool and None, a key that is not a str, a cycle.
    """
    problems: list[Reason] = []
    ancestors: list[int] = []
    tokens: list[Any] = []
    budget = [_MAX_VALUES]

    def report(rule: str, message: str, last: object = None) -> None:
        if len(problems) < _MAX_PROBLEMS:
            problems.append(Reason(_pointer(tokens if last is None else [*tokens, last]), rule, message))

    def walk(item: object) -> None:
        if len(problems) >= _MAX_PROBLEMS:
            return
        budget[0] -= 1
        if budget[0] < 0:
            if budget[0] == -1:
                report("not-json-data", f"is past the {_MAX_VALUES} values an envelope may hold (shared parts are counted each time)")
            return
        if isinstance(item, str):
            if not item.isascii() and LONE_SURROGATE.search(item):
                report("unpaired-surrogate", f"holds an unpaired UTF-16 surrogate: {quote_untrusted(item)} is not Unicode text")
            return
        if item is None or isinstance(item, bool):
            return
        if isinstance(item, int):
            if not -INT_LIMIT < item < INT_LIMIT:
                report("not-json-data", f"is {'Infinity' if item > 0 else '-Infinity'}, which JSON cannot write{_BEYOND_DOUBLE}")
            return
        if isinstance(item, float):
            if item - item != 0.0:
                report("not-json-data", f"is {js_text(item)}, which JSON cannot write{'' if item != item else _BEYOND_DOUBLE}")
            return
        if not isinstance(item, (dict, list)):
            raise _not_json(tokens, f"is of type {escape_untrusted(type(item).__name__, _QUOTE_LIMIT)}")
        identity = id(cast(object, item))
        if identity in ancestors:
            raise _not_json(tokens, "is one of the objects that contain it (a cycle)")
        if len(ancestors) >= _MAX_DEPTH:
            report("not-json-data", f"is nested deeper than {_MAX_DEPTH} levels")
            return
        ancestors.append(identity)
        if isinstance(item, list):
            for i, child in enumerate(cast("list[object]", item)):
                tokens.append(i)
                walk(child)
                tokens.pop()
        else:
            for key, child in cast("dict[object, object]", item).items():
                if not isinstance(key, str):
                    raise _not_json(tokens, f"has a key of type {escape_untrusted(type(key).__name__, _QUOTE_LIMIT)}")
                if not key.isascii() and LONE_SURROGATE.search(key):
                    report("unpaired-surrogate", f"has a property name with an unpaired UTF-16 surrogate, {quote_untrusted(key)}", key)
                tokens.append(key)
                walk(child)
                tokens.pop()
        ancestors.pop()

    walk(value)
    return problems


_VERSION_PART: Final = "(0|[1-9][0-9]{0,15})"
# SemVer 2.0.0, items 9 and 10: an all-digit pre-release identifier has no leading zero; build
# identifiers may have them.
_PRERELEASE_IDENT: Final = "(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_PRERELEASE: Final = f"{_PRERELEASE_IDENT}(?:\\.{_PRERELEASE_IDENT})*"
_BUILD: Final = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*"
_AGENT_VERSION: Final = re.compile(
    f"{_VERSION_PART}(?:\\.{_VERSION_PART}(?:\\.{_VERSION_PART})?)?(?:-{_PRERELEASE})?(?:\\+{_BUILD})?\\Z", re.ASCII
)


def parse_agent_version(text: object) -> tuple[int, int, int, str] | None:
    """MAJOR[.MINOR[.PATCH]][-pre][+build] (https://semver.org) as (major, minor, patch, text)."""
    if not isinstance(text, str) or len(text) > 256:
        return None
    match = _AGENT_VERSION.match(text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0), text


def version_mismatch(declared: tuple[int, int, int, str], claimed: object) -> str | None:
    """Why a claimed version does not fit the declared one by the caret rule (same major, or for
    0.x the same minor; not newer within it), or None when it fits."""
    c = parse_agent_version(claimed)
    if c is None:
        return f"is not a version of the form MAJOR.MINOR.PATCH; the agent is declared at {declared[3]}"
    zero = declared[0] == 0
    if c[0] != declared[0] or (zero and c[1] != declared[1]):
        key = f"{declared[0]}.{declared[1]}" if zero else f"{declared[0]}"
        return f"names a version outside {key}.x; the agent is declared at {declared[3]} and does not accept another {'0.x minor' if zero else 'major'}"
    if (c[2] > declared[2]) if zero else (c[1] > declared[1]):
        return (
            f"asks for a newer {'patch' if zero else 'minor'} than the agent's declared {declared[3]}; deploy the agent's new version first"
        )
    return None
