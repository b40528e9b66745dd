import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileCommand } from "../../src/cli/commands/compile.js";
import { fixturePath, makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

afterAll(() => removeTempDirs());

function readAll(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) files[name] = readFileSync(join(dir, name), "utf8");
  return files;
}

describe("seam compile", () => {
  it("writes the schemas, the validator module, its declarations and the pictures", async () => {
    const out = makeTempDir("compile");
    const io = createFakeIo(fixturePath("cases", "envelopes"));
    const code = await compileCommand({ file: "graph.seam", out }, io);
    expect(io.err()).toBe("");
    expect(code).toBe(0);
    expect(Object.keys(readAll(out))).toEqual([
      "refund_desk.billing-return-triage.schema.json",
      "refund_desk.dot",
      "refund_desk.envelope.schema.json",
      "refund_desk.mmd",
      "refund_desk.refunds-transfer-notifier.schema.json",
      "refund_desk.triage-delegate-billing.schema.json",
      "refund_desk.triage-delegate-refunds.schema.json",
      "refund_desk.validators.d.ts",
      "refund_desk.validators.mjs",
    ]);
    expect(io.out().trim().split("\n")).toHaveLength(9);
    const edge = JSON.parse(readAll(out)["refund_desk.triage-delegate-billing.schema.json"] ?? "") as Record<string, any>;
    expect(edge["$id"]).toBe("https://seam.dev/schemas/graphs/refund_desk/refund_desk.triage-delegate-billing.json");
    expect(edge["properties"]["from_agent"]["properties"]["id"]["const"]).toBe("triage");
  });

  it("is deterministic: a rerun writes byte-identical files", async () => {
    const first = makeTempDir("compile");
    const second = makeTempDir("compile");
    const cwd = fixturePath("emit");
    expect(await compileCommand({ file: "tricky-names.seam", out: first }, createFakeIo(cwd))).toBe(0);
    expect(await compileCommand({ file: "tricky-names.seam", out: second }, createFakeIo(cwd))).toBe(0);
    const a = readAll(first);
    expect(readAll(second)).toEqual(a);
    expect(Object.keys(a)).toContain("tricky.__proto__-delegate-constructor.schema.json");
  });

  it("refuses a graph with errors, printing them, and writes nothing", async () => {
    const dir = makeTempDir("compile");
    writeFileSync(join(dir, "bad.seam"), "graph g {\n  entry a\n  agent a: supervisor { terminal done }\n  delegate a -> ghost\n}\n");
    const io = createFakeIo(dir);
    expect(await compileCommand({ file: "bad.seam", out: "out" }, io)).toBe(1);
    expect(io.err()).toMatch(/unknown-agent/);
    expect(io.err()).toMatch(/bad\.seam:4:/);
    expect(io.err()).toMatch(/not compiled: 1 error/);
    expect(readdirSync(dir)).toEqual(["bad.seam"]);
  });

  it("exits 2 with one line when the input cannot be read", async () => {
    const io = createFakeIo(makeTempDir("compile"));
    expect(await compileCommand({ file: "missing.seam", out: "out" }, io)).toBe(2);
    expect(io.err()).toBe("seam: missing.seam: no such file or folder (check the path)\n");
  });

  it("exits 2 when the output folder cannot be made", async () => {
    const dir = makeTempDir("compile");
    writeFileSync(join(dir, "blocker"), "");
    const io = createFakeIo(fixturePath("cases", "envelopes"));
    expect(await compileCommand({ file: "graph.seam", out: join(dir, "blocker", "out") }, io)).toBe(2);
    expect(io.err()).toMatch(/^seam: .*blocker\/out: /);
  });
});
