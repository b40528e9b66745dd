import { describe, expect, it } from "vitest";
import { formatPretty } from "../../../src/cli/format/pretty.js";
import { createDiagnostic, type RuleMeta } from "../../../src/core/diagnostic.js";
import { createSourceFile } from "../../../src/core/source-file.js";

const rule: RuleMeta = { id: "demo-rule", severity: "error", description: "A rule for tests." };
const options = { cwd: "/work", color: false, fileCount: 1 };

/** The diagnostic over the first occurrence of `flagged` in `text`. */
function at(text: string, flagged: string, init: { severity?: "error" | "warning" | "info"; length?: number } = {}) {
  const file = createSourceFile("/work/g.seam", text);
  const start = text.indexOf(flagged);
  return createDiagnostic(rule, {
    file,
    range: { start, end: start + (init.length ?? flagged.length) },
    message: "something is wrong",
    ...(init.severity ? { severity: init.severity } : {}),
  });
}

describe("formatPretty", () => {
  it("prints header, source line, caret and tildes under the range, and a summary", () => {
    const text = "graph g {\n  transfer a -> bee\n}\n";
    expect(formatPretty([at(text, "bee")], options)).toBe(
      [
        "g.seam:2:17 - error demo-rule: something is wrong",
        "",
        "   2 |   transfer a -> bee",
        "     |                 ^~~",
        "",
        "1 error in 1 file",
        "",
      ].join("\n"),
    );
  });

  it("expands tabs so the caret stays under the range", () => {
    const text = "graph g {\n\tagent\tbee: peer\n}\n";
    const lines = formatPretty([at(text, "bee")], options).split("\n");
    expect(lines[2]).toBe("   2 |     agent   bee: peer");
    expect(lines[3]).toBe(`     | ${" ".repeat(12)}^~~`);
    expect(lines[2]?.indexOf("bee")).toBe(lines[3]?.indexOf("^"));
  });

  it("counts a surrogate pair as one column", () => {
    const text = 'agent a { version "\u{1F600}\u{1F600}x" }\n';
    const lines = formatPretty([at(text, "x")], options).split("\n");
    expect(lines[3]).toBe(`     | ${" ".repeat('agent a { version "'.length + 2)}^`);
  });

  it("clips a range that spans lines to its first line", () => {
    const text = "graph g {\n  agent a: peer\n}\n";
    const lines = formatPretty([at(text, "agent", { length: "agent a: peer\n}".length })], options).split("\n");
    expect(lines[3]).toBe(`     |   ^${"~".repeat("agent a: peer".length - 1)}`);
  });

  it("draws one caret for an empty range, even at the end of the file", () => {
    const text = "graph g {";
    const d = createDiagnostic(rule, { file: createSourceFile("/work/g.seam", text), range: { start: 9, end: 9 }, message: "expected '}'" });
    const lines = formatPretty([d], options).split("\n");
    expect(lines[0]).toBe("g.seam:1:10 - error demo-rule: expected '}'");
    expect(lines[3]).toBe(`     | ${" ".repeat(9)}^`);
  });

  it("prints related locations as notes", () => {
    const text = "agent a: peer\nagent a: peer\n";
    const file = createSourceFile("/work/g.seam", text);
    const d = createDiagnostic(rule, {
      file,
      range: { start: 20, end: 21 },
      message: "agent 'a' is declared twice",
      related: [{ file, range: { start: 6, end: 7 }, message: "first declared here" }],
    });
    expect(formatPretty([d], options)).toContain("\n  note: g.seam:1:7 - first declared here\n");
  });

  it("counts each severity in the summary, and says so when there is nothing", () => {
    const text = "abc def ghi\n";
    const ds = [at(text, "abc"), at(text, "def", { severity: "warning" }), at(text, "ghi", { severity: "warning" }), at(text, "ghi", { severity: "info" })];
    expect(formatPretty(ds, { ...options, fileCount: 3 })).toMatch(/\n1 error, 2 warnings, 1 info in 3 files\n$/);
    expect(formatPretty([], { ...options, fileCount: 2 })).toBe("no problems in 2 files\n");
  });

  it("colours only when asked", () => {
    const d = at("abc\n", "abc");
    expect(formatPretty([d], options)).not.toContain("\u001b[");
    expect(formatPretty([d], { ...options, color: true })).toContain("\u001b[31merror\u001b[39m");
  });
});
