import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { getLineAndColumn } from "../../../src/core/source-file.js";
import { lines, ruleTable } from "./rule-table.js";

const graph = (version: string): string =>
  lines("graph g {", "  entry a", "  agent a: supervisor {", `    version ${version}`, "    terminal done", "  }", "}");

ruleTable("invalid-agent-version", {
  valid: [
    { name: "MAJOR.MINOR.PATCH", code: graph('"2.4.0"') },
    { name: "shortened and with prerelease and build", code: graph('"2.4-rc.1+build.7"') },
    { name: "no version", code: lines("graph g {", "  entry a", "  agent a: supervisor { terminal done }", "}") },
  ],
  invalid: [
    { name: "a leading v", code: graph('«"v2.4.0"'), errors: [{ mentions: ['"v2.4.0"', "agent 'a'", "MAJOR.MINOR.PATCH"] }] },
    { name: "a leading zero", code: graph('«"2.04.0"'), errors: [{ mentions: ['"2.04.0"'] }] },
    { name: "empty", code: graph('«""'), errors: [{ mentions: ['""'] }] },
  ],
});

describe("invalid-agent-version: the whole diagnostic", () => {
  it("covers the string literal and escapes what it quotes", () => {
    const result = checkText("g.seam", graph('"2.4.0\\u001b[2J"'));
    const found = result.diagnostics.filter((d) => d.rule === "invalid-agent-version");
    expect(found.map((d) => ({ severity: d.severity, message: d.message, start: getLineAndColumn(d.file, d.range.start), end: getLineAndColumn(d.file, d.range.end) }))).toEqual([
      {
        severity: "error",
        message:
          'version "2.4.0\\u001b[2J" of agent \'a\' is not a version: write MAJOR.MINOR.PATCH as Semantic Versioning does, such as "2.4.0" (numbers without leading zeros, optionally -prerelease and +build).',
        start: { line: 4, column: 13 },
        end: { line: 4, column: 29 },
      },
    ]);
  });
});
