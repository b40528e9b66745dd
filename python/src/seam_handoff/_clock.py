"""The clock of accept() and finish(): now() in seconds since the Unix epoch, read as whole
milliseconds, and times written as Date.prototype.toISOString writes them (UTC), so both runtimes
record the same text for the same instant."""

import math
import time
from collections.abc import Callable
from typing import Final

_MAX_TIME_SECONDS: Final = 8.64e12
# Times from 10**11 s (year 5138) on are today's in milliseconds: a clock in ms is a misuse.
_MILLISECONDS_FROM: Final = 1e11


def read_clock(call: str, now: Callable[[], object] | None) -> int:
    """now() (default time.time) in whole milliseconds since the Unix epoch. Raises TypeError
    ("<call>(): ...") when it returns no number or milliseconds, ValueError when the time is
    outside what an ISO 8601 record holds (±8.64e12 s, ECMAScript's time range)."""
    # Checked as any value: callers need not be type-checked (and a compiled build would check a
    # float-typed answer in its own words).
    seconds: object = time.time() if now is None else now()
    if type(seconds) is float and 0.0 <= seconds < _MILLISECONDS_FROM:
        # The 1 microsecond nudge undoes float error in seconds * 1000 for times given to the millisecond.
        return int(seconds * 1000 + 0.001)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{call}(): now() must return seconds since the Unix epoch as a number, not {type(seconds).__name__}")
    if _MILLISECONDS_FROM <= seconds <= _MAX_TIME_SECONDS:
        raise TypeError(
            f"{call}(): now() returned {seconds!r}, which is milliseconds since the Unix epoch: it must return seconds (time.time())"
        )
    if not abs(seconds) <= _MAX_TIME_SECONDS:
        raise ValueError(f"{call}(): now() returned {seconds!r}, outside the times an ISO 8601 record can hold")
    ms = seconds * 1000
    # Truncated toward zero, as ECMAScript's TimeClip does.
    return math.floor(ms + 0.001) if ms >= 0 else -math.floor(0.001 - ms)


def _civil_from_days(days: int) -> tuple[int, int, int]:
    # Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def iso_time(ms: int) -> str:
    """Date.prototype.toISOString of a time in milliseconds since the Unix epoch (UTC)."""
    days, rest = divmod(ms, 86400000)
    year, month, day = _civil_from_days(days)
    hour, rest = divmod(rest, 3600000)
    minute, rest = divmod(rest, 60000)
    second, milli = divmod(rest, 1000)
    year_text = f"{year:04d}" if 0 <= year <= 9999 else ("+" if year > 0 else "-") + f"{abs(year):06d}"
    return f"{year_text}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"


# The tail of a time's ISO 8601 text after its second: ".000Z" to ".999Z".
_MILLIS: Final = tuple(f".{milli:03d}Z" for milli in range(1000))


class IsoClock:
    """iso_time with the last second's text kept: formatting costs more than the rest of an
    accept(), and at high rates many calls fall in the same second, which then differ only in
    their milliseconds."""

    def __init__(self) -> None:
        # One tuple, replaced whole, so threads never see half of it: the second (ms // 1000)
        # and its text up to the seconds' digits.
        self._last: tuple[int, str] = (-(2**63), "")

    def __call__(self, ms: int) -> str:
        """iso_time(ms)."""
        second, milli = divmod(ms, 1000)
        last = self._last
        if last[0] == second:
            return last[1] + _MILLIS[milli]
        head = iso_time(second * 1000)[:-5]
        self._last = (second, head)
        return head + _MILLIS[milli]
