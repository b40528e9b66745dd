"""Claim leases of the Python Redis stores on a real Redis (driven by redis-python-lease.test.ts):
a claim whose answer the client never heard (the script ran in Redis, its reply was lost: the
client raises redis-py's TimeoutError, as after a socket timeout; a redis-py client that times
out closes its socket, and Redis then drops what it had not run) is held
(lease-held, route retry), then taken over once its lease ran out, never lost; replicas racing
on a claim and on its takeover take it once (threads for RedisSeenStore, tasks for
AsyncRedisSeenStore, one client each); after a commit, redeliveries are discarded.

usage: python redis-python-lease.py MODULE.py ENVELOPE.json URL sync|async
Prints {"timeout": [...], "race": [...], "takeover": [...], "after": [...]}: each a list of
verdicts, "accepted" or the rejection's route (plus the rule of its first reason).
"""

import asyncio
import importlib.util
import json
import sys
from concurrent.futures import ThreadPoolExecutor

import redis
import redis.asyncio
import redis.exceptions

from seam_handoff import commit, commit_async
from seam_handoff.redis_store import AsyncRedisSeenStore, RedisSeenStore, StoreUnavailableError

module_path, envelope_path, url, mode = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("lease_validators", module_path)
m = importlib.util.module_from_spec(spec)
sys.modules["lease_validators"] = m
spec.loader.exec_module(m)
envelope = json.loads(open(envelope_path, encoding="utf-8").read())
me = envelope["to_agent"]["id"]
NOW = 1_764_579_600.0  # seconds
LEASE_MS = 30_000
REPLICAS = 6


def at(ms):
    return lambda: NOW + ms / 1000


class LostReply:
    """A redis-py client whose first script call runs in Redis but loses its reply (TimeoutError)."""

    def __init__(self, client, awaited):
        self.client, self.awaited, self.lost = client, awaited, False

    def register_script(self, text):
        script = self.client.register_script(text)

        def lose():
            self.lost = True
            raise redis.exceptions.TimeoutError("Timeout reading from socket")

        if self.awaited:

            async def call_async(keys, args):
                reply = await script(keys=keys, args=args)
                return reply if self.lost else lose()

            return call_async

        def call(keys, args):
            reply = script(keys=keys, args=args)
            return reply if self.lost else lose()

        return call


def shown(verdict):
    if verdict.ok:
        return "accepted"
    return f"{verdict.rejection.route} {verdict.rejection.reasons[0].rule}"


def sync_run():
    out = {}
    store = RedisSeenStore(LostReply(redis.Redis.from_url(url), False), prefix=f"py-lease-timeout-{mode}", lease_ms=LEASE_MS)
    try:
        m.accept(envelope, me=me, seen=store, now=at(0), claim_token="lost-reply")
        out["timeout"] = ["no timeout"]
    except StoreUnavailableError:
        out["timeout"] = ["StoreUnavailableError"]
    out["timeout"].append(shown(m.accept(envelope, me=me, seen=store, now=at(1000), claim_token="second")))
    taken = m.accept(envelope, me=me, seen=store, now=at(LEASE_MS), claim_token="third")
    out["timeout"].append(shown(taken))
    out["timeout"].append(commit(taken.record, seen=store, now=at(LEASE_MS + 1)).outcome)
    out["timeout"].append(shown(m.accept(envelope, me=me, seen=store, now=at(3 * LEASE_MS), claim_token="fourth")))
    stores = [RedisSeenStore(redis.Redis.from_url(url), prefix=f"py-lease-race-{mode}", lease_ms=LEASE_MS) for _ in range(REPLICAS)]
    with ThreadPoolExecutor(REPLICAS) as pool:
        first = list(pool.map(lambda i: m.accept(envelope, me=me, seen=stores[i], now=at(0), claim_token=f"first-{i}"), range(REPLICAS)))
        takeover = list(
            pool.map(lambda i: m.accept(envelope, me=me, seen=stores[i], now=at(LEASE_MS + 1), claim_token=f"takeover-{i}"), range(REPLICAS))
        )
    out["race"] = sorted(shown(v) for v in first)
    out["takeover"] = sorted(shown(v) for v in takeover)
    winner = next(v for v in takeover if v.ok)
    loser = next(v for v in first if v.ok)
    out["takeover"] += [commit(loser.record, seen=stores[0], now=at(LEASE_MS + 2)).outcome, commit(winner.record, seen=stores[1], now=at(LEASE_MS + 3)).outcome]
    out["after"] = sorted(shown(m.accept(envelope, me=me, seen=s, now=at(5 * LEASE_MS))) for s in stores)
    return out


async def async_run():
    out = {}
    store = AsyncRedisSeenStore(LostReply(redis.asyncio.Redis.from_url(url), True), prefix=f"py-lease-timeout-{mode}", lease_ms=LEASE_MS)
    try:
        await m.accept_async(envelope, me=me, seen=store, now=at(0), claim_token="lost-reply")
        out["timeout"] = ["no timeout"]
    except StoreUnavailableError:
        out["timeout"] = ["StoreUnavailableError"]
    out["timeout"].append(shown(await m.accept_async(envelope, me=me, seen=store, now=at(1000), claim_token="second")))
    taken = await m.accept_async(envelope, me=me, seen=store, now=at(LEASE_MS), claim_token="third")
    out["timeout"].append(shown(taken))
    out["timeout"].append((await commit_async(taken.record, seen=store, now=at(LEASE_MS + 1))).outcome)
    out["timeout"].append(shown(await m.accept_async(envelope, me=me, seen=store, now=at(3 * LEASE_MS), claim_token="fourth")))
    stores = [AsyncRedisSeenStore(redis.asyncio.Redis.from_url(url), prefix=f"py-lease-race-{mode}", lease_ms=LEASE_MS) for _ in range(REPLICAS)]
    first = await asyncio.gather(*(m.accept_async(envelope, me=me, seen=s, now=at(0), claim_token=f"first-{i}") for i, s in enumerate(stores)))
    takeover = await asyncio.gather(
        *(m.accept_async(envelope, me=me, seen=s, now=at(LEASE_MS + 1), claim_token=f"takeover-{i}") for i, s in enumerate(stores))
    )
    out["race"] = sorted(shown(v) for v in first)
    out["takeover"] = sorted(shown(v) for v in takeover)
    winner = next(v for v in takeover if v.ok)
    loser = next(v for v in first if v.ok)
    out["takeover"] += [
        (await commit_async(loser.record, seen=stores[0], now=at(LEASE_MS + 2))).outcome,
        (await commit_async(winner.record, seen=stores[1], now=at(LEASE_MS + 3))).outcome,
    ]
    out["after"] = sorted([shown(await m.accept_async(envelope, me=me, seen=s, now=at(5 * LEASE_MS))) for s in stores])
    return out


json.dump(sync_run() if mode == "sync" else asyncio.run(async_run()), sys.stdout)
