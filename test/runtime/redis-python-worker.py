"""One Python replica of an agent service for the mixed-runtime Redis race (the twin of
redis-ledger-worker.mjs): runs its steps through a generated module's accept() / finish() on
RedisSeenStore (mode "sync", 16 threads) or accept_async() / finish_async() on
AsyncRedisSeenStore (mode "async", 16 tasks), from the shared start moment, in an order of its
own, and prints {"late": ms, "answers": [...]} in the steps' order.

usage: python redis-python-worker.py CONFIG.json
CONFIG: {url, prefix, module, startAt (ms since the epoch), seed, mode, steps}; a step is
{envelope, me} or {finish: task_id, me, terminal, outcome}.
"""

import asyncio
import importlib.util
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import redis
import redis.asyncio

from seam_handoff.redis_store import AsyncRedisSeenStore, RedisSeenStore

config = json.loads(open(sys.argv[1], encoding="utf-8").read())
spec = importlib.util.spec_from_file_location("racer_validators", config["module"])
m = importlib.util.module_from_spec(spec)
sys.modules["racer_validators"] = m
spec.loader.exec_module(m)


def answer(verdict):
    if verdict.ok:
        return {"ok": True}
    if hasattr(verdict, "rejection"):
        return {"ok": False, "rules": [reason.rule for reason in verdict.rejection.reasons]}
    return {"ok": False, "rules": [verdict.rule]}


state = config["seed"] * 7919 + 1


def random():
    global state
    state = (state * 48271) % 2147483647
    return state / 2147483647


order = list(range(len(config["steps"])))
for i in range(len(order) - 1, 0, -1):
    j = int(random() * (i + 1))
    order[i], order[j] = order[j], order[i]


def wait_for_start():
    time.sleep(max(0.0, config["startAt"] / 1000 - time.time()))
    return round(time.time() * 1000 - config["startAt"])


answers = [None] * len(order)
if config["mode"] == "sync":
    client = redis.Redis.from_url(config["url"], socket_timeout=10)
    seen = RedisSeenStore(client, prefix=config["prefix"])

    def run(i):
        step = config["steps"][i]
        if "finish" in step:
            verdict = m.finish(step["finish"], me=step["me"], terminal=step["terminal"], outcome=step["outcome"], seen=seen)
        else:
            verdict = m.accept(step["envelope"], me=step["me"], seen=seen)
        answers[i] = answer(verdict)

    late = wait_for_start()
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(run, order))
else:

    async def main():
        client = redis.asyncio.Redis.from_url(config["url"], socket_timeout=10)
        seen = AsyncRedisSeenStore(client, prefix=config["prefix"])
        queue = list(reversed(order))

        async def worker():
            while queue:
                i = queue.pop()
                step = config["steps"][i]
                if "finish" in step:
                    verdict = await m.finish_async(step["finish"], me=step["me"], terminal=step["terminal"], outcome=step["outcome"], seen=seen)
                else:
                    verdict = await m.accept_async(step["envelope"], me=step["me"], seen=seen)
                answers[i] = answer(verdict)

        late = wait_for_start()
        await asyncio.gather(*(worker() for _ in range(16)))
        await client.aclose()
        return late

    late = asyncio.run(main())
json.dump({"late": late, "answers": answers}, sys.stdout)
