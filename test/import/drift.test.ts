import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { getLineAndColumn } from "../../src/core/source-file.js";
import { driftFindings } from "../../src/import/drift.js";

const CODE = [
  "graph g {",
  "  entry lead",
  "  agent lead: supervisor { terminal done }",
  "  agent helper: worker",
  "  agent critic: worker",
  "  delegate lead -> helper { max_rounds 2 }",
  "  return helper -> lead",
  "  delegate lead -> critic { max_rounds 1 }",
  "  return critic -> lead",
  "}",
].join("\n");

function drift(seam: string, source = "LangGraph") {
  const code = checkText("code.seam", CODE);
  const mine = checkText("mine.seam", seam);
  return driftFindings(source, { file: code.file, graph: code.graphs[0]! }, { file: mine.file, graph: mine.graphs[0]! }).map((d) => ({
    rule: d.rule,
    severity: d.severity,
    at: `${getLineAndColumn(d.file, d.range.start).line}:${getLineAndColumn(d.file, d.range.start).column}-${getLineAndColumn(d.file, d.range.end).column}`,
    message: d.message,
  }));
}

describe("drift between a framework's graph and a .seam graph", () => {
  it("finds none when agents, edges, entries and ends agree, whatever the roles, kinds and settings", () => {
    const same = CODE.replace("agent helper: worker", "agent helper: worker { version \"1.0.0\" }").replace("return critic -> lead", "return critic -> lead { require status }");
    expect(drift(same)).toEqual([]);
  });

  it("reports each agent, edge, entry and end that one side lacks, once, in the .seam file", () => {
    const mine = [
      "graph g {",
      "  entry lead, extra",
      "  agent lead: supervisor",
      "  agent helper: worker { terminal filed }",
      "  agent extra: peer { terminal x }",
      "  delegate lead -> helper { max_rounds 2 }",
      "  transfer helper -> extra",
      "}",
    ].join("\n");
    expect(drift(mine)).toEqual([
      { rule: "drift-agent", severity: "error", at: "1:7-8", message: "the LangGraph graph has agent 'critic', which this graph lacks: add it, or remove it from the code" },
      { rule: "drift-agent", severity: "error", at: "5:9-14", message: "agent 'extra' is not in the LangGraph graph: remove it, or add it to the code" },
      { rule: "drift-edge", severity: "error", at: "4:9-15", message: "the LangGraph graph has an edge helper -> lead, which this graph lacks: add it, or remove it from the code" },
      { rule: "drift-end", severity: "error", at: "3:9-13", message: "the LangGraph graph can end tasks at 'lead', which has no terminal here: add one, or change the code" },
      { rule: "drift-end", severity: "error", at: "4:26-40", message: "the LangGraph graph never ends tasks at 'helper': remove its terminals, or change the code" },
    ]);
  });

  it("reports entries both ways, and an edge the .seam graph adds between agents the code has", () => {
    const mine = CODE.replace("entry lead", "entry helper").replace("return critic -> lead", "return critic -> lead\n  delegate helper -> critic");
    expect(drift(mine)).toEqual([
      { rule: "drift-edge", severity: "error", at: "10:3-28", message: "the edge helper -> critic is not in the LangGraph graph: remove it, or add it to the code" },
      { rule: "drift-entry", severity: "error", at: "2:3-15", message: "the LangGraph graph starts tasks at 'lead', which this graph's entry does not name: add it, or change the code" },
      { rule: "drift-entry", severity: "error", at: "2:9-15", message: "the LangGraph graph does not start tasks at 'helper': remove it from entry, or change the code" },
    ]);
  });

  it("names the source once, whatever article its name carries", () => {
    const mine = CODE.replace("  delegate lead -> critic { max_rounds 1 }\n  return critic -> lead\n", "").replace("  agent critic: worker\n", "");
    const message = (source: string): string | undefined => drift(mine, source)[0]?.message;
    expect(message("the OpenAI Agents SDK")).toBe("the OpenAI Agents SDK graph has agent 'critic', which this graph lacks: add it, or remove it from the code");
    expect(message("a seam graph picture")).toBe("the seam graph picture has agent 'critic', which this graph lacks: add it, or remove it from the code");
  });
});
