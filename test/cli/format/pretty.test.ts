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

  it("places a finding on line 1 of a file with a byte order mark where an editor shows it", () => {
    const text = "\uFEFFgraph g { entry zz }\n";
    expect(formatPretty([at(text, "zz")], options).split("\n").slice(0, 4)).toEqual([
      "g.seam:1:17 - error demo-rule: something is wrong",
      "",
      "   1 | graph g { entry zz }",
      "     |                 ^~",
    ]);
  });

  it("expands tabs so the caret stays under the range", () => {
    const text = "graph g {\n\tagent\tbee: peer\n}\n";
    const lines = formatPretty([at(text, "bee")], options).split("\n");
    expect(lines[2]).toBe("   2 |     agent   bee: peer");
    expect(lines[3]).toBe(`     | ${" ".repeat(12)}^~~`);
    expect(lines[2]?.indexOf("bee")).toBe(lines[3]?.indexOf("^"));
  });

  it("counts an emoji (a surrogate pair) and a CJK character as two columns each", () => {
    const text = 'agent a { version "\u{1F600}\u65E5x" }\n';
    const lines = formatPretty([at(text, "x")], options).split("\n");
    expect(lines[3]).toBe(`     | ${" ".repeat('agent a { version "'.length + 4)}^`);
  });

  it("shows control characters as visible symbols, never raw", () => {
    const text = 'agent a { version "\u0000\u001b[2J\u007f\u009bx" }\n';
    const lines = formatPretty([at(text, "x")], options).split("\n");
    expect(lines[2]).toBe('   1 | agent a { version "\u2400\u241b[2J\u2421\ufffdx" }');
    expect(lines[3]).toBe(`     | ${" ".repeat('agent a { version "'.length + 7)}^`);
    expect(formatPretty([at(text, "x")], options)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("clips a long line to 120 columns around each range, so 2,000 findings on a 100 KB line stay small", () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `n${String(i).padStart(6, "0")}`);
    const text = `graph g { ${names.join(" ")} }`;
    expect(text.length).toBeGreaterThan(80_000);
    const file = createSourceFile("/work/g.seam", text);
    const flagged = names.filter((_, i) => i % 5 === 0);
    const ds = flagged.map((name) => {
      const start = text.indexOf(name);
      return createDiagnostic(rule, { file, range: { start, end: start + name.length }, message: `bad ${name}` });
    });
    const out = formatPretty(ds, { ...options, maxPerFile: Infinity });
    expect(out.length).toBeLessThan(ds.length * 400);
    const lines = out.split("\n");
    flagged.forEach((name, i) => {
      const source = lines[i * 5 + 2] ?? "";
      const underline = lines[i * 5 + 3] ?? "";
      expect(source.length - "   1 | ".length).toBeLessThanOrEqual(120);
      const caret = underline.indexOf("^");
      expect(source.slice(caret, caret + name.length)).toBe(name);
      expect(underline.slice(caret)).toBe(`^${"~".repeat(name.length - 1)}`);
    });
    expect(lines[2]).toMatch(/^ {3}1 \| graph g \{ n000000 .*\u2026$/);
    expect(lines[(flagged.length - 1) * 5 + 2]).toMatch(/^ {3}1 \| \u2026.* n009995 n009996 n009997 n009998 n009999 \}$/);
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
