// One replica of an agent service for the Redis ledger race tests: runs its list of steps (handoffs
// through acceptAsync(), terminal actions through finishAsync()) of an emitted validator module
// against the Redis store, 16 at a time in an order of its own (shuffled by `seed`), from the same
// moment as the other replicas, and prints how late it started (ms) and what each step was
// answered, in the steps' order, as one JSON document. Spawned by redis-ledger-race.test.ts and
// redis-fan-out-race.test.ts.
// argv[2]: the path of a JSON file { url, prefix, module, startAt (ms since the epoch), seed, steps },
// a step { envelope, me } or { finish: taskId, me, terminal, outcome } or { joinState: taskId }, each
// with an optional now (ms since the epoch: the step's clock, for join deadlines).
import { readFileSync } from "node:fs";
import { createClient } from "redis";
import { createRedisSeenStore, seamRedisScripts } from "seam-handoff/runtime";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { acceptAsync, finishAsync, joinStateAsync } = await import(config.module);

const client = createClient({ url: config.url, scripts: seamRedisScripts, disableOfflineQueue: true, socket: { reconnectStrategy: false } });
client.on("error", () => {});
await client.connect();
const seen = createRedisSeenStore(client, { prefix: config.prefix, timeoutMs: 10_000 });

async function run(step) {
  const clock = step.now === undefined ? {} : { now: () => step.now };
  if (step.joinState !== undefined) {
    const report = await joinStateAsync(step.joinState, { seen, ...clock });
    return { ok: true, state: report.state, acts: report.acts };
  }
  if (step.finish !== undefined) {
    const verdict = await finishAsync(step.finish, { me: step.me, terminal: step.terminal, outcome: step.outcome, seen, ...clock });
    if (!verdict.ok) return { ok: false, rules: [verdict.rule] };
    return verdict.record.join === undefined ? { ok: true } : { ok: true, acts: verdict.record.join.acts };
  }
  const verdict = await acceptAsync(step.envelope, { me: step.me, seen, ...clock });
  if (!verdict.ok) {
    const rules = verdict.rejection.reasons.map((r) => r.rule);
    // A join given up on says whether this verdict acted on its policy.
    const join = verdict.rejection.join;
    return join === undefined ? { ok: false, rules } : { ok: false, rules, route: verdict.rejection.route, acts: join.acts };
  }
  // An arrival at a join says where the join stands.
  return verdict.record.join === undefined ? { ok: true } : { ok: true, route: verdict.record.route, fired: verdict.record.join.fired };
}

// A fixed shuffle per replica (Park-Miller), so replicas meet each task at different moments.
let state = config.seed * 7919 + 1;
const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
const order = config.steps.map((_, i) => i);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}

await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.startAt - Date.now())));
const late = Date.now() - config.startAt;
const answers = new Array(config.steps.length);
let next = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < order.length) {
      const i = order[next++];
      answers[i] = await run(config.steps[i]);
    }
  }),
);
process.stdout.write(JSON.stringify({ late, answers }));
await client.quit().catch(() => client.destroy());
