/**
 * Differential test of the runtime's schema verdicts against an independent JSON Schema
 * implementation, @cfworker/json-schema (draft 2020-12, its own format checks, no code
 * generation): over 10^4 generated envelopes, valid ones and mutations of them, `accept()` finds
 * a schema error exactly when the independent validator rejects the edge's contract schema.
 */
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { envelopeSchema } from "../../src/core/envelope-schema.js";
import { contractSchema } from "../../src/emit/edge-schemas.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { SEMANTIC_RULES } from "../../src/runtime/reason.js";
import { refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "./envelope-arbitrary.js";

const graph = refundDesk();
const { accept } = createGraphAccept(graph);
const envelopeValidator = new Validator(envelopeSchema as object, "2020-12", false);
const semantic = new Set(Object.keys(SEMANTIC_RULES));
const validators = new Map(
  graph.edges.map((edge) => [
    `${edge.from}->${edge.to}`,
    new Validator(contractSchema(graph, edge.require, `urn:seam-handoff:schema:test:${edge.from}-${edge.to}`) as object, "2020-12", false),
  ]),
);

function verdicts(envelope: Record<string, unknown>, me: string): { seam: boolean; independent: boolean; rules: string[] } {
  const from = (envelope["from_agent"] as { id?: unknown } | undefined)?.id;
  const to = (envelope["to_agent"] as { id?: unknown } | undefined)?.id;
  const result = accept(envelope, { me });
  const reasons = result.ok ? result.record.warnings : result.rejection.reasons;
  const schemaReasons = reasons.filter((r) => !semantic.has(r.rule));
  // Mutations may rename either end: with no such edge, both check the envelope schema alone.
  const validator = validators.get(`${String(from)}->${String(to)}`) ?? envelopeValidator;
  return { seam: schemaReasons.length === 0, independent: validator.validate(envelope).valid, rules: schemaReasons.map((r) => `${r.path} ${r.rule}`) };
}

describe("schema verdicts agree with @cfworker/json-schema", () => {
  it("on 2,000 valid envelopes", () => {
    fc.assert(
      fc.property(validEnvelope(graph), ({ envelope, me }) => {
        const v = verdicts(envelope, me);
        expect(v.rules).toEqual([]);
        expect(v.independent).toBe(true);
      }),
      { numRuns: 2_000, seed: 20261130 },
    );
  }, 120_000);

  it("on 8,000 mutated envelopes", () => {
    let rejected = 0;
    fc.assert(
      fc.property(mutatedEnvelope(graph), ({ envelope, me }) => {
        const v = verdicts(envelope, me);
        if (!v.independent) rejected++;
        expect({ seam: v.seam, rules: v.rules }).toEqual({ seam: v.independent, rules: v.rules });
      }),
      { numRuns: 8_000, seed: 20261201 },
    );
    // Most mutations break the schema; the test would be vacuous if none did.
    expect(rejected).toBeGreaterThan(4_000);
  }, 240_000);
});
