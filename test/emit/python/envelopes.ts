/**
 * Generated envelopes for the cross-runtime differential tests, as JSON texts (both runtimes
 * parse the same text): a valid envelope on a random edge of the graph, then zero to three
 * mutations (a field dropped, a field set to an odd value, a field added, 21 to 40 items or
 * fields added at once, a number written as text JSON.stringify never produces such as `3.0`,
 * `1e400` or 40 digits).
 */
import fc from "fast-check";
import type { CheckedGraph } from "../../../src/analysis/model.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Number texts JSON.stringify never writes, put in place of a marker string after stringify. */
const RAW_NUMBERS = ["3.0", "1.0", "0.0", "-0", "1e400", "-1e400", "1E2", "2.5e-324", "123456789012345678901234567890", "9007199254740993", "1e21", "0.1e1"];
const MARK = "\u0000raw:";

const ODD_STRINGS = [
  "",
  " ",
  "x",
  "\ud800",
  "a\udc00b",
  "\ud83d\ude00",
  "\u2028\u2029",
  "\u0000",
  "é",
  "__class__",
  "__proto__",
  "constructor",
  "1.3.0\n",
  "1.3.0",
  "01.3.0",
  "2.0.0",
  "99999999999999999999.0.0",
  "urn:uuid:0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
  "0B5C3F8E-6A1D-4E2B-9F70-2D4C8A1E5B39",
  "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b3",
  "2026-11-29T10:02:11Z",
  "2026-11-29 10:02:11Z",
  "2026-11-29t10:02:11z",
  "2026-11-29T10:02:11+0100",
  "2026-11-29T10:02:11",
  "2026-02-29T10:02:11Z",
  "2024-02-29T23:59:60Z",
  "2026-11-29T23:59:60+01:00",
  "2026-11-29T00:59:60+01:00",
  "https://example.com/a?b#c",
  "s3://bucket/key",
  "urn:isbn:0451450523",
  "/relative",
  "http://exa mple.com",
  "http://[::1]:8080/",
  "sha256:" + "a".repeat(64),
  "sha256:" + "A".repeat(64),
  "x".repeat(2001),
  "ready",
  "blocked",
  "waiting_review",
  "required",
  "superseded",
  "supervisor",
  "worker",
  "peer",
];

const oddNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2, 0.5, 1.5, 14, 15, 100, 2 ** 53 - 1, 2 ** 53, 1e21, 1e-7, 5e-324, -0),
  fc.integer({ min: -5, max: 40 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...RAW_NUMBERS).map((text) => `${MARK}${text}`),
);

const oddValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [1], ["x"], { a: 1 }) },
  { weight: 4, arbitrary: oddNumber },
  { weight: 5, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
);

const oddKey = fc.oneof(
  fc.constantFrom("__proto__", "__class__", "constructor", "10", "2", "0", "~/", "a/b", "", "payload", "\ud800", "hop", "id"),
  fc.string({ maxLength: 5 }),
);

/** Every object and array inside `value`, with itself. */
function containers(value: Json, out: (JsonObject | Json[])[] = []): (JsonObject | Json[])[] {
  if (Array.isArray(value)) {
    out.push(value);
    for (const item of value) containers(item, out);
  } else if (typeof value === "object" && value !== null) {
    out.push(value);
    for (const item of Object.values(value)) containers(item, out);
  }
  return out;
}

interface Mutation {
  /** `flood`: 21 to 40 more items or fields, past the 20 reasons of a rule a verdict lists. */
  readonly kind: "drop" | "set" | "add" | "flood";
  readonly pick: number;
  readonly key: string;
  readonly value: Json;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("drop", "set", "set", "add", "flood"),
  pick: fc.nat(),
  key: oddKey,
  value: oddValue,
});

function mutate(envelope: JsonObject, mutation: Mutation): void {
  // Constant values are shared between samples: each use gets its own copy.
  const m = { ...mutation, value: structuredClone(mutation.value) };
  const all = containers(envelope);
  const target = all[m.pick % all.length] as JsonObject | Json[];
  if (m.kind === "flood") {
    const more = 21 + (m.pick % 20);
    for (let i = 0; i < more; i++) {
      const value = structuredClone(m.value);
      if (Array.isArray(target)) target.push(value);
      else Object.defineProperty(target, `${m.key}${i}`, { value, enumerable: true, writable: true, configurable: true });
    }
    return;
  }
  if (Array.isArray(target)) {
    if (target.length === 0 || m.kind === "add") target.push(m.value);
    else if (m.kind === "drop") target.splice(m.pick % target.length, 1);
    else target[m.pick % target.length] = m.value;
    return;
  }
  const keys = Object.keys(target);
  if (m.kind === "add" || keys.length === 0) {
    Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
  } else if (m.kind === "drop") delete target[keys[m.pick % keys.length] as string];
  else target[keys[m.pick % keys.length] as string] = m.value;
}

/** A walk from an entry of the graph to `to` through `from` (breadth-first), or a guess. */
function walkTo(graph: CheckedGraph, from: string, to: string): string[] {
  const previous = new Map<string, string | null>(graph.entries.map((entry) => [entry, null]));
  const queue = [...graph.entries];
  while (queue.length > 0) {
    const at = queue.shift() as string;
    if (at === from) break;
    for (const edge of graph.edges) {
      if (edge.from === at && !previous.has(edge.to)) {
        previous.set(edge.to, at);
        queue.push(edge.to);
      }
    }
  }
  const path = [to];
  for (let at: string | null | undefined = from; at != null; at = previous.get(at)) path.unshift(at);
  return path;
}

