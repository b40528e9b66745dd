"""Reading the fields of a value that may be anything (the envelope is untrusted): what the checks
share. JSON null is None; an absent field is ABSENT, which no envelope value is."""

from typing import TYPE_CHECKING, Any, Final, TypeGuard, cast, overload

from ._values import INT_LIMIT

ABSENT: Final[Any] = object()
"""What field() returns for a field that is not there (or a value that is no dict)."""

MAX_SAFE_INTEGER: Final = 9007199254740991
"""2**53 - 1, the largest integer an IEEE 754 double holds exactly (JavaScript's Number.MAX_SAFE_INTEGER)."""

BUDGET_COUNTERS: Final[tuple[str, ...]] = ("tokens", "wall_clock_ms", "tool_calls", "retries", "cost_micros")
"""The budget counters of the envelope, in schema order."""


@overload
def add_counts(a: int, b: int) -> int: ...
@overload
def add_counts(a: float, b: float) -> float: ...
def add_counts(a: Any, b: Any) -> Any:
    """a + b for two budget counts (each at most 2**53 - 1, the largest integer the envelope schema
    allows), stopping at 2**53 - 1: JavaScript's sum is inexact beyond it and no envelope could
    report it, so a task whose branches' spend or limits add up past it holds that count, and has
    no spend left to report. Typed by its overloads: a float-typed body, compiled, would turn the
    stores' ints into floats."""
    return min(a + b, MAX_SAFE_INTEGER)


def field(value: object, key: str) -> Any:
    """value[key] for a dict that has key, else ABSENT."""
    if isinstance(value, dict):
        if TYPE_CHECKING:  # a cast, without its call at run time
            value = cast("dict[str, Any]", value)
        return value.get(key, ABSENT)
    return ABSENT


def as_object(value: object) -> dict[str, Any] | None:
    """value as a JSON object, or None when it is not a dict."""
    return cast("dict[str, Any]", value) if isinstance(value, dict) else None


def string_at(value: object, key: str) -> str | None:
    """value[key] when value is a dict and that is a str, else None."""
    found = field(value, key)
    return found if isinstance(found, str) else None


def whole_number(value: object) -> int | None:
    """A number that is a safe integer (at most 2**53 - 1) and not negative, as an int; else None."""
    if type(value) is int:
        return value if 0 <= value <= MAX_SAFE_INTEGER else None
    if isinstance(value, float) and value.is_integer() and 0 <= value <= MAX_SAFE_INTEGER:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SAFE_INTEGER:
        return int(value)
    return None


def non_negative_integer(value: object) -> int | float | None:
    """A whole number, 0 or more, of any size a double holds: an index past 2**53 is past every hop limit."""
    if type(value) is int:
        return value if 0 <= value < INT_LIMIT else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return value
    return None


def all_strings(value: object) -> TypeGuard[list[str]]:
    """Whether value is a list of str only (str.join checks the items in C, far faster than a Python loop)."""
    if not isinstance(value, list):
        return False
    try:
        if TYPE_CHECKING:
            value = cast("list[str]", value)
        "".join(value)
    except TypeError:
        return False
    return True
