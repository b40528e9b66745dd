"""parse_envelope(): strict JSON off the wire, with the rule ids and messages of parseEnvelope."""

import json
import sys
import time
from typing import Any

import pytest
import refund_desk_validators as desk

from seam_handoff import MAX_ENVELOPE_BYTES, Rejected, parse_envelope
from seam_handoff._catalogue import MAX_DEPTH
from seam_handoff.parse import duplicate_keys, nesting_depth


def test_reads_an_envelope_and_drops_a_byte_order_mark() -> None:
    parsed = parse_envelope(b'\xef\xbb\xbf{"task_id": "t-1", "hop": {"index": 1}}')
    assert parsed.ok and parsed.reasons == []
    assert parsed.envelope == {"task_id": "t-1", "hop": {"index": 1}}
    assert parsed.to_dict() == {"ok": True, "envelope": {"task_id": "t-1", "hop": {"index": 1}}}


def test_refuses_a_key_given_twice_at_each_repeat_in_text_order() -> None:
    text = '{"to_agent": {"id": "a", "id": "b"}, "x": [{"k": 1, "k": 2}], "to_agent": 3}'
    parsed = parse_envelope(text)
    assert (parsed.ok, parsed.envelope) == (False, None)
    message = "the key {} is given twice in one object: parsers disagree on which value counts, so the envelope is refused"
    assert [(r.path, r.rule, r.message) for r in parsed.reasons] == [
        ("/to_agent/id", "duplicate-key", message.format('"id"')),
        ("/x/0/k", "duplicate-key", message.format('"k"')),
        ("/to_agent", "duplicate-key", message.format('"to_agent"')),
    ]


def test_keys_are_compared_decoded_and_pointers_escaped() -> None:
    assert duplicate_keys('{"a/b": 1, "a\\u002fb": 2, "s\\"q": [], "~": {"~": 0, "~": 1}}') == [("/a~1b", "a/b"), ("/~0/~0", "~")]


def test_caps_the_reasons_of_one_rule() -> None:
    text = "[" + ",".join('{"a": 1, "a": 2}' for _ in range(50)) + "]"
    reasons = parse_envelope(text).reasons
    assert len(reasons) == 21
    assert reasons[-1].path == "/20/a"
    assert reasons[-1].message == "and 30 more duplicate-key reasons, not listed (a verdict lists at most 20 per rule)"


def test_refuses_a_body_past_the_limit_before_parsing() -> None:
    assert MAX_ENVELOPE_BYTES == 1024 * 1024
    big = parse_envelope("x" * 11, max_bytes=10)
    assert [(r.path, r.rule, r.message) for r in big.reasons] == [
        ("", "envelope-too-large", "is more than 10 bytes of UTF-8, past the limit of 10: an envelope carries pointers, not payloads")
    ]
    wide = parse_envelope('"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"', max_bytes=10)
    assert wide.reasons[0].message.startswith("is 14 bytes of UTF-8, past the limit of 10")
    assert parse_envelope(b"[1]" * 4, max_bytes=10).reasons[0].message.startswith("is 12 bytes")
    assert parse_envelope('"\u00e9\u00e9\u00e9\u00e9"', max_bytes=10).ok


def test_refuses_text_that_is_not_json_or_not_utf8() -> None:
    bad = parse_envelope(b'{"a": "\xff"}')
    assert [(r.path, r.rule, r.message) for r in bad.reasons] == [("", "invalid-json", "is not UTF-8 text")]
    value = "is not JSON: a value (an object, array, string, number, true, false or null) should begin at line {}, column {}"
    for text, message in [
        ('{"a": NaN}', value.format(1, 7)),
        ('{\n "a": Infinity}', value.format(2, 7)),
        ("{", "is not JSON: the text ends at line 1, column 2, before the JSON value is complete"),
        ('{"a": 1} x', "is not JSON: text follows the JSON value at line 1, column 10"),
        ("", "is not JSON: the text is empty or only whitespace"),
        ("\ufeff\ufeff{}", value.format(1, 1)),
    ]:
        parsed = parse_envelope(text)
        assert [(r.path, r.rule, r.message) for r in parsed.reasons] == [("", "invalid-json", message)], text
    assert parse_envelope(b"\xef\xbb\xbf\xef\xbb\xbf{}").reasons == parse_envelope("\ufeff\ufeff{}").reasons


