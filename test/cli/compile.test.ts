import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileCommand } from "../../src/cli/commands/compile.js";
import { run } from "../../src/cli/run.js";
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
      "refund_desk.validators.d.mts",
      "refund_desk.validators.mjs",
    ]);
    expect(io.out().trim().split("\n")).toHaveLength(9);
    const edge = JSON.parse(readAll(out)["refund_desk.triage-delegate-billing.schema.json"] ?? "") as Record<string, any>;
    expect(edge["$id"]).toBe("urn:seam-handoff:schema:graph:refund_desk:refund_desk.triage-delegate-billing");
    expect(edge["properties"]["from_agent"]["properties"]["id"]["const"]).toBe("triage");
    // Every schema id is a URN: none locates a web site the project does not hold.
    for (const [name, text] of Object.entries(readAll(out)).filter(([name]) => name.endsWith(".json"))) {
      expect(JSON.parse(text)["$id"], name).toMatch(/^urn:seam-handoff:schema:/);
    }
    expect(Object.values(readAll(out)).join("\n")).not.toMatch(/https?:\/\/(?!json-schema\.org\/draft\/2020-12\/schema")/);
  });

  it("replaces a symbolic link standing in the output folder instead of writing through it", async () => {
    const out = makeTempDir("compile");
    const elsewhere = makeTempDir("compile-victim");
    const victim = join(elsewhere, "precious.txt");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(out, "refund_desk.dot"));
    const io = createFakeIo(fixturePath("cases", "envelopes"));
    expect(await compileCommand({ file: "graph.seam", out }, io)).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(lstatSync(join(out, "refund_desk.dot")).isFile()).toBe(true);
    expect(readdirSync(out).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes all or none: a folder standing at one output name leaves every earlier file as it was", async () => {
    const out = makeTempDir("compile");
    const io = createFakeIo(fixturePath("cases", "envelopes"));
    expect(await compileCommand({ file: "graph.seam", out }, io)).toBe(0);
    writeFileSync(join(out, "refund_desk.dot"), "an older picture");
    writeFileSync(join(out, "refund_desk.validators.mjs"), "an older module");
    const before = readdirSync(out).filter((name) => name !== "refund_desk.validators.d.mts");
    rmSync(join(out, "refund_desk.validators.d.mts"));
    mkdirSync(join(out, "refund_desk.validators.d.mts"));
    const again = createFakeIo(fixturePath("cases", "envelopes"));
    expect(await compileCommand({ file: "graph.seam", out }, again)).toBe(2);
    expect(again.err()).toBe(`seam: ${join(out, "refund_desk.validators.d.mts")}: is a folder, not a file (remove the folder or write elsewhere)\n`);
    expect(again.out()).toBe("");
    expect(readFileSync(join(out, "refund_desk.dot"), "utf8")).toBe("an older picture");
    expect(readFileSync(join(out, "refund_desk.validators.mjs"), "utf8")).toBe("an older module");
    expect(readdirSync(out).sort()).toEqual([...before, "refund_desk.validators.d.mts"].sort());
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
    expect(io.err()).toMatch(/not compiled: 1 error \(fix it, then compile again\)/);
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
    expect(io.err()).toMatch(/^seam: .*blocker\/out: cannot create the output folder: .*blocker exists and is not a folder \(choose another --out folder\)\n$/);
  });
});

describe("seam compile: the output folder", () => {
  const graphDir = fixturePath("cases", "envelopes");
  const compileTo = async (out: string) => {
    const io = createFakeIo(graphDir);
    const code = await compileCommand({ file: "graph.seam", out }, io);
    return { code, out: io.out(), err: io.err() };
  };

  it("creates every missing level", async () => {
    const dir = makeTempDir("compile");
    const r = await compileTo(join(dir, "a", "b", "c"));
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, "a", "b", "c"))).toHaveLength(9);
  });

  it("refuses an empty --out as a usage error", async () => {
    const io = createFakeIo(graphDir);
    expect(await run(["compile", "graph.seam", "--out", ""], io)).toBe(2);
    expect(io.err()).toBe(
      "seam: option '--out <dir>' argument '' is invalid. Expected a folder, not an empty string. (see 'seam compile --help')\n",
    );
    expect(io.out()).toBe("");
  });

  it("says a file in the way cannot be made a folder (an existing file, /dev/null)", async () => {
    const dir = makeTempDir("compile");
    writeFileSync(join(dir, "taken"), "");
    const file = await compileTo(join(dir, "taken"));
    expect(file.code).toBe(2);
    expect(file.err).toMatch(/^seam: .*taken: cannot create the output folder: it exists and is not a folder \(choose another --out folder\)\n$/);
    const devNull = await compileTo("/dev/null");
    expect(devNull.code).toBe(2);
    expect(devNull.err).toBe("seam: /dev/null: cannot create the output folder: it exists and is not a folder (choose another --out folder)\n");
  });

  it("says a name that is too long cannot be created, and leaves nothing behind", async () => {
    const dir = makeTempDir("compile");
    const r = await compileTo(join(dir, "made", "x".repeat(300), "out"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/: cannot create the output folder: the name is too long \(choose another --out folder\)\n$/);
    expect(r.err).not.toContain("cannot be read");
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(existsSync("/proc/self"))("ends with one line on a file system that refuses folders (/proc)", async () => {
    const r = await compileTo("/proc/seam-test-output");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "seam: /proc/seam-test-output: cannot create the output folder: this file system does not allow new folders here (choose another --out folder)\n",
    );
  });

  // PATH_MAX is 4096 bytes on Linux; elsewhere the folder itself may not be made.
  it.skipIf(process.platform !== "linux")("says a file that cannot be written cannot be written, and removes the folder it made", async () => {
    const dir = makeTempDir("compile");
    writeFileSync(join(dir, "long.seam"), `graph g {\n  entry a\n  agent a: peer { terminal done }\n}\n`);
    // File names are kept within 255 bytes, so the whole path is made too long instead: a
    // folder path just under Linux's 4096-byte PATH_MAX can be made, a file in it not.
    const room = 4095 - resolve(dir).length - 1 - "g.envelope.schema.json".length;
    const parts: string[] = [];
    for (let left = room; left > 0; left -= 201) parts.push("o".repeat(Math.min(200, left)));
    const out = join(...parts);
    const io = createFakeIo(dir);
    expect(await compileCommand({ file: "long.seam", out }, io)).toBe(2);
    expect(io.err()).toMatch(/^seam: o+\/.*: cannot be written: the name is too long \(check the path\)\n$/);
    expect(readdirSync(dir)).toEqual(["long.seam"]);
  });
});
