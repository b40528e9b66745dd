/**
 * Whatever `accept()` passes, every other runtime function handles without throwing: loop
 * signatures (RFC 8785 canonical JSON, which cannot encode unpaired surrogates), the loop
 * detector, the envelope builder and serialising the verdict. Generated envelopes include
 * unpaired surrogates, deep nesting and any JSON at any field, on an observe edge too (where
 * content faults are accepted as warnings).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import type { Envelope } from "../../src/runtime/envelope.js";
import { createLoopDetector } from "../../src/runtime/loop-detector.js";
import { createLoopSignature } from "../../src/runtime/loop-signature.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, projectRoot, refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "./envelope-arbitrary.js";

// The conformance suite's observe graph: content faults on a -> b are accepted as warnings.
const observed = checkedGraph(readFileSync(join(projectRoot, "conformance", "observe", "graph.seam"), "utf8"));

/** Text that is not Unicode, and values nested past any schema, placed at a random field. */
const hostile = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 6 }),
  fc.constantFrom("\ud800", "a\udc00b", "\udbff\udbff", "\u001b[2J\u0000"),
  fc.nat({ max: 200 }).map((depth) => {
    let value: unknown = "deep";
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  }),
);

function withHostile(graph: CheckedGraph): fc.Arbitrary<{ envelope: Record<string, unknown>; me: string }> {
  return fc
    .tuple(fc.oneof(validEnvelope(graph), mutatedEnvelope(graph)), hostile, fc.constantFrom("goal/statement", "decisions", "constraints/0", "task_id", "goal", "new"), fc.boolean())
    .map(([{ envelope, me }, value, where, apply]) => {
      if (!apply) return { envelope, me };
      const parts = where.split("/");
      let target: any = envelope;
      for (const part of parts.slice(0, -1)) target = target?.[part];
      if (target !== null && typeof target === "object") target[parts[parts.length - 1] as string] = value;
      return { envelope, me };
    });
}

function checkAfterAccept(graph: CheckedGraph): void {
  const { accept } = createGraphAccept(graph);
  const signature = createLoopSignature(graph.loopSignature);
  const detector = createLoopDetector(signature);
  const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges: toEdgeInfos(graph, graph.edges.map(() => 0)) });
  // Random hops of random tasks: one receiver's view, where a hop whose earlier hops are missing is a gap.
  const seen = createMemorySeenStore({ scope: "receiver" });
  const successors = new Map<string, string>(graph.edges.map((edge) => [edge.from, edge.to]));
  let accepted = 0;
  fc.assert(
    fc.property(withHostile(graph), ({ envelope, me }) => {
      const result = accept(envelope, { me, seen });
      expect(() => JSON.stringify(result)).not.toThrow();
      if (!result.ok) return;
      accepted++;
      expect(signature(envelope)).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(detector.observe(envelope)).toMatchObject({ agent: me });
      detector.forget(result.record.task_id);
      const to = successors.get(me);
      const received = envelope as unknown as Envelope;
      if (to !== undefined && received.hop.index + 1 < graph.hopLimit.value!) {
        const next = builder.next(received, { me, to, action: "checked" });
        expect(next.hop.index).toBe(received.hop.index + 1);
      }
    }),
    { numRuns: 3_000, seed: 7 },
  );
  // Not vacuous: a good share of the generated envelopes is accepted.
  expect(accepted).toBeGreaterThan(300);
}

describe("every runtime function handles what accept() passes", () => {
  it("on the refund desk", () => checkAfterAccept(refundDesk()), 120_000);
  it("on an observe edge, where content faults are accepted as warnings", () => checkAfterAccept(observed), 120_000);
});