function uuidLike(n: number): string {
  const hex = n.toString(16).padStart(12, "0").slice(-12);
  return `0b5c3f8e-6a1d-4e2b-9f70-${hex}`;
}

/** A valid-looking envelope on a random edge of `graph` (valid unless the edge's contract asks for more). */
function baseEnvelope(graph: CheckedGraph, hopLimit: number): fc.Arbitrary<JsonObject> {
  const roles = new Map(graph.agents.map((agent) => [agent.id, agent.role]));
  return fc
    .record({
      edge: fc.constantFrom(...graph.edges),
      task: fc.nat({ max: 3000 }),
      statement: fc.constantFrom("Find the duplicate charge.", "Refund order 7731.", "Close the ticket.", "Answer the caller."),
      decisions: fc.array(
        fc.record({
          id: fc.constantFrom("d1", "d2"),
          statement: fc.constantFrom("refund", "no refund", "ask a person", "é\u2028"),
          rationale: fc.constant("ledger shows two charges"),
          confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.1, 1e-7)),
          reversible: fc.boolean(),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      artefacts: fc.array(
        fc.record({
          ref: fc.constantFrom("s3://ledger/7731.json", "s3://ledger/7732.json", "https://example.com/a", "https://example.com/secret/a", "s3://boom/x"),
          media_type: fc.constant("application/json"),
          role: fc.constantFrom("required", "supporting", "superseded"),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      questions: fc.array(fc.record({ question: fc.constantFrom("Which order?", "Refund to card?"), blocking: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) }), { maxLength: 2 }),
      status: fc.option(fc.constantFrom("ready", "partial", "blocked", "waiting_review", "failed"), { freq: 8, nil: undefined }),
      consumed: fc.oneof({ weight: 9, arbitrary: fc.nat({ max: 39_999 }) }, { weight: 1, arbitrary: fc.nat({ max: 50_000 }) }),
      constraints: fc.array(fc.constantFrom("Read-only access to the ledger", "Reply in the customer's language"), { maxLength: 2 }),
    })
    .map((r) => {
      const path = walkTo(graph, r.edge.from, r.edge.to);
      const envelope: JsonObject = {
        envelope_version: "1.3.0",
        handoff_id: "",
        task_id: `task-${r.task}`,
        hop: { index: path.length - 1, limit: hopLimit, path },
        from_agent: { id: r.edge.from, role: roles.get(r.edge.from) ?? "worker" },
        to_agent: { id: r.edge.to, role: roles.get(r.edge.to) ?? "worker" },
        goal: { statement: r.statement, acceptance_criteria: ["The customer has an answer"], out_of_scope: ["Refunds over 500"] },
        budget: { consumed: { tokens: r.consumed, tool_calls: 2 }, limit: { tokens: 40_000, tool_calls: 20 } },
        provenance: [{ agent: r.edge.from, action: "handed over", at: "2026-11-29T10:02:11Z", status: "verified" }],
        constraints: r.constraints,
      };
      if (r.decisions.length > 0) envelope["decisions"] = r.decisions;
      if (r.artefacts.length > 0) envelope["artefacts"] = r.artefacts;
      if (r.questions.length > 0) envelope["open_questions"] = r.questions;
      if (r.status !== undefined) envelope["status"] = r.status;
      return envelope;
    });
}

/** One generated delivery: the envelope's JSON text and the receiving agent. */
export interface GeneratedDelivery {
  readonly text: string;
  readonly me: string;
}

/**
 * `count` generated deliveries for `graph`, the same for the same seed: about a third valid,
 * the rest mutated; `me` is the envelope's `to_agent.id` nine times in ten. Some texts repeat
 * an earlier one (a redelivery).
 */
export function generateDeliveries(graph: CheckedGraph, hopLimit: number, count: number, seed: number): GeneratedDelivery[] {
  const arbitrary = fc.record({
    envelope: baseEnvelope(graph, hopLimit),
    mutations: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }),
    stranger: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(...graph.agents.map((agent) => agent.id)) },
    ),
    repeat: fc.nat({ max: 20 }),
  });
  const samples = fc.sample(arbitrary, { seed, numRuns: count });
  const out: GeneratedDelivery[] = [];
  for (const [n, sample] of samples.entries()) {
    if (sample.repeat === 0 && out.length > 0) {
      out.push(out[(out.length * 7919) % out.length] as GeneratedDelivery);
      continue;
    }
    const envelope = sample.envelope;
    // Mostly unique ids (n), sometimes a small one shared with other deliveries (a replay under a new task).
    if (sample.repeat === 1) envelope["handoff_id"] = uuidLike(n % 50);
    else envelope["handoff_id"] = uuidLike(n + 1000);
    for (const m of sample.mutations) mutate(envelope, m);
    const to = (envelope["to_agent"] as JsonObject | undefined)?.["id"];
    const me = sample.stranger ?? (typeof to === "string" ? to : "nobody");
    const text = JSON.stringify(envelope).replace(/"\\u0000raw:([^"]*)"/g, (_, raw: string) => raw);
    out.push({ text, me });
  }
  return out;
}
