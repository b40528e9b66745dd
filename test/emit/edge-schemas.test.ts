import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { envelopeSchema, envelopeSchemaFor, type JsonSchema } from "../../src/core/envelope-schema.js";
import { contractOverlaySchema, edgeSchema } from "../../src/emit/edge-schemas.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { addGraphSchemas, createSchemaAjv } from "../../src/emit/schema-compiler.js";
import { schemaErrorToReason } from "../../src/runtime/reason.js";
import { formats } from "../../src/runtime/schema-helpers.js";

const { default: Ajv2020 } = Ajv2020Module;
import { checkedGraph, clone, readJsonFixture, refundDesk } from "./helpers.js";

type Envelope = Record<string, any>;

const SEED_120_ENVELOPE = {
  envelope_version: "1.2.0",
  handoff_id: "6f1b2c9e-3a44-4d0f-9c21-8f5b0a7de311",
  task_id: "dd-2026-08-0417",
  hop: { index: 2, limit: 6, path: ["intake", "research", "drafting"] },
  from_agent: { id: "research-agent", role: "worker", version: "3.1.0" },
  to_agent: { id: "drafting-agent", role: "worker", version: "2.4.1" },
  goal: { statement: "Draft a memo.", acceptance_criteria: ["Cites artefacts"], out_of_scope: ["Pricing"] },
  decisions: [{ id: "d-01", statement: "UK entity", rationale: "PO from London", confidence: 0.9, reversible: true, evidence: ["artefact://x/po"] }],
  artefacts: [
    {
      ref: "artefact://dd/extract",
      media_type: "application/json",
      role: "required",
      digest: `sha256:${"ab".repeat(32)}`,
      byte_size: 18422,
      summary: "Registry extract.",
      read_scope: "dd.artefacts.read",
    },
  ],
  constraints: ["Stay in eu-west-2"],
  budget: { consumed: { tokens: 184000, wall_clock_ms: 96400, tool_calls: 31, retries: 2, cost_micros: 412000 }, limit: { tokens: 600000 } },
  open_questions: [{ question: "Same entity?", blocking: true, owner_hint: "human-reviewer" }],
  provenance: [{ agent: "intake-agent", action: "normalised", at: "2026-08-04T09:12:04Z", status: "verified", note: "ok" }],
};

function compile(schema: JsonSchema): (data: unknown) => boolean {
  const ajv = createSchemaAjv();
  return ajv.compile(schema as object);
}

