import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { checkedGraphs, makeTempDir, removeTempDirs } from "./helpers.js";

// Names may be any JavaScript identifier (Unicode ID_Start / ID_Continue); what is emitted from
// them must stay safe: portable file names, valid modules, names quoted in every picture.
const text = [
  "graph 流程 {",
  "  entry Größe",
  "  agent Größe: supervisor { terminal fertig }",
  "  agent 𝑥: worker { terminal done }",
  "  delegate Größe -> 𝑥 { max_rounds 2 }",
  "  return 𝑥 -> Größe",
  "}",
  "graph 名前 { entry a agent a: worker { terminal t } }",
].join("\n");

afterAll(removeTempDirs);

describe("emitted files for Unicode names", () => {
  const files = emitCompileOutput(checkedGraphs(text));

  it("get portable, distinct ASCII file names", () => {
    const names = files.map((f) => f.path);
    expect(names.every((n) => /^[A-Za-z0-9._-]+$/.test(n))).toBe(true);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });

  it("are valid modules and keep the names as data", () => {
    const dir = makeTempDir("seam-unicode-");
    for (const file of files) writeFileSync(join(dir, file.path), file.content);
    for (const file of files.filter((f) => f.path.endsWith(".mjs"))) {
      expect(() => execFileSync(process.execPath, ["--check", join(dir, file.path)])).not.toThrow();
    }
    const all = files.map((f) => f.content).join("\n");
    for (const name of ["流程", "Größe", "𝑥", "名前"]) expect(all).toContain(name);
  });
});
