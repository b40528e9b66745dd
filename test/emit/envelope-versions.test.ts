import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import {
  ENVELOPE_SCHEMA_ID,
  envelopeSchema,
  envelopeSchemaFor,
  envelopeSchemaIdFor,
  type JsonSchema,
} from "../../src/core/envelope-schema.js";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { contractOverlaySchema, edgeSchema } from "../../src/emit/edge-schemas.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { checkedGraph, clone, readJsonFixture } from "./helpers.js";

const NEW_IN_1_3 = ["status", "allowed_next_step", "safe_resume", "blocked_on"];
const NEW_IN_1_4 = ["approval"];
const fields = (schema: JsonSchema): string[] => Object.keys(schema["properties"] as object);

const desk = (version: string, require = "") =>
  checkedGraph(
    [
      "graph desk {",
      `  envelope ${version}`,
      "  entry triage",
      "  agent triage: supervisor { terminal done }",
      "  agent billing: worker",
      `  delegate triage -> billing { max_rounds 2${require} }`,
      "  return billing -> triage",
      "}",
    ].join("\n"),
  );

describe("envelope versions", () => {
  it("1.0, 1.1 and 1.2 hold the 1.2.0 fields; 1.3 adds status, allowed_next_step, safe_resume and blocked_on; 1.4 the approval record", () => {
    const all = fields(envelopeSchema);
    for (const minor of [0, 1, 2, 3]) {
      const schema = envelopeSchemaFor({ major: 1, minor });
      const later = minor < 3 ? [...NEW_IN_1_3, ...NEW_IN_1_4] : NEW_IN_1_4;
      expect(fields(schema)).toEqual(all.filter((f) => !later.includes(f)));
      expect(schema["$id"]).toBe(envelopeSchemaIdFor({ major: 1, minor }));
      expect(schema["title"]).toBe(`Seam handoff envelope 1.${minor}`);
    }
    expect(envelopeSchemaFor({ major: 1, minor: 4 })).toBe(envelopeSchema);
    expect(envelopeSchemaIdFor({ major: 1, minor: 4 })).toBe(ENVELOPE_SCHEMA_ID);
    expect(new Set([0, 1, 2, 3, 4].map((minor) => envelopeSchemaIdFor({ major: 1, minor }))).size).toBe(5);
    expect(() => envelopeSchemaFor({ major: 1, minor: 5 })).toThrow("no envelope schema for version 1.5");
  });

  it("keeps the 1.3 schema as it was before 1.4: the same JSON, key for key", () => {
    const before = readFileSync(new URL("../fixtures/envelope/envelope-1.3.schema.json", import.meta.url), "utf8");
    expect(`${JSON.stringify(envelopeSchemaFor({ major: 1, minor: 3 }), null, 2)}\n`).toBe(before);
  });

  it("a graph without an envelope line still targets 1.3, so its schemas do not change", () => {
    const graph = checkText("d.seam", "graph d {\n  entry a\n  agent a: peer { terminal t }\n}\n").graphs[0];
    expect(graph?.envelope).toEqual({ major: 1, minor: 3 });
  });

  it("compile writes the declared version's schema, not 1.3's", () => {
    const [v10] = emitCompileOutput([desk("1.0")]);
    const [v13] = emitCompileOutput([desk("1.3")]);
    const [v14] = emitCompileOutput([desk("1.4")]);
    expect(JSON.parse(v10?.content ?? "{}")).toEqual(envelopeSchemaFor({ major: 1, minor: 0 }));
    expect(JSON.parse(v13?.content ?? "{}")).toEqual(envelopeSchemaFor({ major: 1, minor: 3 }));
    expect(JSON.parse(v14?.content ?? "{}")).toEqual(envelopeSchema);
    expect(v10?.content).not.toBe(v13?.content);
  });

  it("a 1.2 graph refuses a 1.3 field and its return edge does not require status", () => {
    const graph = desk("1.2");
    expect(graph.edges[1]?.require).toEqual(["artefacts"]);
    const { accept } = createGraphAccept(graph);
    const valid = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, unknown>;
    const envelope = { ...clone(valid), from_agent: { id: "triage", role: "supervisor" }, to_agent: { id: "billing", role: "worker" }, hop: { index: 1, limit: 5, path: ["triage", "billing"] }, constraints: ["c"] };
    expect(accept(envelope, { me: "billing" })).toMatchObject({ ok: true });
    const withStatus = accept({ ...envelope, status: "ready" }, { me: "billing" });
    expect(withStatus.ok).toBe(false);
    expect(edgeSchema(graph, graph.edges[0]!, "urn:e")["properties"]).not.toHaveProperty("status");
    expect(contractOverlaySchema(graph, ["constraints"], "urn:c")["$ref"]).toBe(envelopeSchemaIdFor({ major: 1, minor: 2 }));
  });
});

describe("a required array needs an item", () => {
  it("require constraints is not met by []", () => {
    const graph = desk("1.3");
    const { accept } = createGraphAccept(graph);
    const valid = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, unknown>;
    const envelope = { ...clone(valid), from_agent: { id: "triage", role: "supervisor" }, to_agent: { id: "billing", role: "worker" }, hop: { index: 1, limit: 5, path: ["triage", "billing"] } };
    expect(accept({ ...envelope, constraints: ["within policy"] }, { me: "billing" })).toMatchObject({ ok: true });
    const empty = accept({ ...envelope, constraints: [] }, { me: "billing" });
    expect(empty.ok).toBe(false);
    const schema = edgeSchema(graph, graph.edges[0]!, "urn:e") as { properties: Record<string, unknown> };
    expect(schema.properties["constraints"]).toEqual({
      description: "Rules the receiver must keep to while working on the task.",
      type: "array",
      items: { type: "string" },
      minItems: 1,
    });
  });
});
