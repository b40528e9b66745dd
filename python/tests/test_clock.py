"""The clock's text: IsoClock keeps the last second's text, and writes every time as iso_time
(Date.prototype.toISOString) does, whatever the order of the calls."""

import pytest

from seam_handoff._clock import IsoClock, iso_time

TIMES = [
    1_764_410_400_000,  # 2025-11-29T10:00:00.000Z
    1_764_410_400_999,
    1_764_410_401_000,  # the next second
    1_764_410_400_001,  # back to the one before
    0,
    -1,  # 1969-12-31T23:59:59.999Z
    -1000,
    -1001,
    253_402_300_799_999,  # 9999-12-31T23:59:59.999Z
    253_402_300_800_000,  # +010000-01-01T00:00:00.000Z
    -62_167_219_200_001,  # -000001-12-31T23:59:59.999Z
    8_640_000_000_000_000,
    -8_640_000_000_000_000,
]


@pytest.mark.parametrize("ms", TIMES)
def test_each_time_is_written_as_iso_time_writes_it_twice_over(ms: int) -> None:
    clock = IsoClock()
    assert clock(ms) == iso_time(ms)
    assert clock(ms) == iso_time(ms)


def test_times_of_one_second_differ_only_in_their_milliseconds() -> None:
    clock = IsoClock()
    texts = [clock(1_764_410_400_000 + milli) for milli in range(0, 1000, 7)]
    assert texts == [iso_time(1_764_410_400_000 + milli) for milli in range(0, 1000, 7)]
    assert texts[0] == "2025-11-29T10:00:00.000Z" and texts[-1] == "2025-11-29T10:00:00.994Z"


def test_a_run_of_calls_in_any_order_agrees_with_iso_time() -> None:
    clock = IsoClock()
    for ms in TIMES + TIMES[::-1]:
        assert clock(ms) == iso_time(ms)
