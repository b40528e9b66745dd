import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/run.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

// A printer that throws on one file stands for any bug in it (the stack overflow it once had).
vi.mock("../../src/parser/print.js", async (original) => {
  const real = await original<typeof import("../../src/parser/print.js")>();
  return {
    ...real,
    formatSource: (file: { text: string }) => {
      if (file.text.includes("CRASH")) throw new RangeError("Maximum call stack size exceeded");
      return real.formatSource(file as Parameters<typeof real.formatSource>[0]);
    },
  };
});

afterAll(removeTempDirs);

describe("seam fmt: an internal error on one file", () => {
  const dir = makeTempDir("seam-fmt-crash-");
  writeFileSync(join(dir, "crash.seam"), "// CRASH\ngraph g {\n  entry a\n  agent a: worker { terminal t }\n}\n");
  writeFileSync(join(dir, "messy.seam"), "graph g {entry a\nagent a: worker{terminal t}}");
  writeFileSync(join(dir, "tidy.seam"), "graph g {\n  entry a\n  agent a: worker { terminal t }\n}\n");

  it("--check exits 2, never 1 (CI must not read a bug as 'would reformat'), and still lists the others", async () => {
    const io = createFakeIo(dir);
    expect(await run(["fmt", "--check", "crash.seam", "messy.seam"], io)).toBe(2);
    expect(io.out()).toBe("messy.seam\n");
    expect(io.err()).toBe(
      "seam: crash.seam: was not formatted: internal error: Maximum call stack size exceeded (this is a bug in seam; please report it with the file)\n",
    );
  });

  it("files the printer handles keep their exit codes", async () => {
    expect(await run(["fmt", "--check", "messy.seam"], createFakeIo(dir))).toBe(1);
    expect(await run(["fmt", "--check", "tidy.seam"], createFakeIo(dir))).toBe(0);
  });
});
