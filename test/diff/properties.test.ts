/**
 * Properties of `seam diff` over the examples and the table's graph: a graph diffed with itself,
 * or with its items shuffled, re-spaced and re-commented, gives nothing; and every finding names
 * things that exist in the version it says.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { contractFields } from "../../src/diff/contract-fields.js";
import { diffFiles } from "../../src/diff/diff.js";
import type { Finding } from "../../src/diff/finding.js";
import type { FileSide } from "../../src/diff/rule.js";
import { BASE } from "./helpers.js";

const EXAMPLES = new URL("../../examples/", import.meta.url);
const TEXTS: readonly string[] = [
  BASE,
  ...readdirSync(EXAMPLES)
    .filter((name) => name.endsWith(".seam"))
    .sort()
    .map((name) => readFileSync(new URL(name, EXAMPLES), "utf8")),
];

function load(path: string, text: string): FileSide | undefined {
  const result = checkText(path, text);
  if (result.diagnostics.some((d) => d.severity === "error")) return undefined;
  return { file: result.file, graphs: result.graphs };
}

/** Rebuilds each graph from its items, in `order` (a permutation seed), with other spacing and comments. */
function reformat(text: string, shuffle: (n: number) => number[], gap: string): string {
  const result = checkText("x.seam", text);
  const graphs = result.ast.graphs.map((graph) => {
    if (graph.hasError) throw new Error("reformat() takes files without syntax errors");
    const items = graph.items.map((item) => text.slice(item.range.start, item.range.end));
    const order = shuffle(items.length);
    const body = order.map((i) => items[i]).join(gap);
    return `graph ${graph.name.name} {${gap}${body}${gap}}`;
  });
  return `// reformatted\n${graphs.join(`\n${gap}`)}\n`;
}

/** Whether every name the finding gives exists in the version it says. */
function namesExist(finding: Finding, old: FileSide, next: FileSide): boolean {
  const side = finding.subject.in === "old" ? old : next;
  const graph = side.graphs.find((g) => g.name === finding.graph);
  if (graph === undefined) return false;
  const { agent, edge, terminal, field } = finding.subject;
  if (agent !== undefined) {
    const found = graph.agents.find((a) => a.id === agent);
    if (found === undefined) return false;
    if (terminal !== undefined && !found.terminals.some((t) => t.id === terminal)) return false;
  }
  if (edge !== undefined) {
    const found = graph.edges.find((e) => e.kind === edge.kind && e.from === edge.from && e.to === edge.to);
    if (found === undefined) return false;
    // A field is an obligation of the edge's contract in one of the versions (added: new, removed: old).
    if (field !== undefined) {
      const other = (finding.subject.in === "old" ? next : old).graphs.find((g) => g.name === finding.graph);
      const inEither = [graph, other].some((g) =>
        g?.edges.some((e) => e.from === edge.from && e.to === edge.to && contractFields(g, e.require).includes(field)),
      );
      if (!inEither) return false;
    }
  }
  if (finding.owner !== undefined && !next.graphs.find((g) => g.name === finding.graph)?.agents.some((a) => a.id === finding.owner)) return false;
  return true;
}

const shuffles = fc.infiniteStream(fc.nat()).map((stream) => (n: number) => {
  const order = [...Array(n).keys()];
  const it = stream[Symbol.iterator]();
  for (let i = n - 1; i > 0; i--) {
    const j = (it.next().value as number) % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
});
const gaps = fc.constantFrom("\n", "\n\n  ", " /* moved */ ", "\r\n\t", "\n// note\n");

describe("seam diff properties", () => {
  it("diff(x, x) is empty", () => {
    for (const text of TEXTS) {
      const side = load("x.seam", text);
      expect(side).toBeDefined();
      expect(diffFiles(side as FileSide, side as FileSide)).toEqual([]);
    }
  });

  it("diff(x, x reordered and reformatted) is empty", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TEXTS), shuffles, gaps, (text, shuffle, gap) => {
        const old = load("old.seam", text) as FileSide;
        const next = load("new.seam", reformat(text, shuffle, gap));
        expect(next).toBeDefined();
        expect(diffFiles(old, next as FileSide).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("every finding names what exists in the version it says", () => {
    // Drop a random set of items (an edge, an agent block, a setting...); keep graphs that still check.
    fc.assert(
      fc.property(fc.constantFrom(...TEXTS), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (text, picks) => {
        const old = load("old.seam", text) as FileSide;
        const items = checkText("x.seam", text).ast.graphs.flatMap((g) => g.items);
        const dropped = new Set(picks.map((p) => p % items.length));
        let edited = text;
        for (const i of [...dropped].sort((a, b) => b - a)) {
          const item = items[i];
          if (item !== undefined) edited = edited.slice(0, item.range.start) + edited.slice(item.range.end);
        }
        const next = load("new.seam", edited);
        fc.pre(next !== undefined);
        for (const [a, b] of [
          [old, next as FileSide],
          [next as FileSide, old],
        ] as const) {
          const findings = diffFiles(a, b);
          for (const f of findings) expect({ rule: f.rule, ok: namesExist(f, a, b) }).toEqual({ rule: f.rule, ok: true });
        }
      }),
      { numRuns: 80 },
    );
  });
});
