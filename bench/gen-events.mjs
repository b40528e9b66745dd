// Generates handoff event logs (docs/handoff-events.md, record v1) that look like a week of a
// refund desk's traffic, for `seam report`'s tests and bench: tasks walk triage -> billing ->
// refunds -> notifier with returns and loops, some producers send bad envelopes, a few tasks
// loop until the hop limit, redeliveries happen, and envelope 1.2.0 gives way to 1.3.0.
// Deterministic for a given seed. Usage: node bench/gen-events.mjs <events> [seed] > log.jsonl
import { createWriteStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRandom } from "./gen-graph.mjs";

const WEEK_MS = 7 * 24 * 3600 * 1000;
const START = Date.UTC(2026, 10, 23);
const HOP_LIMIT = 8;
// from -> [to, kind, weight]; a walk picks the next step by weight, or stops.
const STEPS = {
  triage: [["billing", "delegate", 6], ["refunds", "delegate", 3]],
  billing: [["triage", "return", 7], ["refunds", "transfer", 2]],
  refunds: [["notifier", "transfer", 6], ["triage", "return", 3]],
  notifier: [],
};
const FAULTS = [
  ["/budget", "required"],
  ["/artefacts/0/ref", "artefact-unreadable"],
  ["/decisions/0/rationale", "required"],
  ["/status", "enum"],
  ["/hop/path/2", "bad-hop-path"],
];
const STATUSES = ["ready", "ready", "ready", "ready", "partial", "blocked", "waiting_review", "failed"];

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

/** Yields `events` handoff events, oldest first, spread over one week. */
export function* generateEvents({ events, seed = 7 }) {
  const random = createRandom(seed);
  let made = 0;
  let task = 0;
  while (made < events) {
    task++;
    const taskId = `refund-${task}`;
    let at = START + Math.floor((made / events) * WEEK_MS);
    const looping = random() < 0.03;
    let from = "triage";
    for (let hop = 1; made < events; hop++) {
      const choices = looping ? STEPS[from].filter(([to]) => to !== "notifier") : STEPS[from];
      if (choices.length === 0 || (!looping && hop > 1 && random() < 0.25)) break;
      const total = choices.reduce((sum, [, , w]) => sum + w, 0);
      let roll = random() * total;
      const [to, kind] = choices.find(([, , w]) => (roll -= w) < 0) ?? choices[0];
      at += 200 + Math.floor(random() * 4000);
      const latency = Math.round(Math.exp(6 + random() * 3 + (random() < 0.02 ? 4 : 0)));
      const atLimit = hop >= HOP_LIMIT;
      const bad = !atLimit && (from === "billing" ? random() < 0.12 : random() < 0.02);
      const reasons = atLimit ? [["/hop/index", "hop-limit-reached"]] : bad ? [pick(random, FAULTS)] : [];
      const observe = bad && kind === "return" && random() < 0.5;
      const verdict = reasons.length === 0 ? "accepted" : observe ? "observed" : "rejected";
      const event = {
        event: "seam.handoff",
        v: 1,
        at: new Date(at).toISOString(),
        graph: "refund_desk",
        handoff_id: `00000000-0000-4000-8000-${String(made).padStart(12, "0")}`,
        task_id: taskId,
        producer: from,
        receiver: to,
        edge: kind,
        status: pick(random, STATUSES),
        envelope_version: at < START + WEEK_MS * (0.3 + random() * 0.4) ? "1.2.0" : "1.3.0",
        latency_ms: latency,
        ingest_ms: Math.round((0.005 + random() * 0.02) * 1000) / 1000,
        verdict,
        route: verdict === "rejected" ? (atLimit ? "escalate" : "repair") : "proceed",
        size_bytes: 1800 + hop * 40 + Math.floor(random() * 600),
        hop_index: hop,
        hop_limit: HOP_LIMIT,
        reasons: reasons.map(([path, rule]) => ({ path, rule })),
        reasons_total: reasons.length,
      };
      yield event;
      made++;
      if (made < events && random() < 0.01) {
        yield { ...event, verdict: "duplicate", route: "discard", reasons: [{ path: "/handoff_id", rule: "duplicate" }], reasons_total: 1 };
        made++;
      }
      if (verdict === "rejected") break;
      from = to;
    }
  }
}

/** Writes `events` generated events to `path` as JSON Lines; resolves when the file is complete. */
export async function writeEventLog(path, { events, seed }) {
  const out = createWriteStream(path);
  let chunk = "";
  for (const event of generateEvents({ events, seed })) {
    chunk += `${JSON.stringify(event)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((resolve) => out.once("drain", resolve));
      chunk = "";
    }
  }
  out.write(chunk);
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const events = Number(process.argv[2] ?? 1000);
  const seed = Number(process.argv[3] ?? 7);
  for (const event of generateEvents({ events, seed })) process.stdout.write(`${JSON.stringify(event)}\n`);
}
