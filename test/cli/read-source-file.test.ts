import { existsSync } from "node:fs";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENVELOPE_TOO_LARGE_HINT, GRAPH_TOO_LARGE_HINT, readSourceFile } from "../../src/cli/read-source-file.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

const MB = 1024 * 1024;
let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), "seam-read-"));
  for (const [name, size] of [["10.4mb", 10.4 * MB], ["just-over", 10 * MB + 1], ["exact", 10 * MB]] as const) {
    await writeFile(join(temp, name), "");
    await truncate(join(temp, name), Math.round(size)); // sparse: nothing written
  }
  await writeFile(join(temp, "small.seam"), "graph g {}\n");
  await writeFile(join(temp, "ok.seam"), "graph g {\n  entry a\n  agent a: peer { terminal done }\n}\n");
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe("readSourceFile: the size cap", () => {
  it("refuses a regular file over the cap from its size, in MB when that reads clearly", async () => {
    const r = await readSourceFile("10.4mb", temp);
    expect(r).toEqual({ ok: false, problem: { path: "10.4mb", problem: "is 10.4 MB, over the 10 MB limit", hint: GRAPH_TOO_LARGE_HINT } });
  });

  it("gives bytes when the size would round to the limit", async () => {
    const r = await readSourceFile("just-over", temp);
    expect(r.ok ? "" : r.problem.problem).toBe(`is ${10 * MB + 1} bytes, over the limit of ${10 * MB} bytes`);
    expect((await readSourceFile("exact", temp, { maxBytes: 10 * MB })).ok).toBe(true);
  });

  it("takes the hint it is given", async () => {
    const r = await readSourceFile("small.seam", temp, { maxBytes: 4, tooLargeHint: ENVELOPE_TOO_LARGE_HINT });
    expect(r).toEqual({ ok: false, problem: { path: "small.seam", problem: "is 11 bytes, over the limit of 4 bytes", hint: ENVELOPE_TOO_LARGE_HINT } });
  });

  it.runIf(existsSync("/dev/zero"))("stops reading a device that never ends (/dev/zero, /dev/urandom) just past the cap", async () => {
    for (const device of ["/dev/zero", "/dev/urandom"]) {
      const r = await readSourceFile(device, temp, { maxBytes: 100_000 });
      expect(r).toEqual({
        ok: false,
        problem: { path: device, problem: "is not a regular file and gave more than the 100000 bytes limit", hint: GRAPH_TOO_LARGE_HINT },
      });
    }
  });

  it.runIf(existsSync("/dev/null"))("reads a device that ends (/dev/null) as the empty file it is", async () => {
    const r = await readSourceFile("/dev/null", temp);
    expect(r.ok && r.file.text).toBe("");
  });
});

describe.runIf(existsSync("/dev/zero"))("every command refuses /dev/zero with one line and exit 2", () => {
  const cases: [command: string, argv: string[], path: string, hint: string][] = [
    ["check", ["check", "/dev/zero"], "/dev/zero", GRAPH_TOO_LARGE_HINT],
    ["graph", ["graph", "/dev/zero"], "/dev/zero", GRAPH_TOO_LARGE_HINT],
    ["compile", ["compile", "/dev/zero", "--out", "out"], "/dev/zero", GRAPH_TOO_LARGE_HINT],
    ["validate --graph", ["validate", "x.json", "--graph", "/dev/zero", "--as", "a"], "/dev/zero", GRAPH_TOO_LARGE_HINT],
    ["validate (an envelope)", ["validate", "/dev/urandom", "--graph", "ok.seam", "--as", "*"], "/dev/urandom", ENVELOPE_TOO_LARGE_HINT],
  ];
  it.each(cases)("%s", async (_name, argv, path, hint) => {
    const io = createFakeIo(temp);
    expect(await run(argv, io)).toBe(2);
    expect(io.err()).toBe(`seam: ${path}: is not a regular file and gave more than the 10 MB limit (${hint})\n`);
  });
});
