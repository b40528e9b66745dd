"""Hostile-input checks of an emitted module, run in one process.

usage: python3 hostile.py MODULE.py ME > answer.json
Prints {"envelopes": {case: {"ok", "rules"} or {"raised": type}}, "misuse": {case: "TypeError: ..." or "no error"},
"compiled": seam_handoff.is_compiled()}.
"""
import asyncio
import json
from decimal import Decimal
import sys

from emitted import load


class Exploding(dict):
    def __contains__(self, key):
        raise RuntimeError("boom")

    def __getitem__(self, key):
        raise RuntimeError("boom")


class Sneaky(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def deep(levels):
    value = {}
    for _ in range(levels):
        value = {"a": value}
    return value


def deep_list(levels):
    value = []
    for _ in range(levels):
        value = [value]
    return value


def main():
    m = load(sys.argv[1])
    me = sys.argv[2]
    cases = {
        "none": None,
        "list": [],
        "string": "envelope",
        "int": 1,
        "deep dict": deep(200_000),
        "deep list": deep_list(200_000),
        "deep goal": {"goal": deep(100_000), "hop": {"index": deep_list(100_000)}},
        "huge int": {"hop": {"index": 10**5000, "limit": -(10**5000), "path": [10**400]}},
        "odd floats": {"hop": {"index": float("nan"), "limit": float("inf")}, "budget": {"consumed": {"tokens": -float("inf")}}},
        "dunder keys": {"__class__": {}, "__proto__": {}, "__dict__": 1, "constructor": 2, "__init__": 3},
        "lone surrogates": {"\ud800": "\udc00", "task_id": "\ud800", "goal": {"statement": "\udfff", "acceptance_criteria": ["\ud83d"]}},
        "exploding mapping": Exploding(a=1),
        "exploding inner": {"hop": Exploding(), "from_agent": Exploding(), "to_agent": {"id": me}},
        "str subclass": {"envelope_version": Sneaky("x"), "to_agent": {"id": Sneaky(me), "role": Sneaky("worker")}},
        "bool as numbers": {"hop": {"index": True, "limit": False, "path": [True]}},
    }
    envelopes = {}
    for name, envelope in cases.items():
        try:
            result = m.accept(envelope, me=me, seen=m.create_memory_seen_store(), now=lambda: 0)
            rules = result.rejection.reasons if not result.ok else result.record.warnings
            envelopes[name] = {"ok": result.ok, "rules": sorted({reason.rule for reason in rules})}
            json.dumps(result.to_dict())
        except BaseException as error:  # the test asserts there is none
            envelopes[name] = {"raised": f"{type(error).__name__}: {error}"}
    valid = json.loads(sys.stdin.read())
    async def async_can_read(ref, scope):
        return True

    class AsyncStore:
        async def claim(self, request):
            return m.Claimed()

    misuse_calls = {
        "positional me": lambda: m.accept(valid, me),
        "me not a str": lambda: m.accept(valid, me=7),
        "me missing": lambda: m.accept(valid),
        "can_read not callable": lambda: m.accept(valid, me=me, can_read="yes"),
        "seen not a store": lambda: m.accept(valid, me=me, seen={}),
        "now not callable": lambda: m.accept(valid, me=me, now=5),
        "now returns text": lambda: m.accept(valid, me=me, now=lambda: "noon"),
        "now out of range": lambda: m.accept(valid, me=me, now=lambda: 1e300),
        "me not an agent": lambda: m.accept(valid, me="nobody"),
        "async can_read": lambda: m.accept(valid, me=me, can_read=async_can_read),
        "can_read returns an awaitable": lambda: m.accept(
            {**valid, "artefacts": [{"ref": "s3://ledger/1.json", "media_type": "application/json", "role": "required"}]},
            me=me,
            can_read=lambda ref, scope: async_can_read(ref, scope),
        ),
        "async store": lambda: m.accept(valid, me=me, seen=AsyncStore()),
        "bytes": lambda: m.accept(b"{}", me=me),
        "set": lambda: m.accept({1, 2}, me=me),
        "non-str key": lambda: m.accept({**valid, "hop": {2.5: 1}}, me=me),
        "tuple as array": lambda: m.accept({**valid, "hop": {"index": 1, "limit": 8, "path": ("triage", "billing")}}, me=me),
        "decimal": lambda: m.accept({**valid, "budget": {"consumed": {"tokens": Decimal("1.5")}}}, me=me),
        "cycle": lambda: m.accept(cyclic, me=me),
        "async tuple": lambda: asyncio.run(m.accept_async({**valid, "constraints": ("a",)}, me=me)),
    }
    cyclic = {**valid}
    cyclic["goal"] = {"statement": "s", "acceptance_criteria": [cyclic]}
    misuse = {}
    for name, call in misuse_calls.items():
        try:
            call()
            misuse[name] = "no error"
        except (TypeError, ValueError) as error:
            misuse[name] = f"{type(error).__name__}: {error}"
    from seam_handoff import is_compiled

    json.dump({"envelopes": envelopes, "misuse": misuse, "compiled": is_compiled()}, sys.stdout)


sys.setrecursionlimit(1000)
main()
