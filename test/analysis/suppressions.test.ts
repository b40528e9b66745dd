import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { readSuppressions } from "../../src/analysis/suppressions.js";
import { getLineAndColumn } from "../../src/core/source-file.js";
import { parse } from "../../src/parser/parse.js";
import { createSourceFile } from "../../src/core/source-file.js";

/** `rule severity line:column-line:column message` of every diagnostic. */
function findings(text: string): string[] {
  const { file, diagnostics } = checkText("s.seam", text);
  return diagnostics.map((d) => {
    const a = getLineAndColumn(file, d.range.start);
    const b = getLineAndColumn(file, d.range.end);
    return `${d.rule} ${d.severity} ${a.line}:${a.column}-${b.line}:${b.column} ${d.message}`;
  });
}

// `b` is declared but no entry reaches it: one `unreachable-agent` warning on line 4.
const graph = (comment: string, where: "before-b" | "top" = "before-b"): string =>
  [
    where === "top" ? comment : "",
    "graph g {",
    "  entry a",
    "  agent a: worker { terminal done }",
    where === "before-b" ? `  ${comment}` : "",
    "  agent b: worker { terminal done }",
    "}",
  ].join("\n");

// The wording of the finding belongs to its rule; these tests only need it to be the same one.
const [unreachable] = findings(graph("")) as [string];

describe("suppression comments", () => {
  it("the finding they silence (without a comment)", () => {
    expect(findings(graph(""))).toEqual([unreachable]);
    expect(unreachable).toMatch(/^unreachable-agent warning 6:9-6:10 agent 'b' /);
  });

  it("seam-disable-next-line silences the named rule on the next line only", () => {
    expect(findings(graph("// seam-disable-next-line unreachable-agent -- kept for the next release"))).toEqual([]);
    expect(findings(graph("/* seam-disable-next-line unreachable-agent, no-terminal-path -- kept */").replace("  agent b", "\n  agent b"))).toEqual([
      "unused-suppression warning 5:29-5:46 'unreachable-agent' is suppressed but reports nothing on the next line: remove it from the comment.",
      "unused-suppression warning 5:48-5:64 'no-terminal-path' is suppressed but reports nothing on the next line: remove it from the comment.",
      unreachable.replace("6:9-6:10", "7:9-7:10"),
    ]);
  });

  it("seam-disable silences the named rule in the whole file, wherever it is written", () => {
    expect(findings(graph("// seam-disable unreachable-agent -- demo graph", "top"))).toEqual([]);
  });

  it("reports a missing reason, and still suppresses", () => {
    expect(findings(graph("// seam-disable-next-line unreachable-agent"))).toEqual([
      "suppression-reason warning 5:3-5:46 seam-disable-next-line gives no reason: add '-- <why this finding is accepted>' after the rule ids.",
    ]);
    expect(findings(graph("// seam-disable-next-line unreachable-agent --   "))).toHaveLength(1);
  });

  it("reports an unknown rule id, a rule that cannot be suppressed, and a directive naming none", () => {
    expect(findings(graph("// seam-disable-next-line unreachable-agents -- typo"))).toEqual([
      "suppression-unknown-rule warning 5:29-5:47 unknown rule 'unreachable-agents' in seam-disable-next-line: check the rule id (see 'seam check --help' or docs/rules/).",
      unreachable,
    ]);
    expect(findings(graph("// seam-disable syntax -- no", "top"))[0]).toBe(
      "suppression-unknown-rule warning 1:17-1:23 'syntax' cannot be suppressed: fix the problem it reports instead.",
    );
    expect(findings(graph("// seam-disable -- everything", "top"))[0]).toBe(
      "suppression-unknown-rule warning 1:1-1:30 seam-disable names no rule: write the rule id(s) to suppress, e.g. 'seam-disable unreachable-agent -- <reason>'.",
    );
  });

  it("reports an unused suppression, but not in a file with syntax errors", () => {
    const clean = "// seam-disable no-terminal-path -- none here\ngraph g { entry a agent a: worker { terminal t } }";
    expect(findings(clean)).toEqual([
      "unused-suppression warning 1:17-1:33 'no-terminal-path' is suppressed but reports nothing in this file: remove it from the comment.",
    ]);
    expect(findings(clean.replace("entry a", "entry a ;")).map((f) => f.split(" ")[0])).toEqual(["syntax"]);
  });

  it("leaves other comments alone, and findings of other rules", () => {
    expect(findings(graph("// seam-disabled is just a word here"))).toEqual([unreachable]);
    expect(findings(graph("// seam-disable-next-line missing-entry -- not this one"))).toEqual([
      "unused-suppression warning 5:29-5:42 'missing-entry' is suppressed but reports nothing on the next line: remove it from the comment.",
      unreachable,
    ]);
  });

  it("reads directives with their rule ranges and reason", () => {
    const text = "// seam-disable-next-line a-b, c -- why\ngraph g {}";
    const [s] = readSuppressions(parse(createSourceFile("r.seam", text)).ast.comments);
    expect(s).toMatchObject({ scope: "next-line", reason: "why", rules: [{ id: "a-b", range: { start: 26, end: 29 } }, { id: "c", range: { start: 31, end: 32 } }] });
  });
});
