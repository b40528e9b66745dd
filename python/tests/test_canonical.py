"""RFC 8785 text, byte-identical to the JavaScript runtime's `canonicalize`."""

import math

import pytest

from seam_handoff import canonical_json


def test_keys_sort_by_utf16_code_units_and_numbers_print_as_ecmascript() -> None:
    # RFC 8785 section 3.2.3's ordering example, and numbers of its appendix B.
    assert (
        canonical_json({"\u20ac": 1, "\r": 2, "\U0001f600": 3, "1": 4, "\u00f6": 5})
        == '{"\\r":2,"1":4,"\u00f6":5,"\u20ac":1,"\U0001f600":3}'
    )
    assert canonical_json([1e21, 1e-7, 333333333.33333329, -0.0, 4.5]) == "[1e+21,1e-7,333333333.3333333,0,4.5]"


@pytest.mark.parametrize("value", [math.nan, math.inf, {"a": math.nan}])
def test_numbers_json_cannot_write_are_refused(value: object) -> None:
    with pytest.raises(ValueError, match="NaN and infinities have no RFC 8785 form"):
        canonical_json(value)
