import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { emitValidatorModule, rewriteAjvRequires } from "../../src/emit/validator-module.js";
import { createLoopSignature } from "../../src/runtime/loop-signature.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { ensureBuilt } from "../global-setup.js";
import { checkedGraph, clone, makeTempDir, projectRoot, readFixture, readJsonFixture, refundDesk, removeTempDirs } from "./helpers.js";

type Envelope = Record<string, any>;

/** A Node script that loads a validator module and reports what it exports and decides. */
const DRIVER = `
import { readFileSync } from "node:fs";
const [moduleUrl, inputPath] = process.argv.slice(2);
const m = await import(moduleUrl);
const { deliveries } = JSON.parse(readFileSync(inputPath, "utf8"));
const seen = m.createMemorySeenStore();
const detector = m.createLoopDetector();
const results = deliveries.map(({ envelope, me }) => m.accept(envelope, { me, seen, now: () => 0 }));
const loops = deliveries.map(({ envelope }) => detector.observe(envelope)?.loop ?? null);
const signatures = deliveries.map(({ envelope }) => m.loopSignature(envelope));
const survives = [null, [], "x", 1].map((input) => m.accept(input, { me: m.agents[0].id }).ok);
console.log(JSON.stringify({
  exports: Object.keys(m).sort(),
  graph: m.graph, hopLimit: m.hopLimit, agents: m.agents, edges: m.edges,
  results, loops, signatures, survives,
}));
`;

interface DriverOutput {
  exports: string[];
  graph: unknown;
  hopLimit: number;
  agents: unknown;
  edges: unknown;
  results: unknown[];
  loops: (boolean | null)[];
  signatures: string[];
  survives: boolean[];
}

interface Delivery {
  envelope: unknown;
  me: string;
}

function writeModule(graph: CheckedGraph, prefix: string): { dir: string; file: string } {
  const dir = makeTempDir(prefix);
  const emitted = emitValidatorModule(graph);
  const file = join(dir, "validators.mjs");
  writeFileSync(file, emitted.module);
  writeFileSync(join(dir, "validators.d.mts"), emitted.declarations);
  return { dir, file };
}

function drive(dir: string, moduleFile: string, deliveries: readonly Delivery[]): DriverOutput {
  const driver = join(dir, "driver.mjs");
  const input = join(dir, "input.json");
  writeFileSync(driver, DRIVER);
  writeFileSync(input, JSON.stringify({ deliveries }));
  const out = execFileSync(process.execPath, [driver, pathToFileURL(moduleFile).href, input], { cwd: dir, encoding: "utf8" });
  return JSON.parse(out) as DriverOutput;
}

/** What the in-memory validators decide for the same deliveries (the reference behaviour). */
function inMemory(graph: CheckedGraph, deliveries: readonly Delivery[]): unknown[] {
  const accept = createGraphAccept(graph).accept;
  const seen = createMemorySeenStore();
  return deliveries.map(({ envelope, me }) => JSON.parse(JSON.stringify(accept(envelope, { me, seen, now: () => 0 }))));
}

const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;

function refundDeliveries(): Delivery[] {
  const back = clone(base);
  back["handoff_id"] = "5d0e7a21-3c4b-4f8a-b1d2-9e6f0a7c3b54";
  back["hop"] = { index: 2, limit: 8, path: ["triage", "billing", "triage"] };
  back["from_agent"] = { id: "billing", role: "worker" };
  back["to_agent"] = { id: "triage", role: "supervisor" };
  back["status"] = "blocked";
  back["artefacts"] = [{ ref: "s3://bucket/memo.md", media_type: "text/markdown", role: "required" }];
  const second = clone(base);
  second["handoff_id"] = "7e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b";
  second["hop"] = { index: 3, limit: 8, path: ["triage", "billing", "triage", "billing"] };
  return [
    { envelope: base, me: "billing" },
    { envelope: base, me: "billing" },
    { envelope: back, me: "triage" },
    { envelope: second, me: "billing" },
    { envelope: { ...clone(base), payload: 1, hop: { index: "1", limit: 8 } }, me: "billing" },
    { envelope: readJsonFixture("cases", "envelopes", "return-without-status.json"), me: "triage" },
  ];
}

