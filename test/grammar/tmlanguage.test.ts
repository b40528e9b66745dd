import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const grammarPath = join(root, "grammar", "seam.tmLanguage.json");

/** Runs vscode-tmgrammar-test (the scope assertions inside `*.seam.test` files) with our grammar. */
function runScopeTests(pattern: string) {
  const result = spawnSync(join(root, "node_modules", ".bin", "vscode-tmgrammar-test"), ["-g", grammarPath, pattern], {
    cwd: root,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("grammar/seam.tmLanguage.json", () => {
  it("is a TextMate grammar for source.seam", () => {
    const grammar = JSON.parse(readFileSync(grammarPath, "utf8")) as { scopeName: string; fileTypes: string[] };
    expect(grammar.scopeName).toBe("source.seam");
    expect(grammar.fileTypes).toEqual(["seam"]);
  });

  it("passes the scope tests in test/grammar/*.seam.test", () => {
    const { status, output } = runScopeTests("test/grammar/*.seam.test");
    expect(output).toContain("declarations.seam.test run successfuly");
    expect(output).toContain("edges.seam.test run successfuly");
    expect(output).toContain("names.seam.test run successfuly");
    expect(status, output).toBe(0);
  });

  it("fails a scope test that asserts a wrong scope (the harness can fail)", () => {
    const dir = mkdtempSync(join(tmpdir(), "seam-tm-"));
    try {
      writeFileSync(
        join(dir, "wrong.seam.test"),
        '// SYNTAX TEST "source.seam" "deliberately wrong"\nagent a: worker\n//^^^ constant.numeric.integer.seam\n',
      );
      const { status, output } = runScopeTests(join(dir, "*.seam.test"));
      expect(status).not.toBe(0);
      expect(output).toContain("missing required scopes: constant.numeric.integer.seam");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
