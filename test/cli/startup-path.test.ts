import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";

const bundle = fileURLToPath(new URL("../../dist/cli-bundle/", import.meta.url));

describe("the seam command's bundle", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("holds no Chevrotain: the grammar specification is never loaded by a command", () => {
    const files = readdirSync(bundle).filter((f) => f.endsWith(".js") || f.endsWith(".cjs"));
    expect(files).toContain("main.js");
    const withChevrotain = files.filter((f) => /performSelfAnalysis|createSyntaxDiagramsCode/.test(readFileSync(join(bundle, f), "utf8")));
    expect(withChevrotain).toEqual([]);
  });
});
