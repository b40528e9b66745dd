import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines } from "./rule-table.js";

// One finding must not contradict another, and each names the exact edges it is about.
describe("cycle messages", () => {
  it("a self-handoff is only a self-handoff, not also an unbounded cycle", () => {
    const text = lines("graph g {", "  entry a", "  agent a: peer { terminal done }", "  transfer a -> a", "}");
    const result = checkText("g.seam", text);
    expect(result.diagnostics.map((d) => [d.rule, d.severity])).toEqual([["self-handoff", "error"]]);
  });

  it("a cycle beside a bounded delegate names its own edges, not the bounded one", () => {
    const text = lines(
      "graph g {",
      "  entry s",
      "  hop_limit 9",
      "  agent s: supervisor { terminal done }",
      "  agent w: supervisor",
      "  delegate s -> w { max_rounds 2 }",
      "  delegate w -> s",
      "  return s -> w",
      "  return w -> s",
      "}",
    );
    const found = checkText("g.seam", text).diagnostics.filter((d) => d.rule === "unbounded-cycle");
    const start = text.indexOf("return s -> w");
    expect(found.map((d) => ({ severity: d.severity, range: d.range, message: d.message, related: d.related?.map((r) => r.message) }))).toEqual([
      {
        severity: "warning",
        range: { start, end: start + "return s -> w".length },
        message:
          "unbounded cycle s -> w -> s (return s -> w, delegate w -> s): none of its 2 edges has max_rounds, so a task may circle it forever; add `max_rounds N` to one of them (e.g. `return s -> w { max_rounds 2 }`).",
        related: ["delegate w -> s is on the same cycle"],
      },
    ]);
  });

  it("hop-limit-unbounded names the edges of the cycle, not only its agents", () => {
    const text = lines(
      "graph g {",
      "  entry s",
      "  agent s: supervisor { terminal done }",
      "  agent w: supervisor",
      "  delegate s -> w { max_rounds 2 }",
      "  return s -> w",
      "  return w -> s",
      "  delegate w -> s",
      "}",
    );
    const found = checkText("g.seam", text).diagnostics.filter((d) => d.rule === "hop-limit-unbounded");
    expect(found.map((d) => [d.severity, d.range, d.message])).toEqual([
      [
        "error",
        { start: text.indexOf("g {"), end: text.indexOf("g {") + 1 },
        "the hop limit of graph 'g' (auto, as no hop_limit is declared) cannot be computed: no edge of the cycle s -> w -> s (return s -> w, return w -> s) has max_rounds, so walks have no longest length. Add `max_rounds N` to one of those edges, or declare an explicit `hop_limit N`.",
      ],
    ]);
  });
});
