import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENVELOPE_TOO_LARGE_HINT, GRAPH_TOO_LARGE_HINT, readSourceFile } from "../../src/cli/read-source-file.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

const MB = 1024 * 1024;
const NOT_REGULAR_HINT = "pass a regular file: save the text to a file first";
/** `mkfifo` (coreutils) makes the named pipe; where it is missing (Windows) there are no FIFOs. */
const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), "seam-read-"));
  for (const [name, size] of [["10.4mb", 10.4 * MB], ["just-over", 10 * MB + 1], ["exact", 10 * MB]] as const) {
    await writeFile(join(temp, name), "");
    await truncate(join(temp, name), Math.round(size)); // sparse: nothing written
  }
  await writeFile(join(temp, "small.seam"), "graph g {}\n");
  await writeFile(join(temp, "ok.seam"), "graph g {\n  entry a\n  agent a: peer { terminal done }\n}\n");
  if (hasMkfifo) expect(spawnSync("mkfifo", [join(temp, "pipe.seam")]).status).toBe(0);
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

  it.runIf(existsSync("/dev/zero"))("refuses a device (/dev/zero never ends, /dev/null is no graph) without reading it", async () => {
    for (const device of ["/dev/zero", "/dev/urandom", "/dev/null"]) {
      const r = await readSourceFile(device, temp, { maxBytes: 100_000 });
      expect(r).toEqual({ ok: false, problem: { path: device, problem: "is a device, not a regular file", hint: NOT_REGULAR_HINT } });
    }
  });
});

describe.runIf(hasMkfifo)("a named pipe (FIFO) is refused at once, not waited on", () => {
  it("readSourceFile refuses it, though no process will ever write to it", async () => {
    const r = await readSourceFile("pipe.seam", temp);
    expect(r).toEqual({ ok: false, problem: { path: "pipe.seam", problem: "is a named pipe (FIFO), not a regular file", hint: NOT_REGULAR_HINT } });
  });

  it.each([
    ["check", ["check", "pipe.seam", "ok.seam"]],
    ["fmt", ["fmt", "--check", "pipe.seam"]],
    ["compile", ["compile", "pipe.seam", "--out", "out"]],
    ["diff", ["diff", "pipe.seam", "ok.seam"]],
  ])("seam %s says so in one line and exits 2", async (_name, argv) => {
    const io = createFakeIo(temp);
    expect(await run(argv, io)).toBe(2);
    expect(io.err()).toBe(`seam: pipe.seam: is a named pipe (FIFO), not a regular file (${NOT_REGULAR_HINT})\n`);
  });

  it("seam check still checks the regular files named beside it", async () => {
    const io = createFakeIo(temp);
    await run(["check", "pipe.seam", "ok.seam"], io);
    expect(io.out()).toBe("no problems in 1 file\n");
  });
});

describe.runIf(existsSync("/dev/zero"))("every command refuses a device with one line and exit 2", () => {
  const cases: [command: string, argv: string[], path: string][] = [
    ["check", ["check", "/dev/zero"], "/dev/zero"],
    ["graph", ["graph", "/dev/zero"], "/dev/zero"],
    ["compile", ["compile", "/dev/zero", "--out", "out"], "/dev/zero"],
    ["validate --graph", ["validate", "x.json", "--graph", "/dev/zero", "--as", "a"], "/dev/zero"],
    ["validate (an envelope)", ["validate", "/dev/urandom", "--graph", "ok.seam", "--as", "*"], "/dev/urandom"],
  ];
  it.each(cases)("%s", async (_name, argv, path) => {
    const io = createFakeIo(temp);
    expect(await run(argv, io)).toBe(2);
    expect(io.err()).toBe(`seam: ${path}: is a device, not a regular file (${NOT_REGULAR_HINT})\n`);
  });
});
