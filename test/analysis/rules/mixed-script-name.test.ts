import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { getLineAndColumn } from "../../../src/core/source-file.js";
import { lines } from "./rule-table.js";

function found(text: string) {
  const result = checkText("names.seam", text);
  expect(result.diagnostics.filter((d) => d.rule === "syntax")).toEqual([]);
  const at = (offset: number) => {
    const p = getLineAndColumn(result.file, offset);
    return `${p.line}:${p.column}`;
  };
  return result.diagnostics
    .filter((d) => d.rule === "mixed-script-name")
    .map((d) => ({ rule: d.rule, severity: d.severity, range: `${at(d.range.start)}-${at(d.range.end)}`, message: d.message }));
}

const graph = (name: string, ...agents: string[]) =>
  lines(`graph ${name} {`, `  entry ${agents[0]}`, ...agents.map((a, i) => `  agent ${a}: worker${i === 0 ? ' { terminal done complete "done" }' : ""}`), "}");

describe("mixed-script-name", () => {
  it("fires on an agent name with a Cyrillic е among Latin letters", () => {
    expect(found(graph("g", "\u0435ditor"))).toEqual([
      {
        rule: "mixed-script-name",
        severity: "warning",
        range: "3:9-3:15",
        message: "agent name '\u0435ditor' mixes scripts (Cyrillic '\u0435', Latin 'ditor'; U+0435), so it can pass for a name it is not: write it in one script.",
      },
    ]);
  });

  it("fires on a graph name, and names each script's letters in order", () => {
    expect(found(graph("p\u0430y\u03bfut", "a"))).toEqual([
      {
        rule: "mixed-script-name",
        severity: "warning",
        range: "1:7-1:13",
        message: "graph name 'p\u0430y\u03bfut' mixes scripts (Latin 'pyut', Cyrillic '\u0430', Greek '\u03bf'; U+0430, U+03BF), so it can pass for a name it is not: write it in one script.",
      },
    ]);
  });

  it("stays quiet for one script with digits, '_' and '-' (Common), combining marks (Inherited), and Japanese (Han with kana)", () => {
    expect(found(graph("g", "Gr\u00f6\u00dfe_2", "\u0440\u0435\u0434\u0430\u043a\u0442\u043e\u0440-1", "cafe\u0301", "\u540d\u524d\u3072\u3089\u304c\u306a", "\u65e5\u672c\u30ab\u30bf\u30ab\u30ca", "editor"))).toEqual([]);
  });

  const fanOut = (name: string, other: string) =>
    lines(
      "graph g {",
      "  envelope 1.4",
      "  entry lead",
      "  agent lead: supervisor { terminal done }",
      "  agent a: worker",
      "  agent b: worker",
      `  delegate lead -> a { fan_out ${name} }`,
      `  delegate lead -> b { fan_out ${other} }`,
      "  return a -> lead",
      "  return b -> lead",
      "}",
    );

  it("fires once on a fan-out name with a Cyrillic \u0456 among Latin letters, at its first fan_out line", () => {
    expect(found(fanOut("b\u0456ds", "b\u0456ds"))).toEqual([
      {
        rule: "mixed-script-name",
        severity: "warning",
        range: "7:32-7:36",
        message: "fan-out name 'b\u0456ds' mixes scripts (Latin 'bds', Cyrillic '\u0456'; U+0456), so it can pass for a name it is not: write it in one script.",
      },
    ]);
  });

  it("stays quiet for fan-out names in one script", () => {
    expect(found(fanOut("\u0437\u0430\u044f\u0432\u043a\u0438", "\u0437\u0430\u044f\u0432\u043a\u0438"))).toEqual([]);
    expect(found(fanOut("bids", "bids"))).toEqual([]);
  });
});
