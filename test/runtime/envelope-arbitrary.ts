/**
 * fast-check arbitraries for handoff envelopes: valid ones for one graph's edges, and mutations
 * of them at any field (deleted, replaced by other JSON, an extra field, an edge-case string or
 * number), for the differential and property tests of the runtime.
 */
import fc from "fast-check";
import type { CheckedGraph } from "../../src/analysis/model.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const text = (min = 0, max = 12): fc.Arbitrary<string> => fc.string({ minLength: min, maxLength: max });
const count = fc.nat({ max: 100_000 });
const counters = fc.record(
  { tokens: count, wall_clock_ms: count, tool_calls: count, retries: count, cost_micros: count },
  { requiredKeys: [] },
);
const uri = fc.oneof(fc.webUrl(), fc.constantFrom("artefact://refund/ledger", "urn:isbn:0451450523", "s3://bucket/key"));
const dateTime = fc
  .date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2999, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString());

/** A schema-valid envelope for one of `graph`'s edges (hop within the graph's limit; the walk itself is random). */
export function validEnvelope(graph: CheckedGraph): fc.Arbitrary<{ envelope: JsonObject; me: string }> {
  const limit = graph.hopLimit.value ?? 8;
  const roles = new Map(graph.agents.map((agent) => [agent.id, agent.role]));
  const walks = shortestWalks(graph);
  return fc
    .record({
      edge: fc.constantFrom(...graph.edges),
      version: fc.constantFrom("1.3.0", "1.2.0", "1.0.7"),
      handoff: fc.uuid(),
      task: text(1),
      randomWalk: fc.boolean(),
      index: fc.nat({ max: limit - 1 }),
      path: fc.array(text(0, 8), { maxLength: 6 }),
      statement: text(1, 40),
      criteria: fc.array(text(1), { minLength: 1, maxLength: 3 }),
      outOfScope: fc.option(fc.array(text()), { nil: undefined }),
      decisions: fc.option(
        fc.array(
          fc.record({
            id: text(),
            statement: text(),
            rationale: text(),
            confidence: fc.double({ min: 0, max: 1, noNaN: true }),
            reversible: fc.boolean(),
          }),
          { maxLength: 3 },
        ),
        { nil: undefined },
      ),
      artefacts: fc.option(
        fc.array(
          fc.record(
            {
              ref: uri,
              media_type: text(),
              role: fc.constantFrom("required", "supporting", "superseded"),
              digest: fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }).map((h) => `sha256:${h}`),
              byte_size: count,
              summary: text(0, 40),
              read_scope: text(),
            },
            { requiredKeys: ["ref", "media_type", "role"] },
          ),
          { maxLength: 3 },
        ),
        { nil: undefined },
      ),
      constraints: fc.option(fc.array(text(), { maxLength: 3 }), { nil: undefined }),
      consumed: counters,
      caps: counters,
      questions: fc.option(fc.array(fc.record({ question: text(), blocking: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }) }), { maxLength: 2 }), { nil: undefined }),
      provenance: fc.array(
        fc.record({ agent: text(), action: text(), at: dateTime, status: fc.constantFrom("verified", "asserted", "unverified") }),
        { minLength: 1, maxLength: 3 },
      ),
      status: fc.option(fc.constantFrom("ready", "partial", "blocked", "waiting_review", "failed"), { nil: undefined }),
    })
    .map((g) => {
      const envelope: JsonObject = {
        envelope_version: g.version,
        handoff_id: g.handoff,
        task_id: g.task,
        // Half the time a walk of the graph from an entry (so the envelope may be accepted), else any path.
        hop: g.randomWalk
          ? { index: g.index, limit, path: [...g.path, g.edge.from, g.edge.to] }
          : { index: (walks.get(g.edge.from)?.length ?? 0), limit, path: [...(walks.get(g.edge.from) ?? []), g.edge.to] },
        from_agent: { id: g.edge.from, role: roles.get(g.edge.from) as string },
        to_agent: { id: g.edge.to, role: roles.get(g.edge.to) as string },
        goal: { statement: g.statement, acceptance_criteria: g.criteria },
        // Caps above what was consumed, so the budget is not what refuses it; every limited counter is reported.
        budget: { consumed: g.consumed, limit: Object.fromEntries(Object.entries(g.caps).filter(([k]) => k in g.consumed).map(([k, v]) => [k, v + 100_001])) },
        provenance: g.provenance,
      };
      // Fields the edge's contract requires are always present, so the unmutated envelope is valid.
      const needs = (name: string): boolean => g.edge.require.some((path) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));
      const goal = envelope["goal"] as JsonObject;
      // A required array must hold an item; an optional one may be empty.
      const filled = <T>(name: string, value: T[] | undefined, item: T): T[] | undefined =>
        needs(name) && (value === undefined || value.length === 0) ? [item] : value;
      const artefacts = filled("artefacts", g.artefacts, { ref: "artefact://generated/notes", media_type: "text/plain", role: "supporting" });
      const constraints = filled("constraints", g.constraints, "generated");
      const decisions = filled("decisions", g.decisions, { id: "d", statement: "s", rationale: "r", confidence: 1, reversible: true });
      if (decisions !== undefined) envelope["decisions"] = decisions;
      const outOfScope = filled("goal.out_of_scope", g.outOfScope, "generated");
      if (outOfScope !== undefined) goal["out_of_scope"] = outOfScope;
      if (artefacts !== undefined) envelope["artefacts"] = artefacts;
      if (constraints !== undefined) envelope["constraints"] = constraints;
      if (g.questions !== undefined) envelope["open_questions"] = g.questions;
      if (g.status !== undefined || needs("status")) envelope["status"] = g.status ?? "ready";
      return { envelope, me: g.edge.to };
    });
}

