import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { getLineAndColumn } from "../../../src/core/source-file.js";
import { lines } from "./rule-table.js";

/** The `rule` findings of `text` with their whole range (1-based line:column-line:column), message and related notes. */
function found(text: string, rule: string) {
  const result = checkText("names.seam", text);
  expect(result.diagnostics.filter((d) => d.rule === "syntax")).toEqual([]);
  const at = (offset: number) => {
    const p = getLineAndColumn(result.file, offset);
    return `${p.line}:${p.column}`;
  };
  return result.diagnostics
    .filter((d) => d.rule === rule)
    .map((d) => ({
      rule: d.rule,
      severity: d.severity,
      range: `${at(d.range.start)}-${at(d.range.end)}`,
      message: d.message,
      related: (d.related ?? []).map((r) => `${at(r.range.start)}-${at(r.range.end)} ${r.message}`),
    }));
}

const graph = (...agents: string[]) =>
  lines("graph g {", "  entry editor", '  agent editor: worker { terminal done complete "done" }', ...agents.map((a) => `  agent ${a}: worker`), "}");

describe("confusable-name", () => {
  it("fires on 'еditor' (a Cyrillic е) beside 'editor', at the later name, naming the odd character", () => {
    expect(found(graph("\u0435ditor"), "confusable-name")).toEqual([
      {
        rule: "confusable-name",
        severity: "warning",
        range: "4:9-4:15",
        message:
          "agent '\u0435ditor' looks like agent 'editor' but is another name (they differ in look-alike characters: U+0435): rename one so that the two can be told apart.",
        related: ["3:9-3:15 'editor' is declared here"],
      },
    ]);
  });

  it("fires on a name written wholly in another script that reads the same ('реn' in Cyrillic beside 'pen')", () => {
    const text = lines("graph g {", "  entry pen", '  agent pen: worker { terminal done complete "done" }', "  agent \u0440\u0435n: worker", "}");
    expect(found(text, "confusable-name").map((f) => [f.range, f.message])).toEqual([
      [
        "4:9-4:12",
        "agent '\u0440\u0435n' looks like agent 'pen' but is another name (they differ in look-alike characters: U+0440, U+0435): rename one so that the two can be told apart.",
      ],
    ]);
  });

  it("fires on a precomposed and a decomposed é (the skeleton is taken after NFD)", () => {
    const text = lines("graph g {", "  entry caf\u00e9", '  agent caf\u00e9: worker { terminal done complete "done" }', "  agent cafe\u0301: worker", "}");
    expect(found(text, "confusable-name").map((f) => f.range)).toEqual(["4:9-4:14"]);
  });

  it("stays quiet for names that only share letters, for ASCII look-alikes (rn, m), and in a file of ASCII names", () => {
    expect(found(graph("editors", "\u540d\u524d", "Gr\u00f6\u00dfe"), "confusable-name")).toEqual([]);
    expect(found(graph("rn", "m", "l1", "ll"), "confusable-name")).toEqual([]);
  });

  it("compares agents within one graph, not across graphs", () => {
    const text = lines("graph a {", "  entry editor", "  agent editor: worker { terminal t }", "}", "graph b {", "  entry \u0435ditor", "  agent \u0435ditor: worker { terminal t }", "}");
    expect(found(text, "confusable-name")).toEqual([]);
  });
});
