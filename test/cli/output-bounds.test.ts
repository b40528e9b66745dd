import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonDiagnostic } from "../../src/cli/format/json.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

// Output stays readable whatever the graph: walks are shortened, names bounded, counts count
// findings only.
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "seam-bounds-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function check(name: string, text: string, format = "pretty") {
  await writeFile(join(folder, name), text);
  const io = createFakeIo(folder);
  const code = await run(["check", name, "--format", format], io);
  return { code, out: io.out(), err: io.err() };
}

/** One entry into a ring of n agents that no terminal can be reached from. */
function trap(n: number): string {
  const out = ["graph ring {", "  entry a0"];
  for (let i = 0; i < n; i++) out.push(`  agent a${i}: peer`);
  for (let i = 0; i < n; i++) out.push(`  transfer a${i} -> a${(i + 1) % n} { max_rounds 1 }`);
  out.push("}");
  return out.join("\n") + "\n";
}

describe("bounded output", () => {
  it("a 10^4-agent trap prints one bounded diagnostic; JSON keeps the whole cycle", async () => {
    const n = 10_000;
    const pretty = await check("trap.seam", trap(n));
    expect(pretty.code).toBe(1);
    expect(pretty.out.length).toBeLessThan(8_000);
    expect(pretty.out).toContain("circles a0 -> a1 -> a2 -> a3 -> a4 -> a5 -> ... (9,989 more) ... -> a9995 -> a9996 -> a9997 -> a9998 -> a9999 -> a0 with no way out.");
    expect(pretty.out.endsWith("1 error in 1 file\n")).toBe(true);
    const json = JSON.parse((await check("trap.seam", trap(n), "json")).out) as JsonDiagnostic[];
    const found = json.filter((d) => d.rule === "no-terminal-path");
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toEqual([...Array.from({ length: n }, (_, i) => `a${i}`), "a0"]);
  });

  it("5,000 syntax errors: the summary counts the 200 reported, not the notice", async () => {
    const text = "graph g {\n" + "  agent : peer\n".repeat(5000) + "}\n";
    const r = await check("many.seam", text);
    expect(r.code).toBe(1);
    expect(r.out).toContain("too many syntax errors; stopped after 200");
    expect(r.out.endsWith("\n200 errors in 1 file\n")).toBe(true);
  });

  it("a 1 MB agent name is not echoed whole", async () => {
    const long = "n".repeat(1_000_000);
    const text = `graph g {\n  entry a\n  agent a: peer { terminal done }\n  transfer a -> ${long}\n}\n`;
    const r = await check("long.seam", text);
    expect(r.code).toBe(1);
    expect(r.out.length).toBeLessThan(4_000);
    expect(r.out).toContain(`'${"n".repeat(24)}…(999952 more)…${"n".repeat(24)}'`);
  });
});