function errorsOf(schema: JsonSchema, data: unknown): string[] {
  const ajv = createSchemaAjv();
  const validate = ajv.compile(schema as object);
  validate(data);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`);
}

describe("the envelope schema (1.3)", () => {
  it("compiles in Ajv strict mode and is closed everywhere", () => {
    expect(() => compile(envelopeSchema)).not.toThrow();
    const open: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (typeof node !== "object" || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema["type"] === "object" && schema["additionalProperties"] !== false) open.push(at);
      for (const [key, value] of Object.entries(schema)) visit(value, `${at}/${key}`);
    };
    visit(envelopeSchema, "");
    expect(open).toEqual([]);
  });

  it("accepts a 1.2.0 envelope, every optional field filled", () => {
    expect(errorsOf(envelopeSchema, SEED_120_ENVELOPE)).toEqual([]);
  });

  it("accepts the four 1.3 fields", () => {
    const envelope = { ...clone(SEED_120_ENVELOPE), envelope_version: "1.3.0", status: "waiting_review", allowed_next_step: "draft", safe_resume: "reuse", blocked_on: "dates" };
    expect(errorsOf(envelopeSchema, envelope)).toEqual([]);
  });

  it.each([
    ["a uuid", { handoff_id: "6f1b2c9e" }, "/handoff_id format"],
    ["a date-time", { provenance: [{ agent: "a", action: "b", at: "2026-08-04 09:12", status: "verified" }] }, "/provenance/0/at format"],
    ["a uri", { artefacts: [{ ref: "not a uri", media_type: "text/plain", role: "required" }] }, "/artefacts/0/ref format"],
    ["the digest pattern", { artefacts: [{ ref: "artefact://a", media_type: "text/plain", role: "required", digest: "sha256:XYZ" }] }, "/artefacts/0/digest pattern"],
    ["a status", { status: "COMPLETE" }, "/status enum"],
  ])("checks %s", (_what, change, expected) => {
    const errors = errorsOf(envelopeSchema, { ...clone(SEED_120_ENVELOPE), ...change });
    expect(errors.map((e) => e.split(" ").slice(0, 2).join(" "))).toEqual([expected]);
  });
});

describe("contract overlays and per-edge schemas", () => {
  const graph = refundDesk();
  const valid = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;

  it("puts each required path at the right depth, through arrays' items, stating only what the envelope does not", () => {
    const overlay = contractOverlaySchema(graph, ["decisions[].rationale", "goal.out_of_scope", "status", "artefacts[]"], "urn:test") as Record<string, any>;
    // goal is required by the envelope already, and so is a decision's rationale: neither is restated.
    expect(overlay["required"]).toEqual(["status", "artefacts"]);
    expect(overlay["properties"]["goal"]).toEqual({ required: ["out_of_scope"], properties: { out_of_scope: { minItems: 1 } } });
    expect(overlay["properties"]).not.toHaveProperty("decisions");
    expect(overlay["properties"]["artefacts"]).toEqual({ minItems: 1 });
    expect(overlay["properties"]["hop"]).toEqual({ required: ["path"], properties: { path: true, limit: { type: "integer", maximum: 8 } } });
    expect(overlay).not.toHaveProperty("type");
  });

  it("makes a validator report each fault of a flooded array once", () => {
    const schemas = addGraphSchemas(graph);
    const validate = schemas.ajv.getSchema(schemas.contracts[schemas.edgeContracts[2] as number]?.id ?? "");
    if (validate === undefined) throw new Error("no contract validator");
    const flooded = { ...clone(valid), decisions: Array.from({ length: 50 }, () => 1), goal: { ...clone(valid)["goal"], out_of_scope: [] } };
    expect(validate(flooded)).toBe(false);
    const faults = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(faults.filter((f) => f.startsWith("/decisions/"))).toHaveLength(50);
    expect(new Set(faults).size).toBe(faults.length);
  });

  it("pins ids and roles, requires the contract and caps hop.limit in each per-edge file", () => {
    const edge = graph.edges[2];
    if (edge === undefined) throw new Error("no edge");
    const schema = edgeSchema(graph, edge, "urn:seam-handoff:schema:test") as Record<string, any>;
    expect(schema["properties"]["from_agent"]["properties"]["id"]).toEqual({ type: "string", const: "triage" });
    expect(schema["properties"]["to_agent"]["properties"]["role"]).toEqual({ const: "worker" });
    expect(schema["properties"]["goal"]["required"]).toEqual(["statement", "acceptance_criteria", "out_of_scope"]);
    expect(schema["properties"]["hop"]["required"]).toEqual(["index", "limit", "path"]);
    expect(schema["properties"]["hop"]["properties"]["limit"]).toEqual({
      description: "The graph's hop limit: ingest refuses the envelope when index reaches it.",
      type: "integer",
      minimum: 1,
      maximum: 8,
    });
    expect(schema["additionalProperties"]).toBe(false);
    expect(errorsOf(schema, { ...clone(valid), to_agent: { id: "refunds", role: "worker" }, hop: { index: 1, limit: 8, path: ["triage", "refunds"] } })).toEqual([
      `/goal required {"missingProperty":"out_of_scope"}`,
    ]);
    expect(errorsOf(schema, valid).map((e) => e.split(" ").slice(0, 2).join(" "))).toEqual(["/to_agent/id const", "/goal required"]);
  });

  it("gives the per-edge files the verdicts of the runtime's schema check", () => {
    const accept = createGraphAccept(graph).accept;
    const back = readJsonFixture("cases", "envelopes", "return-without-status.json") as Envelope;
    const cases: [number, Envelope, string][] = [
      [1, back, "triage"],
      [0, valid, "billing"],
      [0, { ...clone(valid), payload: 1, hop: { index: "1", limit: 9 } }, "billing"],
    ];
    for (const [edgeIndex, envelope, me] of cases) {
      const edge = graph.edges[edgeIndex];
      if (edge === undefined) throw new Error("no edge");
      const validate = createSchemaAjv().compile(edgeSchema(graph, edge, "urn:seam-handoff:schema:test") as object);
      validate(envelope);
      const fromFile = (validate.errors ?? []).map((e) => schemaErrorToReason(e)).map((r) => `${r.path} ${r.rule}`);
      const result = accept(envelope, { me });
      const fromRuntime = result.ok ? [] : result.rejection.reasons.map((r) => `${r.path} ${r.rule}`);
      expect(fromFile.sort()).toEqual(fromRuntime.sort());
    }
  });

  it("requires nested fields below a $ref (inlined for that edge only)", () => {
    const withVersion = checkedGraph(`graph v {
      entry a
      agent a: supervisor { terminal done }
      agent b: worker
      delegate a -> b { max_rounds 1 require to_agent.version, budget.consumed.tokens }
      return b -> a
    }`);
    const edge = withVersion.edges[0];
    if (edge === undefined) throw new Error("no edge");
    const schema = edgeSchema(withVersion, edge, "urn:seam-handoff:schema:v") as Record<string, any>;
    expect(schema["properties"]["to_agent"]["required"]).toEqual(["id", "role", "version"]);
    expect(schema["properties"]["budget"]["properties"]["consumed"]["required"]).toEqual(["tokens"]);
    expect(schema["properties"]["budget"]["properties"]["limit"]).toEqual({
      description: "The most the task may use.",
      $ref: "#/$defs/budget_counters",
    });
    expect(() => compile(schema)).not.toThrow();
  });
});

describe("the envelope schemas", () => {
  // The schema compiler relaxes strictTypes for contract overlays, which state no types: the
  // envelope schemas themselves are held to it here.
  it.each([0, 1, 2, 3, 4])("of version 1.%i compile under Ajv's strictTypes", (minor) => {
    const ajv = new Ajv2020({ strict: true, strictTypes: true, allErrors: true, formats });
    expect(() => ajv.compile(envelopeSchemaFor({ major: 1, minor }) as object)).not.toThrow();
  });
});
