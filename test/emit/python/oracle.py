"""Test-only oracle: Python's jsonschema (Debian python3-jsonschema) judges the same envelopes.

usage: python3 oracle.py < request.json > verdicts.json
request: {"schemas": [schema, ...], "jobs": [{"text": json text, "ids": [schema id, ...]}, ...]}
answer: for each job, for each of its ids, whether jsonschema's Draft202012Validator finds it valid.

Formats: jsonschema checks "uuid" itself and "uri" through rfc3987 (python3-rfc3987); its
"date-time" needs rfc3339-validator, which Debian does not package, so "date-time" is checked
here against RFC 3339 section 5.6 (ABNF) and 5.7 (day of month, leap second only at 23:59:60).
"""
import json
import re
import sys
from urllib.parse import quote

from jsonschema import Draft202012Validator, FormatChecker, RefResolver

RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))\Z", re.ASCII
)
DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def date_time(instance):
    if not isinstance(instance, str):
        return True
    m = RFC3339.match(instance)
    if m is None:
        return False
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= month <= 12 or not 1 <= day <= (29 if month == 2 and leap else DAYS[month - 1]):
        return False
    if m.group(9) and (int(m.group(10)) > 23 or int(m.group(11)) > 59):
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if second == 60:
        sign = -1 if m.group(9) == "-" else 1
        offset = (int(m.group(10)) * 60 + int(m.group(11))) * sign if m.group(9) else 0
        utc = (hour * 60 + minute - offset) % 1440
        return utc == 23 * 60 + 59
    return True


def located(uri):
    """jsonschema 4.10 resolves "#..." against a base with urllib, which cannot join onto a URN
    (Seam's $ids are URNs): give each URN an https form, here only."""
    if not uri.startswith("urn:"):
        return uri
    resource, hash_, fragment = uri.partition("#")
    return "https://oracle.invalid/" + quote(resource, safe="") + hash_ + fragment


def relocate(node):
    if isinstance(node, dict):
        return {k: located(v) if k in ("$id", "$ref") and isinstance(v, str) else relocate(v) for k, v in node.items()}
    if isinstance(node, list):
        return [relocate(item) for item in node]
    return node


def main():
    request = json.load(sys.stdin)
    store = {schema["$id"]: schema for schema in map(relocate, request["schemas"])}
    for job in request["jobs"]:
        job["ids"] = [located(i) for i in job["ids"]]
    checker = FormatChecker()
    checker.checks("date-time")(date_time)
    missing = {"uuid", "uri", "date-time"} - set(checker.checkers)
    if missing:
        sys.exit(f"oracle: jsonschema cannot check {sorted(missing)} here (install python3-rfc3987)")
    validators = {
        i: Draft202012Validator(schema, resolver=RefResolver.from_schema(schema, store=store), format_checker=checker)
        for i, schema in store.items()
    }
    out = [[validators[i].is_valid(json.loads(job["text"])) for i in job["ids"]] for job in request["jobs"]]
    json.dump(out, sys.stdout)


main()
