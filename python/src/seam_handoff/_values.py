"""The JSON data model as ECMAScript sees it (what a JSON number is, the
order of an object's keys, the text of a number or a string), the schema error type, and the
string formats of the JavaScript runtime (`uuid` in the RFC 4122 string form; `date-time` and
`uri` as ajv-formats' "full" mode has them), so that generated validators answer exactly as
the JavaScript ones do.
"""

import math
import re
from collections.abc import Mapping
from typing import Any, Final, NamedTuple, TypeGuard, cast


class SchemaError(NamedTuple):
    """One JSON Schema error, shaped like an Ajv error object (https://ajv.js.org/api.html#error-objects).

    instance_path: JSON Pointer (RFC 6901) of the offending value, "" for the whole document.
    keyword: the failing keyword as Ajv names it ("type", "required", "additionalProperties"...).
    params: Ajv's params for that keyword ({"missingProperty": "hop"}, {"limit": 1}...).
    """

    instance_path: str
    keyword: str
    params: Mapping[str, Any]


# Integers at or beyond this magnitude round to an infinite double: ECMAScript's JSON.parse makes
# them Infinity, which is not a JSON Schema number under Ajv's strictNumbers.
INT_LIMIT: Final = 2**1024 - 2**970


def is_number(value: object) -> TypeGuard[float]:
    """Whether value is a JSON Schema number as Ajv sees it: finite, never a bool."""
    if type(value) is int:
        return -INT_LIMIT < value < INT_LIMIT
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool) and -INT_LIMIT < value < INT_LIMIT


def is_integer(value: object) -> TypeGuard[float]:
    """Whether value is a JSON Schema integer as Ajv sees it: a finite number with no fraction."""
    if type(value) is int:
        return -INT_LIMIT < value < INT_LIMIT
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool) and -INT_LIMIT < value < INT_LIMIT


def _is_array_index(key: object) -> bool:
    return (
        isinstance(key, str)
        and 0 < len(key) <= 10
        and key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) < 4294967295
    )


def js_key_order(keys: list[Any]) -> list[Any]:
    """Keys in ECMAScript's property order: array indices ascending first, then insertion order."""
    if len(keys) < 2 or not any(_is_array_index(key) for key in keys):
        return keys
    indices = sorted((key for key in keys if _is_array_index(key)), key=int)
    return indices + [key for key in keys if not _is_array_index(key)]


def es_number(value: float) -> str:
    """ECMAScript Number::toString(value) (ECMA-262, 6.1.6.1.20), which RFC 8785 uses for numbers.

    Python's repr gives the same shortest round-trip digits; only the layout differs
    (1e+21 vs 1e21, 1e-07 vs 1e-7, 100.0 vs 100). NaN and infinities as ECMAScript writes them.
    """
    if value != value:
        return "NaN"
    if value == 0:
        return "0"
    if value < 0:
        return "-" + es_number(-value)
    if value == math.inf:
        return "Infinity"
    mantissa, _, exponent = repr(value).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    stripped = digits.lstrip("0")
    n = len(whole) - (len(digits) - len(stripped)) + (int(exponent) if exponent else 0)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return digits + "e" + sign + str(abs(e))
    return digits[0] + "." + digits[1:] + "e" + sign + str(abs(e))


def js_double(value: int | float) -> float:
    """The double ECMAScript holds for a JSON number (ints round; too large ones are infinite)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def js_text(value: object) -> str:
    """ECMAScript String(value) for the JSON values reasons quote (numbers, strings, booleans, null)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int and -9007199254740992 < value < 9007199254740992:
        return str(value)
    if isinstance(value, (int, float)):
        return es_number(js_double(value))
    return (
        "[object Object]"
        if isinstance(value, dict)
        else ",".join(js_text(item) for item in cast("list[object]", value))
        if isinstance(value, list)
        else str(value)
    )


_JSON_ESCAPE: Final = re.compile(r'[\x00-\x1f"\\\ud800-\udfff]')
_JSON_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    return _JSON_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def json_string(text: str) -> str:
    """JSON.stringify(text): quotes, backslash and controls escaped, lone surrogates as \\uXXXX."""
    return '"' + _JSON_ESCAPE.sub(_json_escape, text) + '"'


# JSON Schema 2020-12 "uuid": the RFC 4122 string form, 8-4-4-4-12 hex digits in either case.
UUID: Final = re.compile(r"[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\Z", re.IGNORECASE | re.ASCII)
# ECMAScript's \s (WhiteSpace and LineTerminator), which ajv-formats splits date-times on.
_DATE_TIME_SEPARATOR: Final = re.compile(r"[tT\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
_DATE: Final = re.compile(r"([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])\Z")
_TIME: Final = re.compile(
    r"([0-9][0-9]):([0-9][0-9]):([0-9][0-9](?:\.[0-9]+)?)(z|([+-])([0-9][0-9])(?::?([0-9][0-9]))?)?\Z", re.IGNORECASE | re.ASCII
)
_DAYS_IN_MONTH: Final = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_URI: Final = re.compile(
    r"(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::[0-9]*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?\Z",
    re.IGNORECASE | re.ASCII,
)


# The common shape, every part in range (any day but February 29, seconds below 60 with at most
# 12 fraction digits): valid without further work. Anything else takes the full check below.
DATE_TIME_COMMON: Final = re.compile(
    r"[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    r"[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(?:\.[0-9]{1,12})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])\Z",
    re.ASCII,
)
# A subset of _URI's language (scheme://host:port/path with unreserved characters): valid at once.
URI_COMMON: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9._~-]*(?::[0-9]*)?(?:/[A-Za-z0-9._~!$&'()*+,;=:@-]*)*\Z", re.ASCII)


def format_date_time(text: str) -> bool:
    """RFC 3339 date-time with a required time zone, leap seconds at 23:59:60 UTC (ajv-formats "date-time")."""
    if DATE_TIME_COMMON.match(text) is not None:
        return True
    parts = _DATE_TIME_SEPARATOR.split(text)
    if len(parts) != 2:
        return False
    date = _DATE.match(parts[0])
    if date is None:
        return False
    year, month, day = int(date.group(1)), int(date.group(2)), int(date.group(3))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not (1 <= month <= 12 and 1 <= day <= (29 if month == 2 and leap else _DAYS_IN_MONTH[month])):
        return False
    time = _TIME.match(parts[1])
    if time is None:
        return False
    hour, minute, second = int(time.group(1)), int(time.group(2)), float(time.group(3))
    sign = -1 if time.group(5) == "-" else 1
    zone_hour, zone_minute = int(time.group(6) or 0), int(time.group(7) or 0)
    if zone_hour > 23 or zone_minute > 59 or not time.group(4):
        return False
    if hour <= 23 and minute <= 59 and second < 60:
        return True
    utc_minute = minute - zone_minute * sign
    utc_hour = hour - zone_hour * sign - (1 if utc_minute < 0 else 0)
    return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61


def format_uri(text: str) -> bool:
    """RFC 3986 absolute URI (ajv-formats "uri": a scheme, and a "/" or ":" somewhere)."""
    return URI_COMMON.match(text) is not None or (("/" in text or ":" in text) and _URI.match(text) is not None)
