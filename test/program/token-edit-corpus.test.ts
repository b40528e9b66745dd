/**
 * Every example and fixture (and a generated graph), each with LF, CRLF and lone-CR line breaks,
 * through a program: long runs of hostile edits (near line breaks, in strings, at comment
 * markers; directives, escapes, surrogate halves, NUL, BOM typed), each carried check compared
 * with a fresh one, every model `decl` the very node of the tree.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { followEditRuns } from "./carried-checks.js";

const seamFiles = (folder: string): string[] =>
  readdirSync(new URL(`../../${folder}/`, import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".seam"))
    .sort()
    .map((name) => readFileSync(new URL(`../../${folder}/${name}`, import.meta.url), "utf8"));
const baseTexts = [...seamFiles("examples"), ...seamFiles("test/fixtures"), toSeam(generateGraph({ agents: 60 }))];
const texts = baseTexts.flatMap((t) => [t, t.replace(/\n/g, "\r\n"), t.replace(/\n/g, "\r")]);
const pieces = fc.constantFrom(" ", "\t", "\n", "\r", "\r\n", "x", "é", "\u2028", "\uFEFF", "\uD83D", "\uDE00", "\u0000", '"', "\\", '\\"', "\\u{1F600}", "*/", "/*", "//", "-- ", ",", "seam-disable-next-line", " unreachable-agent", "seam-guess", "seam-disable", "agent", "->", "{", "}");
const step = fc.record({ where: fc.nat(), removed: fc.nat(3), inserted: fc.array(pieces, { maxLength: 3 }), sort: fc.constantFrom("any", "near", "string", "comment") });

/** Where a step of `sort` may land in `text`: at line breaks, inside quotes, at comment markers; "any": anywhere. */
function places(text: string, sort: string): number[] {
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (sort === "near" && (c === "\r" || c === "\n")) offsets.push(i, i + 1);
    if (sort === "string" && c === '"') offsets.push(i + 1);
    if (sort === "comment" && (c === "/" || c === "*")) offsets.push(i, i + 1, i + 2);
  }
  return offsets;
}

describe("a program carrying checks over the corpus", () => {
  it("gives a fresh check's result after every edit of long hostile runs", () => {
    const run = followEditRuns(texts, step, { minSteps: 10, maxSteps: 40, numRuns: 300, seed: 1, places: (text, s) => places(text, s.sort) });
    // Not vacuous: a good share of the edits take the shortcut.
    expect(run.reused).toBeGreaterThan(run.edits / 10);
  }, 120_000);
});
