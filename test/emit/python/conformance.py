"""Runs a conformance suite (conformance/<suite>/, format in conformance/README.md) against an
emitted Python module, in one process.

usage: python3 conformance.py MODULE.py SUITE_DIR sync|async [REDIS_URL] > verdicts.json
Prints {case name: [verdict of each step]}, a delivery's verdict being {"ok", "duplicate",
"route", "reasons": [[path, rule], ...], "warnings": [[path, rule], ...], "attempt", "messages":
[[path, rule, message], ...], "join"} in the runtime's order, a finish step's {"ok", "rule"?,
"message"?}, a settle step's {"outcome"}. In async mode every delivery goes through accept_async
with an async can_read and an async store, every finish through finish_async, every settle
through commit_async / release_async.
With REDIS_URL each case gets a fresh prefix on that Redis: RedisSeenStore (redis-py) in sync
mode, AsyncRedisSeenStore (redis.asyncio) in async mode.
"""
import asyncio
import copy
import json
import os
import sys
from datetime import datetime

from emitted import load
from seam_handoff import commit, commit_async, release, release_async


def tokens(pointer):
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def apply_patch(document, patch):
    """RFC 6902 add, remove and replace on a copy of document."""
    root = copy.deepcopy(document)
    for operation in patch:
        path = tokens(operation["path"])
        if not path:
            root = copy.deepcopy(operation.get("value"))
            continue
        last = path.pop()
        parent = root
        for token in path:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        value = copy.deepcopy(operation.get("value"))
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if operation["op"] == "add":
                parent.insert(index, value)
            elif operation["op"] == "remove":
                del parent[index]
            else:
                parent[index] = value
        elif operation["op"] == "remove":
            del parent[last]
        else:
            parent[last] = value
    return root


class AsyncStore:
    def __init__(self, store):
        self.store = store

    async def claim(self, request):
        await asyncio.sleep(0)
        return self.store.claim(request)

    async def finish(self, request):
        await asyncio.sleep(0)
        return self.store.finish(request)

    async def settle(self, request):
        await asyncio.sleep(0)
        return self.store.settle(request)

    async def join_state(self, request):
        await asyncio.sleep(0)
        return self.store.join_state(request)


def seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


async def run_settle(store, records, step, mode):
    s = step["settle"]
    record = records[s["token"]]
    now_seconds = seconds(s.get("now", "2026-01-01T00:00:00Z"))
    if mode == "sync":
        result = (commit if s["action"] == "commit" else release)(record, seen=store, now=lambda: now_seconds)
    else:
        result = await (commit_async if s["action"] == "commit" else release_async)(record, seen=store, now=lambda: now_seconds)
    return {"outcome": result.outcome}


async def run_finish(m, store, step, mode):
    f = step["finish"]
    now_seconds = datetime.fromisoformat(f.get("now", "2026-01-01T00:00:00Z").replace("Z", "+00:00")).timestamp()
    options = dict(me=f["me"], terminal=f["terminal"], outcome=f["outcome"], now=lambda: now_seconds)
    if mode == "sync":
        result = m.finish(f["task"], seen=store, **options)
    else:
        result = await m.finish_async(f["task"], seen=store, **options)
    if result.ok:
        return {"ok": True, "branch": result.record.branch, "join": result.record.join}
    return {"ok": False, "rule": result.rule, "message": result.message}


async def run_join_state(m, store, step, mode):
    j = step["joinState"]
    now_seconds = seconds(j.get("now", "2026-01-01T00:00:00Z"))
    if mode == "sync":
        return m.join_state(j["task"], seen=store, now=lambda: now_seconds).to_dict()
    return (await m.join_state_async(j["task"], seen=store, now=lambda: now_seconds)).to_dict()


def verdict(result):
    pairs = lambda reasons: [[r.path, r.rule] for r in reasons]  # noqa: E731
    # Every reason and warning in full, in the runtime's order: compared with the JavaScript runtime's.
    messages = lambda reasons: [[r.path, r.rule, r.message] for r in reasons]  # noqa: E731
    if result.ok:
        record = result.record
        return {"ok": True, "duplicate": False, "route": record.route, "reasons": [], "warnings": pairs(record.warnings), "attempt": None, "messages": messages(record.warnings), "join": record.join}
    rejection = result.rejection
    return {"ok": False, "duplicate": result.duplicate, "route": rejection.route, "reasons": pairs(rejection.reasons), "warnings": [], "attempt": rejection.attempt, "messages": messages(rejection.reasons), "join": rejection.join}