def _deep(depth: int) -> str:
    return '{"a":' + "[" * depth + "]" * depth + "}"


def test_refuses_nesting_past_max_depth_wherever_the_caller_stands() -> None:
    assert MAX_DEPTH == 64
    # The object is level 1: the 64th "[" is level 65, after the 5 characters of {"a":.
    past = (
        "",
        "invalid-json",
        "is nested deeper than 64 levels of arrays and objects at line 1, column 69: the parser reads no deeper (RFC 8259 section 9)",
    )
    assert parse_envelope(_deep(MAX_DEPTH - 1)).ok
    texts = [_deep(MAX_DEPTH), _deep(900), _deep(1000), _deep(1000)[:-1] + ',"a":1}', "[" * 100_000]
    expected = [[past]] * 4 + [
        [
            (
                "",
                "invalid-json",
                "is nested deeper than 64 levels of arrays and objects at line 1, column 65: the parser reads no deeper (RFC 8259 section 9)",
            )
        ]
    ]

    def verdicts() -> list[list[tuple[str, str, str]]]:
        return [[(r.path, r.rule, r.message) for r in parse_envelope(text).reasons] for text in texts]

    def nested(frames: int) -> list[list[tuple[str, str, str]]]:
        # json.loads recursed per level, so where it gave up hung on the caller's own stack.
        return verdicts() if frames == 0 else nested(frames - 1)

    assert verdicts() == expected
    assert nested(sys.getrecursionlimit() - 100) == expected


def test_the_depth_measure_skips_brackets_in_strings_and_is_linear() -> None:
    assert nesting_depth('["[[[[", {"a": "]]]\\\\"}, [[]]]') == 3
    assert nesting_depth("") == 0
    # A lone quote runs to the end of the text, so a text of escaped quotes is one match.
    started = time.perf_counter()
    assert nesting_depth('["' + '\\"' * 300_000) == 1
    assert time.perf_counter() - started < 1


def test_an_integer_past_ints_digit_limit_is_read_as_json_parse_reads_it(envelope: dict[str, Any]) -> None:
    # json.loads refuses an integer literal of more than 4,300 digits; JSON.parse reads it as
    # Infinity, which accept() then names: both runtimes give the same verdict.
    long = "9" * 5000
    parsed = parse_envelope('{"a": ' + long + ', "b": -' + long + ', "c": [1, 2]}')
    assert parsed.ok and parsed.reasons == []
    assert parsed.envelope == {"a": float("inf"), "b": float("-inf"), "c": [1, 2]}
    body = json.dumps(envelope).replace('"tokens": 1200', '"tokens": ' + long)
    read = parse_envelope(body)
    assert read.ok
    verdict = desk.accept(read.envelope, me="billing")
    assert isinstance(verdict, Rejected)
    assert [(r.path, r.rule) for r in verdict.rejection.reasons] == [
        ("/budget/consumed/tokens", "not-json-data"),
        ("/budget/consumed/tokens", "type"),
    ]
    # A text that is not JSON is still refused, at its first fault.
    broken = parse_envelope('{"a": ' + long + ",}")
    assert [(r.rule, r.message) for r in broken.reasons] == [
        ("invalid-json", "is not JSON: a key in double quotes should begin at line 1, column 5008")
    ]


def test_misuse_is_a_type_error() -> None:
    not_text: Any = 123
    for max_bytes in (0, True, 1.5):
        with pytest.raises(TypeError):
            parse_envelope("{}", max_bytes=max_bytes)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_envelope(not_text)
