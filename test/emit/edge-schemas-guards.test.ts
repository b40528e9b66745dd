/**
 * Guards, floors and gates in the emitted edge schemas, on the payout that went on while its
 * approval was still pending (microsoft/agent-framework#5035): the schema of the edge to the
 * payer refuses it at /status, refuses a decision below the floor at its confidence, and asks for
 * the approval record; the compiled validators (JavaScript) refuse a handoff leaving the gate
 * without one at /approval.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { edgeSchema, floorSchema, guardSchema } from "../../src/emit/edge-schemas.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { createSchemaAjv } from "../../src/emit/schema-compiler.js";
import { clone, readJsonFixture } from "./helpers.js";

const text = readFileSync(new URL("../fixtures/guards/payout-pending.seam", import.meta.url), "utf8");
const graph = checkText("payouts.seam", text).graphs[0];
if (graph === undefined) throw new Error("no graph");
const toPayer = graph.edges.find((e) => e.to === "payer");
const back = graph.edges.find((e) => e.kind === "return");
if (toPayer === undefined || back === undefined) throw new Error("no edges");

const APPROVAL = { approver: "finance-lead", approved_at: "2026-12-01T09:05:00Z", pending_handoff_id: "1c6d4f9a-7b2e-4f3c-8a81-3e5d9b2f6c4a" };

/** A valid envelope from the approver to the payer, edited by `change`. */
function payout(change: (e: Record<string, unknown>) => void = () => {}): Record<string, unknown> {
  const envelope = clone(readJsonFixture("cases", "envelopes", "valid-delegate.json")) as Record<string, unknown>;
  Object.assign(envelope, {
    envelope_version: "1.4.0",
    from_agent: { id: "approver", role: "worker" },
    to_agent: { id: "payer", role: "worker" },
    hop: { index: 2, limit: 4, path: ["desk", "approver", "payer"] },
    status: "ready",
    approval: APPROVAL,
    decisions: [{ id: "amount", statement: "pay 120 EUR", rationale: "invoice 7", confidence: 0.9, reversible: false }],
    artefacts: [{ ref: "artefact://invoice/7", media_type: "application/pdf", role: "required" }],
  });
  change(envelope);
  return envelope;
}

/** The instance paths and keywords the edge schema refuses `envelope` with. */
function refusals(envelope: unknown): [string, string][] {
  const validate = createSchemaAjv().compile(edgeSchema(graph!, toPayer!, "urn:test:payer") as object);
  if (validate(envelope)) return [];
  return (validate.errors ?? []).map((e) => [e.instancePath, e.keyword]);
}

describe("edge schemas of guarded and gated edges", () => {
  it("require what the guard reads and the approval record leaving the gate", () => {
    expect(toPayer.require).toEqual(["approval", "artefacts", "decisions", "status"]);
    expect(back.require).toEqual(["approval", "artefacts", "status"]);
  });

  it("accept the approved payout", () => {
    expect(refusals(payout())).toEqual([]);
  });

  it("refuse the payout still waiting for review at /status", () => {
    const pending = refusals(payout((e) => (e["status"] = "waiting_review")));
    expect(pending.filter(([path]) => path === "/status").map(([, keyword]) => keyword)).toEqual(expect.arrayContaining(["enum", "not"]));
    expect(pending.every(([path]) => path === "/status" || path === "")).toBe(true);
  });

  it("refuse a decision below the floor at its confidence, and a payout without the approval record", () => {
    expect(refusals(payout((e) => ((e["decisions"] as { confidence: number }[])[0]!.confidence = 0.7)))).toEqual([["/decisions/0/confidence", "minimum"]]);
    expect(refusals(payout((e) => delete e["approval"]))).toEqual([["", "required"]]);
  });

  it("state otherwise as no earlier route taking the envelope: its guard matching and its floor holding", () => {
    const schema = edgeSchema(graph, back, "urn:test:back");
    expect(schema["allOf"]).toEqual([
      { type: "object", not: { anyOf: [{ type: "object", allOf: [guardSchema(toPayer.guard!), floorSchema(toPayer.minConfidence!)] }] } },
      { type: "object", properties: { status: { type: "string", not: { const: "waiting_review" } } } },
    ]);
    expect(guardSchema(toPayer.guard!)).toEqual({
      type: "object",
      allOf: [{ type: "object", required: ["status"], properties: { status: { type: "string", enum: ["ready"] } } }],
    });
    expect(floorSchema({ value: 0.8, decisions: ["amount"] })).toEqual({
      type: "object",
      properties: {
        decisions: {
          type: "array",
          items: {
            type: "object",
            if: { type: "object", required: ["id"], properties: { id: { type: "string", enum: ["amount"] } } },
            then: { type: "object", properties: { confidence: { type: "number", minimum: 0.8 } } },
          },
        },
      },
    });
  });

  it("leave the compiled validators asking for the approval record: accept() refuses its absence at /approval", () => {
    const { accept } = createGraphAccept(graph);
    expect(accept(payout(), { me: "payer" })).toMatchObject({ ok: true });
    const missing = accept(payout((e) => delete e["approval"]), { me: "payer" });
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expect(missing.rejection.reasons.map((r) => r.path)).toEqual(["/approval"]);
  });
});

describe("a confidence guard as JSON Schema", () => {
  it("matches exactly the envelopes whose lowest decision confidence passes the comparison", () => {
    const ajv = createSchemaAjv();
    fc.assert(
      fc.property(
        fc.constantFrom("<" as const, "<=" as const, ">" as const, ">=" as const),
        fc.constantFrom(0, 0.5, 0.8, 1),
        fc.array(fc.constantFrom(0, 0.3, 0.5, 0.79, 0.8, 0.81, 1), { minLength: 1, maxLength: 4 }),
        (operator, value, confidences) => {
          const validate = ajv.compile(guardSchema({ otherwise: false, conditions: [{ subject: "confidence", operator, value }] }) as object);
          const lowest = Math.min(...confidences);
          const expected = operator === "<" ? lowest < value : operator === "<=" ? lowest <= value : operator === ">" ? lowest > value : lowest >= value;
          expect(validate({ decisions: confidences.map((confidence) => ({ confidence })) })).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
