// One replica of an agent service for the Redis race and fault tests: delivers the same 1,000
// handoffs as every other worker (shuffled), through the Redis store's claim, 32 at a time, and
// prints what it was answered as one JSON document. Spawned by redis-store.test.ts.
// argv[2]: { url, prefix, worker, count, retryUntil (ms since the epoch; 0: no retry), timeoutMs, paceMs }
// Prints "answered <n>" on stderr after every 50 answered handoffs, so a test can act mid-run.
import { createClient } from "redis";
import { createRedisSeenStore, seamRedisScripts } from "seam-handoff/runtime";
import { delivery } from "./redis-deliveries.mjs";

const config = JSON.parse(process.argv[2]);
const { worker, count } = config;

const client = createClient({
  url: config.url,
  scripts: seamRedisScripts,
  disableOfflineQueue: true,
  socket: { connectTimeout: 1000, reconnectStrategy: (retries) => Math.min(50 + retries * 50, 500) },
});
client.on("error", () => {}); // reconnects are expected in the fault test; claims report their own errors
await client.connect();
const store = createRedisSeenStore(client, { prefix: config.prefix, timeoutMs: config.timeoutMs });

// A fixed shuffle per worker, so workers meet each handoff in different orders.
let seed = worker * 7919 + 1;
const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
const order = Array.from({ length: count }, (_, i) => i);
for (let i = count - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}

const answers = new Array(count);
const errors = [];
let slowest = 0;
async function deliver(i) {
  const request = delivery(i, worker);
  for (;;) {
    const started = Date.now();
    try {
      answers[i] = await store.claim(request);
      slowest = Math.max(slowest, Date.now() - started);
      return;
    } catch (error) {
      slowest = Math.max(slowest, Date.now() - started);
      errors.push({ i, name: error.name, message: error.message });
      if (Date.now() > config.retryUntil) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
let next = 0;
let answered = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < count) {
      await deliver(order[next++]);
      if (++answered % 50 === 0) process.stderr.write(`answered ${answered}\n`);
      if (config.paceMs) await new Promise((resolve) => setTimeout(resolve, config.paceMs));
    }
  }),
);
process.stdout.write(JSON.stringify({ worker, answers, errors, slowest }));
await client.quit().catch(() => client.destroy());
