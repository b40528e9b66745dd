import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { DEFAULT_CONTRACTS } from "../../src/analysis/bind.js";
import { lines } from "./rules/rule-table.js";

const graphOf = (text: string, index = 0) => {
  const result = checkText("bind.seam", text);
  expect(result.diagnostics.filter((d) => d.rule === "syntax")).toEqual([]);
  const graph = result.graphs[index];
  if (graph === undefined) throw new Error("no graph");
  return graph;
};

describe("binding", () => {
  it("applies the defaults", () => {
    const g = graphOf(lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "}"));
    expect(g.envelope).toEqual({ major: 1, minor: 3 });
    expect(g.onHopLimit).toBe("escalate");
    expect(g.loopSignature).toEqual(["goal.statement", "decisions[].statement"]);
    expect(g.contracts).toEqual(DEFAULT_CONTRACTS);
    expect(g.hopLimit).toEqual({ value: 1, longestWalk: 0, exact: true, shortestWalk: 0 });
  });

  it("gives each edge its kind's fields, replaced by a contract and extended by its own require", () => {
    const g = graphOf(
      lines(
        "graph g {",
        "  envelope 1.2",
        "  entry boss",
        "  on_hop_limit failed",
        "  loop_signature goal.statement, artefacts[].digest",
        "  contract transfer { require provenance, decisions[].confidence }",
        "  agent boss: supervisor { terminal done failed \"gave up\" }",
        "  agent w: worker { version \"2.0.1\" }",
        "  agent p: peer { terminal ok }",
        "  delegate boss -> w { require goal.out_of_scope max_rounds 2 }",
        "  return w -> boss observe",
        "  transfer w -> p { require artefacts }",
        "}",
      ),
    );
    expect(g.envelope).toEqual({ major: 1, minor: 2 });
    expect(g.onHopLimit).toBe("failed");
    expect(g.loopSignature).toEqual(["goal.statement", "artefacts[].digest"]);
    expect(g.contracts.transfer).toEqual(["provenance", "decisions[].confidence"]);
    const [delegate, ret, transfer] = g.edges;
    expect(delegate?.require).toEqual(["constraints", "goal.out_of_scope"]);
    expect(delegate?.maxRounds).toBe(2);
    expect(ret?.require).toEqual(["artefacts"]);
    expect(ret?.observe).toBe(true);
    expect(transfer?.require).toEqual(["artefacts", "decisions[].confidence", "provenance"]);
    expect(g.agents.map((a) => [a.id, a.role, a.version, a.terminals])).toEqual([
      ["boss", "supervisor", undefined, [{ id: "done", outcome: "failed", description: "gave up" }]],
      ["w", "worker", "2.0.1", []],
      ["p", "peer", undefined, [{ id: "ok", outcome: "complete" }]],
    ]);
  });

  it("keeps first declarations, drops edges to unknown agents and marks reachability", () => {
    const g = graphOf(
      lines(
        "graph g {",
        "  entry a, a, ghost",
        "  agent a: peer",
        "  agent a: worker",
        "  agent b: peer { terminal t }",
        "  agent c: peer",
        "  transfer a -> b",
        "  transfer a -> b",
        "  transfer a -> ghost",
        "}",
      ),
    );
    expect(g.entries).toEqual(["a"]);
    expect(g.agents.map((a) => [a.id, a.role, a.reachable, a.canTerminate])).toEqual([
      ["a", "peer", true, true],
      ["b", "peer", true, true],
      ["c", "peer", false, false],
    ]);
    expect(g.edges.map((e) => [e.index, e.from, e.to])).toEqual([[0, "a", "b"]]);
  });

  it("checks several graphs of one file each on its own, and names unbounded cycles", () => {
    const result = checkText(
      "two.seam",
      lines(
        "graph one {",
        "  entry a",
        "  hop_limit 7",
        "  agent a: peer { terminal t }",
        "  agent b: peer",
        "  transfer a -> b",
        "  transfer b -> a",
        "}",
        "graph two {",
        "  entry x",
        "  agent x: peer { terminal t }",
        "}",
      ),
    );
    expect(result.graphs.map((g) => g.name)).toEqual(["one", "two"]);
    const [one, two] = result.graphs;
    expect(one?.hopLimit).toEqual({ value: 7, declared: 7, exact: true, shortestWalk: 0 });
    expect(one?.unboundedCycles).toEqual([["a", "b", "a"]]);
    expect(one?.edges.map((e) => e.inUnboundedCycle)).toEqual([true, true]);
    expect(two?.hopLimit.value).toBe(1);
    expect(two?.unboundedCycles).toEqual([]);
  });

  it("never throws on broken input and still checks what parsed", () => {
    const result = checkText("broken.seam", "graph g {\n  entry a\n  agent a: peer { terminal t }\n  transfer a ->\n  agent b: ???\n}\n");
    expect(result.diagnostics.some((d) => d.rule === "syntax")).toBe(true);
    expect(result.diagnostics.some((d) => d.rule === "internal-error")).toBe(false);
  });
});
