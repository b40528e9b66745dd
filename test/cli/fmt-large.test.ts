/**
 * `seam fmt` formats every file `seam check` accepts, however many items a graph holds: the
 * printer once spread a graph's lines (and a run of trailing comments) into call arguments, and
 * overflowed the stack at about 64,000 agents, a 3 MB file `check` takes in a second.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

afterAll(removeTempDirs);

/** A chain of `n` agents, each line ending in a comment (one run of `2n` aligned comments). */
function chain(n: number, messy: boolean): string {
  const lines = ["seam 1", "", "graph big {", "  envelope 1.3", "  entry a0", ""];
  const pad = (code: string, width: number): string => (messy ? `${code} ` : code.padEnd(width + 1));
  const last = `  agent a${n - 1}: worker { terminal done complete "done" }`;
  const width = Math.max(last.length, `  transfer a${n - 2} -> a${n - 1}`.length);
  for (let i = 0; i < n - 1; i++) lines.push(`${pad(`  agent a${i}: worker`, width)}// agent ${i}`);
  lines.push(`${pad(last, width)}// the end`);
  for (let i = 0; i < n - 1; i++) lines.push(`${pad(`  transfer a${i} -> a${i + 1}`, width)}// hop ${i}`);
  return `${lines.join("\n")}\n}\n`;
}

describe("seam fmt on a 70,000-agent graph", () => {
  const n = 70_000;
  const dir = makeTempDir("seam-fmt-large-");
  const tidy = chain(n, false);
  writeFileSync(join(dir, "tidy.seam"), tidy);
  writeFileSync(join(dir, "messy.seam"), chain(n, true));

  it("seam check accepts it", async () => {
    const io = createFakeIo(dir);
    expect(await run(["check", "tidy.seam"], io)).toBe(0);
    expect(io.out()).toBe("no problems in 1 file\n");
  });

  it("--check: 0 for the canonical layout, 1 for the other, and no error", async () => {
    const tidyIo = createFakeIo(dir);
    expect(await run(["fmt", "--check", "tidy.seam"], tidyIo)).toBe(0);
    expect(tidyIo.err()).toBe("");
    const messyIo = createFakeIo(dir);
    expect(await run(["fmt", "--check", "messy.seam"], messyIo)).toBe(1);
    expect([messyIo.out(), messyIo.err()]).toEqual(["messy.seam\n", ""]);
  });

  it("rewrites the other layout into the canonical one", async () => {
    const io = createFakeIo(dir);
    expect(await run(["fmt", "messy.seam"], io)).toBe(0);
    // Compared as a boolean: a failing toBe would diff two 4 MB strings for minutes.
    expect(readFileSync(join(dir, "messy.seam"), "utf8") === tidy).toBe(true);
  });
});