def redis_store(url, prefix, case, mode):
    """The case's store on Redis: the sync store for sync mode, the asyncio one for async mode."""
    import redis
    import redis.asyncio

    from seam_handoff.redis_store import AsyncRedisSeenStore, RedisSeenStore

    options = dict(prefix=prefix, ttl_seconds=case.get("ttlSeconds", 86_400), scope=case.get("scope", "graph"), lease_ms=case.get("leaseMs", 0))
    if mode == "sync":
        return RedisSeenStore(redis.Redis.from_url(url), **options)
    return AsyncRedisSeenStore(redis.asyncio.Redis.from_url(url), **options)


async def run_case(m, suite, case, mode, redis_url=None, prefix=""):
    ttl = case.get("ttlSeconds")
    scope = case.get("scope", "graph")
    lease = case.get("leaseMs", 0)
    if redis_url is not None:
        store = redis_store(redis_url, prefix, case, mode)
    else:
        store = m.create_memory_seen_store(scope=scope, lease_ms=lease) if ttl is None else m.create_memory_seen_store(ttl * 1000, scope, lease)
    # The memory store is wrapped for async mode; the asyncio Redis store is asynchronous itself.
    async_store = store if redis_url is not None else AsyncStore(store)
    out = []
    records = {}
    for delivery in case["deliveries"]:
        if "finish" in delivery:
            out.append(await run_finish(m, store if mode == "sync" else async_store, delivery, mode))
            continue
        if "settle" in delivery:
            out.append(await run_settle(store if mode == "sync" else async_store, records, delivery, mode))
            continue
        if "joinState" in delivery:
            out.append(await run_join_state(m, store if mode == "sync" else async_store, delivery, mode))
            continue
        if "envelopeFile" in delivery:
            with open(os.path.join(suite, delivery["envelopeFile"]), encoding="utf-8") as fh:
                envelope = json.load(fh)
        else:
            envelope = delivery.get("envelope")
        if "patch" in delivery:
            envelope = apply_patch(envelope, delivery["patch"])
        now_seconds = datetime.fromisoformat(delivery.get("now", "2026-01-01T00:00:00Z").replace("Z", "+00:00")).timestamp()
        readable = delivery.get("readable")
        use_store = delivery.get("store", True)
        if mode == "sync":
            can_read = None if readable is None else (lambda ref, scope, allowed=frozenset(readable): ref in allowed)
            result = m.accept(
                envelope,
                me=delivery["me"],
                can_read=can_read,
                seen=store if use_store else None,
                now=lambda: now_seconds,
                sender=delivery.get("sender"),
                claim_token=delivery.get("claimToken"),
            )
        else:
            async def can_read_async(ref, scope, allowed=frozenset(readable or ())):
                await asyncio.sleep(0)
                return ref in allowed

            result = await m.accept_async(
                envelope,
                me=delivery["me"],
                can_read=None if readable is None else can_read_async,
                seen=async_store if use_store else None,
                now=lambda: now_seconds,
                sender=delivery.get("sender"),
                claim_token=delivery.get("claimToken"),
            )
        if result.ok and "claimToken" in delivery:
            records[delivery["claimToken"]] = result.record
        out.append(verdict(result))
    return out


def main():
    module_path, suite, mode = sys.argv[1:4]
    redis_url = sys.argv[4] if len(sys.argv) > 4 else None
    m = load(module_path)
    answers = {}
    for name in sorted(os.listdir(suite)):
        if name.endswith(".json"):
            with open(os.path.join(suite, name), encoding="utf-8") as fh:
                case = json.load(fh)
            prefix = f"py-{os.getpid()}-{mode}-{os.path.basename(suite)}-{name[: -len('.json')]}"
            answers[name[: -len(".json")]] = asyncio.run(run_case(m, suite, case, mode, redis_url, prefix))
    json.dump(answers, sys.stdout)


main()
