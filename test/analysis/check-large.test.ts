import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";

// End-to-end runs on large generated graphs: no stack overflow and the right findings (speed is
// measured by `npm run bench`, not here).
function chain(n: number, extra: (out: string[]) => void, terminal = true): string {
  const out = ["graph big {", "  entry a0"];
  for (let i = 0; i < n; i++) out.push(`  agent a${i}: peer${terminal && i === n - 1 ? " { terminal done }" : ""}`);
  for (let i = 0; i + 1 < n; i++) out.push(`  transfer a${i} -> a${i + 1}`);
  extra(out);
  out.push("}");
  return out.join("\n");
}

describe("check on large graphs", () => {
  const n = 20_000;

  it("a chain with bounded back edges: exact H", () => {
    const result = checkText("ladder.seam", chain(n, (out) => {
      for (let i = 1; i < n; i += 2) out.push(`  transfer a${i} -> a${i - 1} { max_rounds 1 }`);
    }));
    expect(result.diagnostics).toEqual([]);
    // Each of the n / 2 back edges adds a detour of two handoffs.
    expect(result.graphs[0]?.hopLimit).toEqual({ value: n - 1 + n + 1, longestWalk: 2 * n - 1, exact: true, shortestWalk: n - 1 });
  });

  it("a chain into a dead end: one no-terminal-path naming the feeders", () => {
    const result = checkText("dead.seam", chain(n, () => undefined, false));
    const found = result.diagnostics.filter((d) => d.rule === "no-terminal-path");
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain(`'a${n - 1}'`);
    expect(found[0]?.message).toContain(`${n - 1 - 6} more`);
  });

  it("a thousand typos: every one reported, suggestions capped", () => {
    const result = checkText("typos.seam", chain(n, (out) => {
      for (let i = 0; i < 1000; i++) out.push(`  transfer a${i} -> b${i}`);
    }));
    expect(result.diagnostics.filter((d) => d.rule === "unknown-agent")).toHaveLength(1000);
  });
});
