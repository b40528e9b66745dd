import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";

const bundle = fileURLToPath(new URL("../../dist/cli-bundle/", import.meta.url));

describe("the seam command's bundle", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("loads Chevrotain only for language-server completion: one chunk, reached by a dynamic import alone", () => {
    const files = readdirSync(bundle).filter((f) => f.endsWith(".js") || f.endsWith(".cjs"));
    expect(files).toContain("main.js");
    const text = (f: string): string => readFileSync(join(bundle, f), "utf8");
    const withChevrotain = files.filter((f) => /performSelfAnalysis|createSyntaxDiagramsCode/.test(text(f)));
    expect(withChevrotain.map((f) => f.replace(/-[A-Z0-9]+\.js$/, ""))).toEqual(["content-assist"]);
    const chunk = withChevrotain[0] as string;
    const importers = files.filter((f) => text(f).includes(`"./${chunk}"`));
    expect(importers.map((f) => f.replace(/-[A-Z0-9]+\.js$/, ""))).toEqual(["lsp"]);
    // Only `import("./chunk")`, never a static `from "./chunk"`: no command loads it at start-up.
    expect(text(importers[0] as string)).not.toMatch(new RegExp(`from\\s*"\\./${chunk.replace(".", "\\.")}"`));
  });

  it("runs seam check from one CommonJS file without Chevrotain or the language server, other commands left to the tsc output", () => {
    const text = readFileSync(join(bundle, "check.cjs"), "utf8");
    expect(text).not.toMatch(/performSelfAnalysis|createSyntaxDiagramsCode|StreamMessageReader/);
    expect(text).not.toMatch(/^import |\bimport\.meta\b/m);
    const imported = [...text.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1]).sort();
    expect(imported).toEqual(["compile", "diff", "fmt", "graph", "import", "lsp", "report", "validate"].map((c) => `../cli/commands/${c}.js`));
  });
});