/** For each agent, a shortest walk from an entry to it (agents first, as `hop.path` lists them). */
function shortestWalks(graph: CheckedGraph): Map<string, string[]> {
  const walks = new Map<string, string[]>(graph.entries.map((entry) => [entry, [entry]]));
  const queue = [...graph.entries];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const edge of graph.edges) {
      if (edge.from !== next || walks.has(edge.to)) continue;
      walks.set(edge.to, [...(walks.get(next) as string[]), edge.to]);
      queue.push(edge.to);
    }
  }
  return walks;
}

/** Every JSON Pointer token path into `value` (the root excluded). */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((item, i) => (out.push([...at, i]), paths(item, [...at, i], out)));
  else if (value !== null && typeof value === "object") for (const [key, item] of Object.entries(value)) out.push([...at, key]), paths(item, [...at, key], out);
  return out;
}

const edgeStrings = fc.constantFrom(
  "",
  "1",
  "not-a-uuid",
  "2026-13-01T00:00:00Z",
  "2026-02-30T10:00:00Z",
  "2026-12-01T09:00:00",
  "2026-12-01 09:00:00Z",
  "relative/ref",
  "http://exa mple.com",
  "sha256:ABC",
  "1.3",
  "01.3.0",
  "x".repeat(2001),
  "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b3",
  "urn:uuid:0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
  "{0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39}",
);
const edgeNumbers = fc.constantFrom(-1, 0.5, 1e308, 2 ** 53, 2 ** 53 - 1, -0, 1.0000001, 0, 1, 7, 100);

type Mutation = (target: JsonObject | Json[], key: string | number) => void;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>((target, key) => {
    if (Array.isArray(target)) target.splice(key as number, 1);
    else delete target[key as string];
  }),
  fc.jsonValue({ maxDepth: 2 }).map<Mutation>((value) => (target, key) => void ((target as Record<string | number, Json>)[key] = value as Json)),
  edgeStrings.map<Mutation>((value) => (target, key) => void ((target as Record<string | number, Json>)[key] = value)),
  edgeNumbers.map<Mutation>((value) => (target, key) => void ((target as Record<string | number, Json>)[key] = value)),
  fc
    .tuple(text(1, 8), fc.jsonValue({ maxDepth: 1 }))
    .map<Mutation>(([name, value]) => (target, key) => {
      const inner = (target as Record<string | number, Json>)[key];
      if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) inner[name] = value as Json;
      else (target as Record<string | number, Json>)[key] = { [name]: value as Json };
    }),
);

/** A valid envelope with 1 to 3 mutations at random fields (or at the root's fields). */
export function mutatedEnvelope(graph: CheckedGraph): fc.Arbitrary<{ envelope: JsonObject; me: string }> {
  return fc
    .tuple(validEnvelope(graph), fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }))
    .map(([{ envelope, me }, changes]) => {
      const copy = JSON.parse(JSON.stringify(envelope)) as JsonObject;
      for (const [pick, change] of changes) {
        const all = paths(copy);
        if (all.length === 0) break;
        const path = all[pick % all.length] as (string | number)[];
        let parent: Json = copy;
        for (const token of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[token] as Json;
        change(parent as JsonObject | Json[], path[path.length - 1] as string | number);
      }
      return { envelope: copy, me };
    });
}