const EXPORTS = [
  "accept",
  "acceptAsync",
  "agents",
  "createLoopDetector",
  "createMemorySeenStore",
  "edges",
  "finish",
  "finishAsync",
  "firstEnvelope",
  "graph",
  "hopLimit",
  "joinEnvelope",
  "joinState",
  "joinStateAsync",
  "loopSignature",
  "nextEnvelope",
  "validateEnvelope",
  "validate_delegate__triage__billing",
  "validate_delegate__triage__refunds",
  "validate_return__billing__triage",
  "validate_transfer__refunds__notifier",
];

describe("emitted validator module", () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(() => removeTempDirs());

  it("has no require() left and imports its helpers from seam-handoff/runtime", () => {
    const { module } = emitValidatorModule(refundDesk());
    expect(module).not.toMatch(/\brequire\s*\(/);
    expect(module).toMatch(/^import \{ [^}]*ucs2length as \$seam_ucs2length[^}]*\} from "seam-handoff\/runtime";$/m);
    expect(module).toMatch(/formats as \$seam_formats/);
  });

  it("loads in plain Node ESM and decides exactly like the in-memory validators", () => {
    const graph = refundDesk();
    const { dir, file } = writeModule(graph, "module-node");
    const deliveries = refundDeliveries();
    const out = drive(dir, file, deliveries);
    expect(out.exports).toEqual(EXPORTS);
    expect(out.hopLimit).toBe(8);
    expect(out.graph).toEqual({
      name: "refund_desk",
      envelope: { major: 1, minor: 3 },
      entries: ["triage"],
      hopLimit: 8,
      onHopLimit: "escalate",
      loopSignature: ["goal.statement", "decisions[].statement"],
    });
    expect(out.edges).toEqual([
      { kind: "delegate", from: "triage", to: "billing", observe: false, maxRounds: 2, require: ["constraints"], contract: 0 },
      { kind: "return", from: "billing", to: "triage", observe: false, require: ["artefacts", "status"], contract: 1 },
      {
        kind: "delegate",
        from: "triage",
        to: "refunds",
        observe: false,
        maxRounds: 1,
        require: ["constraints", "goal.out_of_scope"],
        contract: 2,
      },
      { kind: "transfer", from: "refunds", to: "notifier", observe: false, require: ["artefacts", "decisions"], contract: 3 },
    ]);
    expect(out.results).toEqual(inMemory(graph, deliveries));
    expect(out.results.map((r) => (r as { ok: boolean }).ok)).toEqual([true, false, true, true, false, false]);
    expect((out.results[1] as { duplicate: boolean }).duplicate).toBe(true);
    expect((out.results[2] as { record: { route: string } }).record.route).toBe("human_input");
    expect(out.survives).toEqual([false, false, false, false]);
    const signature = createLoopSignature(["goal.statement", "decisions[].statement"]);
    expect(out.signatures).toEqual(deliveries.map((d) => signature(d.envelope)));
    // billing, then triage, receive the same goal again: the loop detector notices.
    expect(out.loops).toEqual([false, true, false, true, true, true]);
  });

  it("loads from an esbuild bundle (platform node) and decides the same", async () => {
    const graph = refundDesk();
    const { dir, file } = writeModule(graph, "module-bundle");
    const bundle = join(dir, "bundle.mjs");
    await build({
      entryPoints: [file],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundle,
      absWorkingDir: projectRoot,
      logLevel: "silent",
    });
    const deliveries = refundDeliveries();
    const out = drive(dir, bundle, deliveries);
    expect(out.exports).toEqual(EXPORTS);
    expect(out.results).toEqual(inMemory(graph, deliveries));
  });

  it("stays safe with hostile agent ids and strings (__proto__, quotes, backticks, ${, */, </script>, U+2028)", () => {
    const graph = checkedGraph(readFixture("emit", "tricky-names.seam"), "tricky-names.seam");
    const emitted = emitValidatorModule(graph);
    expect(emitted.module).not.toMatch(/[\u2028\u2029]/);
    expect(emitted.module).not.toContain("</script>");
    expect(emitted.declarations).toContain(`export type AgentId = "__proto__" | "constructor" | "end" | "a-b";`);
    const { dir, file } = writeModule(graph, "module-tricky");
    const envelope = clone(base);
    envelope["hop"] = { index: 1, limit: 7, path: ["__proto__", "constructor"] };
    envelope["from_agent"] = { id: "__proto__", role: "supervisor" };
    envelope["to_agent"] = { id: "constructor", role: "worker" };
    const toEnd = clone(envelope);
    toEnd["handoff_id"] = "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b";
    toEnd["to_agent"] = { id: "end", role: "worker" };
    toEnd["hop"]["path"] = ["__proto__", "end"];
    const deliveries = [
      { envelope, me: "constructor" },
      { envelope: toEnd, me: "end" },
      { envelope, me: "end" },
    ];
    const out = drive(dir, file, deliveries);
    expect(out.agents).toEqual([
      {
        id: "__proto__",
        role: "supervisor",
        version: "1.0.0-rc.1+build.5",
        terminals: [{ id: "end", outcome: "complete", description: "done: \"quoted\" `tick` ${not} */ </script>\u2028\u2029 back\\slash" }],
      },
      { id: "constructor", role: "worker", terminals: [] },
      { id: "end", role: "worker", terminals: [{ id: "stop", outcome: "failed", description: "it's over */ //" }] },
      { id: "a-b", role: "peer", terminals: [{ id: "toString", outcome: "escalate", description: "${process.exit(1)}" }] },
    ]);
    expect(out.results).toEqual(inMemory(graph, deliveries));
    expect(out.results.map((r) => (r as { ok: boolean }).ok)).toEqual([true, false, false]);
  });

  it("is deterministic: the same graph gives the same text", () => {
    const first = emitValidatorModule(refundDesk());
    const second = emitValidatorModule(refundDesk());
    expect(second.module).toBe(first.module);
    expect(second.declarations).toBe(first.declarations);
  });

  const fan = (require: string): CheckedGraph =>
    checkedGraph(`graph fan {
      entry lead
      agent lead: supervisor { terminal done }
      agent a: worker
      agent b: worker
      agent c: worker
      delegate lead -> a { max_rounds 1 ${require} }
      delegate lead -> b { max_rounds 1 }
      delegate lead -> c { max_rounds 1 }
      return a -> lead
      return b -> lead
      return c -> lead
    }`);
  const exportedValidators = (module: string): string[] =>
    (module.match(/^export const validate_\w+ = \w+;$/gm) ?? []).map((line) => line.replace(/ = validate\d+;$/, " = (ajv);"));

  it("shares one validator among edges with the same contract, exported under each edge's name", () => {
    const { module, declarations } = emitValidatorModule(fan(""));
    expect(exportedValidators(module)).toEqual([
      "export const validate_delegate__lead__a = (ajv);",
      "export const validate_return__a__lead = (ajv);",
      "export const validate_delegate__lead__b = validate_delegate__lead__a;",
      "export const validate_delegate__lead__c = validate_delegate__lead__a;",
      "export const validate_return__b__lead = validate_return__a__lead;",
      "export const validate_return__c__lead = validate_return__a__lead;",
    ]);
    expect(declarations.match(/^export declare const validate_\w+/gm)).toEqual([
      "export declare const validate_delegate__lead__a",
      "export declare const validate_delegate__lead__b",
      "export declare const validate_delegate__lead__c",
      "export declare const validate_return__a__lead",
      "export declare const validate_return__b__lead",
      "export declare const validate_return__c__lead",
    ]);
  });

  it("keeps every other edge's validator name when a require is added to one edge", () => {
    const { module } = emitValidatorModule(fan("require goal.acceptance_criteria"));
    expect(exportedValidators(module)).toEqual([
      "export const validate_delegate__lead__a = (ajv);",
      "export const validate_delegate__lead__b = (ajv);",
      "export const validate_return__a__lead = (ajv);",
      "export const validate_delegate__lead__c = validate_delegate__lead__b;",
      "export const validate_return__b__lead = validate_return__a__lead;",
      "export const validate_return__c__lead = validate_return__a__lead;",
    ]);
  });
});

describe("rewriteAjvRequires", () => {
  it("turns Ajv helper requires into seam-handoff/runtime names", () => {
    const rewritten = rewriteAjvRequires(
      `"use strict";const func0 = require("ajv/dist/runtime/equal").default;const func1 = require("ajv/dist/runtime/ucs2length").default;`,
    );
    expect(rewritten).toEqual({ code: "const func0 = $seam_equal;const func1 = $seam_ucs2length;", imports: ["equal", "ucs2length"] });
  });

  it("fails loudly when a require would survive", () => {
    expect(() => rewriteAjvRequires(`const u = require("ajv/dist/runtime/uri").default;`)).toThrow(/internal: .*require\("ajv\/dist\/runtime\/uri"/);
    expect(() => rewriteAjvRequires(`const x = require ('fs');`)).toThrow(/internal/);
  });
});
