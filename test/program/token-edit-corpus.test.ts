/**
 * Every example and fixture (and a generated graph), each with LF, CRLF and lone-CR line breaks,
 * through a program: long runs of hostile edits (near line breaks, in strings, at comment
 * markers; directives, escapes, surrogate halves, NUL, BOM typed), each carried check compared
 * with a fresh one, every model `decl` the very node of the tree.
 */
import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { check } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { createOverlayHost } from "../../src/program/host.js";
import { createProgram } from "../../src/program/program.js";

const files = execSync("find examples test/fixtures -name '*.seam'").toString().trim().split("\n").sort();
const baseTexts = [...files.map((f) => readFileSync(f, "utf8")), toSeam(generateGraph({ agents: 60 }))];
const texts = baseTexts.flatMap((t) => [t, t.replace(/\n/g, "\r\n"), t.replace(/\n/g, "\r")]);
const pieces = fc.constantFrom(" ", "\t", "\n", "\r", "\r\n", "x", "é", "\u2028", "\uFEFF", "\uD83D", "\uDE00", "\u0000", '"', "\\", "\\\"", "\\u{1F600}", "*/", "/*", "//", "-- ", ",", "seam-disable-next-line", " unreachable-agent", "seam-guess", "seam-disable", "agent", "->", "{", "}");
const step = fc.record({ where: fc.nat(), removed: fc.nat(3), inserted: fc.array(pieces, { maxLength: 3 }), sort: fc.constantFrom("any", "near", "string", "comment") });

describe("a program carrying checks over the corpus", () => {
it("gives a fresh check's result after every edit of long hostile runs", () => {
  let edits = 0, reused = 0;
  fc.assert(
    fc.property(fc.nat(texts.length - 1), fc.array(step, { minLength: 10, maxLength: 40 }), (which, steps) => {
      const program = createProgram(createOverlayHost());
      let text = texts[which] as string;
      program.checkFile(createSourceFile("x.seam", text));
      for (const s of steps) {
        const pool: number[] = [];
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (s.sort === "near" && (c === "\r" || c === "\n")) pool.push(i, i + 1);
          if (s.sort === "string" && c === '"') pool.push(i + 1);
          if (s.sort === "comment" && (c === "/" || c === "*")) pool.push(i, i + 1, i + 2);
        }
        const at = pool.length > 0 ? (pool[s.where % pool.length] as number) : s.where % (text.length + 1);
        text = text.slice(0, at) + s.inserted.join("") + text.slice(Math.min(text.length, at + s.removed));
        const before = program.stats.reused;
        const result = program.checkFile(createSourceFile("x.seam", text));
        edits++;
        if (program.stats.reused > before) {
          reused++;
          expect(result).toEqual(check(createSourceFile("x.seam", text)));
          const nodes = new Set<object>();
          const walk = (v: unknown): void => { if (typeof v !== "object" || v === null || nodes.has(v)) return; nodes.add(v); for (const f of Object.values(v)) walk(f); };
          walk(result.ast);
          for (const g of result.graphs) {
            expect(nodes.has(g.decl)).toBe(true);
            for (const a of g.agents) { expect(nodes.has(a.decl)).toBe(true); if (a.join) expect(nodes.has(a.join.decl)).toBe(true); }
            for (const e of g.edges) expect(nodes.has(e.decl)).toBe(true);
          }
        }
      }
    }),
    { numRuns: 300, seed: 1 },
  );
  console.log(`corpus run: ${edits} edits, ${reused} reused`);
  // Not vacuous: a good share of the edits take the shortcut.
  expect(reused).toBeGreaterThan(edits / 10);
}, 120_000);
});
