import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines } from "./rule-table.js";

// The per-entry kind of hop-limit-too-low: one entry finishes at once, another needs four
// handoffs, so `hop_limit 3` stops every task that enters at the second.
const graph = (limit: string, extra: string[] = []): string =>
  lines(
    "graph g {",
    "  entry a, x",
    `  hop_limit ${limit}`,
    "  agent a: peer { terminal done }",
    "  agent x: peer",
    "  agent y: peer",
    "  agent z: peer",
    "  agent w: peer",
    "  transfer x -> y",
    "  transfer y -> z",
    "  transfer z -> w",
    "  transfer w -> a",
    ...extra,
    "}",
  );

function found(text: string) {
  return checkText("g.seam", text).diagnostics.filter((d) => d.rule === "hop-limit-too-low");
}

describe("hop-limit-too-low per entry", () => {
  it("errs on a limit that blocks one entry, naming it and its walk", () => {
    const text = graph("3");
    const [d, ...rest] = found(text);
    expect(rest).toEqual([]);
    expect(d?.severity).toBe("error");
    expect(d?.range).toEqual({ start: text.indexOf("3\n"), end: text.indexOf("3\n") + 1 });
    expect(d?.message).toBe(
      "hop_limit 3 stops every task entering at 'x': the shortest walk from entry 'x' to a terminal, x -> y -> z -> w -> a, takes 4 handoffs, and ingest rejects hop.index >= hop.limit; raise hop_limit to at least 5, or use auto.",
    );
    expect(d?.path).toEqual(["x", "y", "z", "w", "a"]);
  });

  it("says every task when every entry is blocked, naming the farthest entry", () => {
    const text = graph("0");
    expect(found(text).map((d) => d.message)).toEqual([
      "hop_limit 0 stops every task: the shortest walk from entry 'x' to a terminal, x -> y -> z -> w -> a, takes 4 handoffs, and ingest rejects hop.index >= hop.limit; raise hop_limit to at least 5, or use auto.",
    ]);
  });

  it("stays quiet at one more than the farthest entry's shortest walk", () => {
    expect(found(graph("5"))).toEqual([]);
  });

  it("ignores an entry that can reach no terminal (no-terminal-path reports it)", () => {
    const text = lines("graph g {", "  entry a, q", "  hop_limit 1", "  agent a: peer { terminal done }", "  agent q: peer", "}");
    expect(found(text)).toEqual([]);
  });
});
