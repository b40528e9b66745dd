// The one-way data flow of the sources (text -> tokens -> AST -> checked model -> emitted files),
// held as a rule on imports between the folders of src/: a folder may import only the folders
// listed for it, so no layer learns of the one that uses it.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Which folders of src/ each folder may import (besides itself). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  parser: ["core"],
  analysis: ["core", "parser"],
  program: ["core", "parser", "analysis"],
  runtime: ["core"],
  emit: ["core", "parser", "analysis", "runtime"],
  report: ["core", "runtime"],
  diff: ["core", "parser", "analysis", "emit", "runtime"],
  lsp: ["core", "parser", "analysis", "program"],
  import: ["core", "parser", "analysis", "diff", "runtime"],
  cli: ["core", "parser", "analysis", "program", "runtime", "emit", "report", "diff", "lsp", "import"],
};

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)"(\.{1,2}\/[^"]+)"/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.isFile() && entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The folder of src/ a path lies in, or "" for a file at the top of src/. */
function layerOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? (parts[0] as string) : "";
}

/** Every relative import of a file that crosses into a folder it may not import. */
function violations(file: string, text: string): string[] {
  const from = layerOf(file);
  const allowed = ALLOWED[from];
  if (allowed === undefined) return [];
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const to = layerOf(resolve(dirname(file), match[1] as string));
    if (to !== from && !allowed.includes(to)) found.push(`${relative(SRC, file)} imports ${match[1]} (${from} -> ${to || "src/"})`);
  }
  return found;
}

describe("layers of src/", () => {
  it("names every folder of src/", () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it("imports only along the data flow", () => {
    expect(sourceFiles(SRC).flatMap((file) => violations(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("catches static, dynamic and side-effect imports against the flow, and allows the rest", () => {
    const text = ['import { a } from "../analysis/check.js";', 'await import("../cli/run.js");', 'import "../emit/x.js";', 'import type { b } from "../core/c.js";', 'import { d } from "./lexer.js";'].join("\n");
    expect(violations(join(SRC, "parser", "probe.ts"), text)).toEqual([
      "parser/probe.ts imports ../analysis/check.js (parser -> analysis)",
      "parser/probe.ts imports ../cli/run.js (parser -> cli)",
      "parser/probe.ts imports ../emit/x.js (parser -> emit)",
    ]);
  });
});
