/**
 * Claim leases of the Python Redis stores (RedisSeenStore in threads, AsyncRedisSeenStore in
 * asyncio) on a real redis-server: a claim run while its client timed out is held, then taken
 * over, never lost; replicas racing on a claim and on its takeover take it once; after a commit,
 * redeliveries are discarded. The script is redis-python-lease.py; the .venv of test/python and
 * a redis-server are needed (skipped with one line when either is absent).
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkedGraph, makeTempDir, projectRoot, readJsonFixture, removeTempDirs } from "../emit/helpers.js";
import { writePythonModule } from "../emit/python/python.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";
import { readFileSync } from "node:fs";

const SCRIPT = fileURLToPath(new URL("./redis-python-lease.py", import.meta.url));
const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const venvReady = existsSync(VENV_PYTHON);
if (!venvReady) {
  if (process.env["CI"] === "true") throw new Error("the Python Redis lease tests need .venv (see test/python/package.test.ts)");
  console.log("skipped: the Python Redis lease tests need .venv with redis-py (python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python)");
}
const redis = useRedis();
afterAll(removeTempDirs);

describe.skipIf(!redisAvailable || !venvReady).each(["sync", "async"])("Python Redis store (%s): claim leases", (mode) => {
  it("holds a claim whose answer was lost, then takes it over; replicas take a claim and its takeover once; commits discard redeliveries", () => {
    const graph = checkedGraph(readFileSync(join(projectRoot, "test/fixtures/cases/envelopes/graph.seam"), "utf8"), "graph.seam");
    const module = writePythonModule(graph, `py-lease-${mode}`);
    const envelope = join(makeTempDir(`py-lease-envelope-${mode}`), "envelope.json");
    writeFileSync(envelope, JSON.stringify(readJsonFixture("cases", "envelopes", "valid-delegate.json")));
    const run = spawnSync(VENV_PYTHON, [SCRIPT, module, envelope, redis.server().url, mode], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      timeout: ["StoreUnavailableError", "retry lease-held", "accepted", "committed", "discard duplicate"],
      race: ["accepted", ...Array(5).fill("retry lease-held")],
      takeover: ["accepted", ...Array(5).fill("retry lease-held"), "lost", "committed"],
      after: Array(6).fill("discard duplicate"),
    });
  }, 60_000);
});
