/**
 * Hostile edits for the reuse of a check across a token-preserving edit (`token-edit.ts`): line
 * breaks of every style near suppressions, edits between a CR and its LF, directives made and
 * unmade in comments, odd characters, long runs of edits through a program (whose cached scan is
 * carried from each edit to the next), each version compared with a fresh check.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { followEditRuns, reuse } from "./carried-checks.js";

/** A suppression whose next line has the finding it silences; lines end in CRLF. */
const crlf = [
  "seam 1",
  "graph g {",
  "  entry lead",
  '  agent lead: supervisor { terminal done complete "done" }',
  "  /* a note */ // seam-disable-next-line unreachable-agent -- later",
  '  agent spare: worker { terminal t complete "t" }',
  "  /* two\r\n  lines */",
  "}",
  "",
].join("\r\n");

const read = (name: string): string => readFileSync(new URL(`../fixtures/parser/suppressions/${name}.seam`, import.meta.url), "utf8");
const bases = ["joined-and-split", "block-on-code-line", "long-block"].map(read);
/** Each base with LF, CRLF, lone CR and mixed line breaks, and one with a BOM. */
const texts = [
  crlf,
  ...bases.flatMap((t) => [t, t.replace(/\n/g, "\r\n"), t.replace(/\n/g, "\r"), t.replace(/\n/g, (_, i: number) => (i % 3 === 0 ? "\r\n" : i % 3 === 1 ? "\r" : "\n"))]),
  `\uFEFF${crlf}`,
];

describe("reuseAcrossTokenEdit on hostile edits", () => {
  it.each([
    ["a space typed between CR and LF (one line break made two)", (t: string) => t.replace("-- later\r\n", "-- later\r \n")],
    ["a second CR typed into a CRLF", (t: string) => t.replace("-- later\r\n", "-- later\r\r\n")],
    ["a letter typed between CR and LF in a block comment", (t: string) => t.replace("two\r\n", "two\rx\n")],
  ])("gives a fresh check's result, or declines, for %s", (_, edit) => {
    const edited = edit(crlf);
    expect(edited).not.toBe(crlf);
    const reused = reuse(crlf, edited);
    if (reused !== undefined) expect(reused).toEqual(check(createSourceFile("x.seam", edited)));
  });

  it("declines the whitespace between CR and LF deleted (two line breaks joined into one)", () => {
    const split = crlf.replace("-- later\r\n", "-- later\r \n");
    expect(check(createSourceFile("x.seam", split)).diagnostics).not.toEqual(check(createSourceFile("x.seam", crlf)).diagnostics);
    expect(reuse(split, crlf)).toBeUndefined();
    expect(reuse(crlf, split)).toBeUndefined();
  });

  const pieces = fc.constantFrom(" ", "\t", "\n", "\r", "\r\n", "\f", "\v", "x", "\u2028", "\uFEFF", "\uD800", "\uDC00", "\u0000", "*/", "/*", "//", '"', "\\", "seam-disable-next-line unreachable-agent -- r", "seam-disable-next-line max-rounds-zero", "seam-guess role -- why", "seam-disable unreachable-agent");
  const step = fc.record({ where: fc.nat(), removed: fc.nat(2), inserted: fc.array(pieces, { maxLength: 2 }), nearBreak: fc.boolean() });

  it("follows long runs of edits near line breaks through a program, each version as a fresh check has it", () => {
    const breaks = (text: string): number[] => {
      const offsets: number[] = [];
      for (let i = 0; i < text.length; i++) if (text[i] === "\r" || text[i] === "\n") offsets.push(i, i + 1);
      return offsets;
    };
    const run = followEditRuns(texts, step, { minSteps: 5, maxSteps: 25, numRuns: 300, seed: 7, places: (text, s) => (s.nearBreak ? breaks(text) : []) });
    // Not vacuous: many of the edits take the shortcut.
    expect(run.reused).toBeGreaterThan(run.edits / 10);
  });
});
