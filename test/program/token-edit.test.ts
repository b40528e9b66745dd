import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { check } from "../../src/analysis/check.js";
import type { CheckResult } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { scan } from "../../src/parser/scanner.js";
import { createOverlayHost } from "../../src/program/host.js";
import { createProgram } from "../../src/program/program.js";
import { expectFresh, reuse } from "./carried-checks.js";

const read = (url: URL): string => readFileSync(url, "utf8");
const examples = readdirSync(new URL("../../examples/", import.meta.url))
  .filter((name) => name.endsWith(".seam"))
  .sort()
  .map((name) => read(new URL(`../../examples/${name}`, import.meta.url)));
const suppressions = ["joined-and-split", "block-on-code-line", "long-block"].map((name) =>
  read(new URL(`../fixtures/parser/suppressions/${name}.seam`, import.meta.url)),
);
const guesses = read(new URL("../fixtures/import/expected/langgraph-supervisor.seam", import.meta.url));
/** A graph with findings after its comments, and a comment at the very end without a line break. */
const findings = [
  "graph g {",
  "  entry a",
  "  // what a does /* not a block */",
  '  agent a: supervisor { terminal done complete "a is done" }',
  "  agent b: worker /* a note",
  "  over two lines */",
  '  agent c: worker { terminal stop failed "one" terminal stop "two" version "1.0.0" }',
  "  delegate a -> b",
  "  delegate a -> nobody // unknown",
  "  delegate a -> c",
  "}",
  "// the end",
].join("\n");
/** A syntax error (the parser's recovery) between two comments, and digits glued to a name. */
const broken = 'graph g {\n  entry a // first\n  agent a: worker { terminal done "d" }\n  delegate ->\n  /* second */\n  agent 1b: worker\n}\n// last\n';
/** Digits glued to names and keywords, digits apart from a name, tokens written together and apart. */
const glued = read(new URL("../fixtures/program/glued-names.seam", import.meta.url));
/** A generated graph of a few hundred agents, as the bench's are made. */
const big = toSeam(generateGraph({ agents: 300 }));
const texts = [...examples, ...suppressions, guesses, findings, broken, glued];

/** Offsets of interest in `text` from its scan: comment bodies, token boundaries, string bodies. */
function offsetsOf(text: string): { comments: number[]; boundaries: number[]; strings: number[] } {
  const scanned = scan(text);
  const comments: number[] = [];
  for (const [start, end] of scanned.comments) for (let i = start + 2; i <= end; i++) comments.push(i);
  const boundaries: number[] = [];
  const strings: number[] = [];
  for (let t = 0; t < scanned.count; t++) {
    const start = scanned.starts[t] as number;
    const end = scanned.ends[t] as number;
    boundaries.push(start, end);
    if (text[start] === '"') for (let i = start + 1; i < end; i++) strings.push(i);
  }
  return { comments, boundaries, strings };
}

/** Random edits: what is removed at an offset of a chosen sort, and what is typed there. */
const pieces = fc.constantFrom(" ", "  ", "\t", "\n", "\r\n", "x", "é", "1", "-", ">", ".", ",", ":", "{", "}", '"', "\\", "*", "/", "*/", "/*", "//", "\u0000", "[]", "agent", "seam-disable-next-line unknown-agent -- r", "seam-guess role -- why", "seam-disable");
const edits = fc.record({
  where: fc.nat(),
  removed: fc.nat(3),
  inserted: fc.array(pieces, { maxLength: 3 }),
  sort: fc.constantFrom("anywhere", "comment", "boundary", "string"),
});

function applyEdit(text: string, edit: { where: number; removed: number; inserted: string[]; sort: string }): string {
  const offsets = offsetsOf(text);
  const pool = edit.sort === "comment" ? offsets.comments : edit.sort === "boundary" ? offsets.boundaries : edit.sort === "string" ? offsets.strings : [];
  const at = pool.length > 0 ? (pool[edit.where % pool.length] as number) : edit.where % (text.length + 1);
  return text.slice(0, at) + edit.inserted.join("") + text.slice(Math.min(text.length, at + edit.removed));
}

describe("reuseAcrossTokenEdit", () => {
  it("gives the same result as a fresh check, or declines, on random edits of small files", () => {
    let runs = 0;
    let reusedRuns = 0;
    fc.assert(
      fc.property(fc.nat(texts.length - 1), edits, (which, edit) => {
        runs++;
        const text = texts[which] as string;
        const edited = applyEdit(text, edit);
        const reused = reuse(text, edited);
        if (reused === undefined) return;
        reusedRuns++;
        expectFresh(reused, edited);
      }),
      { numRuns: 1500, seed: 18 },
    );
    // Not vacuous: a good share of the edits take the shortcut (the others are checked afresh).
    expect(runs).toBe(1500);
    expect(reusedRuns).toBeGreaterThan(300);
  });

  it("gives the same result as a fresh check on random edits of a generated graph", () => {
    let reusedRuns = 0;
    fc.assert(
      fc.property(edits, (edit) => {
        const edited = applyEdit(big, edit);
        const reused = reuse(big, edited);
        if (reused === undefined) return;
        reusedRuns++;
        expectFresh(reused, edited);
      }),
      { numRuns: 120, seed: 18 },
    );
    expect(reusedRuns).toBeGreaterThan(20);
  });

  it.each([
    ["the start", 0],
    ["a tenth", 0.1],
    ["the middle", 0.5],
    ["nine tenths", 0.9],
    ["the end", 1],
  ])("gives the same result as a fresh check on random edits near %s of a generated graph", (_, share) => {
    // Offsets of every sort within a few lines of that point: the move shifts what follows the
    // edit and shares what precedes it, so both halves are exercised wherever the edit lands.
    const around = Math.round(big.length * share);
    const near = (offsets: number[]): number[] => offsets.filter((o) => Math.abs(o - around) < 400);
    const offsets = offsetsOf(big);
    const pools: Record<string, number[]> = { comment: near(offsets.comments), boundary: near(offsets.boundaries), string: near(offsets.strings) };
    let reusedRuns = 0;
    fc.assert(
      fc.property(edits, (edit) => {
        const pool = pools[edit.sort] ?? [];
        const at = pool.length > 0 ? (pool[edit.where % pool.length] as number) : Math.min(big.length, Math.max(0, around - 200 + (edit.where % 400)));
        const edited = big.slice(0, at) + edit.inserted.join("") + big.slice(Math.min(big.length, at + edit.removed));
        const reused = reuse(big, edited);
        if (reused === undefined) return;
        reusedRuns++;
        expectFresh(reused, edited);
      }),
      { numRuns: 80, seed: 18 },
    );
    // Not vacuous: some of the edits near that point take the shortcut.
    expect(reusedRuns).toBeGreaterThan(2);
  });

  it("follows a run of edits through a program, each version as a fresh check has it", () => {
    fc.assert(
      fc.property(fc.nat(texts.length - 1), fc.array(edits, { minLength: 2, maxLength: 8 }), (which, steps) => {
        const program = createProgram(createOverlayHost());
        let text = texts[which] as string;
        program.checkFile(createSourceFile("x.seam", text));
        for (const step of steps) {
          text = applyEdit(text, step);
          expectFresh(program.checkFile(createSourceFile("x.seam", text)), text);
        }
      }),
      { numRuns: 200, seed: 18 },
    );
  });

  it("reuses the check across typing in a plain comment, moving the findings after it", () => {
    const at = findings.indexOf("what a does") + 4;
    const edited = `${findings.slice(0, at)}typed ${findings.slice(at)}`;
    const file = createSourceFile("x.seam", edited);
    const reused = reuse(findings, edited);
    expect(reused).toEqual(check(file));
    const nobody = edited.indexOf("nobody");
    expect(nobody).toBe(findings.indexOf("nobody") + "typed ".length);
    expect(reused?.diagnostics.find((d) => d.rule === "unknown-agent")?.range).toEqual({ start: nobody, end: nobody + "nobody".length });
  });

  it.each([
    ["a space typed between tokens", (t: string) => t.replace("agent b: worker", "agent b:  worker")],
    ["a line typed between items", (t: string) => t.replace("  delegate a -> b", "\n  delegate a -> b")],
    ["a space deleted before a token", (t: string) => t.replace("  delegate a -> b", " delegate a -> b")],
    ["typing at the end of a last comment with no line break after it", (t: string) => `${t}!`],
    ["a letter typed in a terminal's description", (t: string) => t.replace('"a is done"', '"a is now done"')],
  ])("reuses the check across %s", (_, edit) => {
    const edited = edit(findings);
    expect(edited).not.toBe(findings);
    const reused = reuse(findings, edited);
    expect(reused).toBeDefined();
    expect(reused).toEqual(check(createSourceFile("x.seam", edited)));
  });

  it.each([
    ["a line break typed into a line comment", (t: string) => t.replace("what a does", "what a\ndoes")],
    ["a letter typed in a name", (t: string) => t.replace("agent b: worker", "agent bb: worker")],
    ["a space typed in a name", (t: string) => t.replace("nobody", "no body")],
    ["a comment made a suppression", (t: string) => t.replace("// unknown", "// seam-disable unknown")],
    ["a block comment closed early", (t: string) => t.replace("a note", "a */ note")],
    ["a comment's opener edited", (t: string) => t.replace("// the end", "/ the end")],
    ["a letter typed in a version", (t: string) => t.replace('"1.0.0"', '"1.0.0x"')],
    ["a letter typed in the description of a terminal named twice", (t: string) => t.replace('"one"', '"one!"')],
    ["a quote typed in a description", (t: string) => t.replace('"a is done"', '"a is" done"')],
  ])("declines %s", (_, edit) => {
    const edited = edit(findings);
    expect(edited).not.toBe(findings);
    expect(reuse(findings, edited)).toBeUndefined();
  });

  it("declines digits typed apart from the name they were glued to", () => {
    expect(reuse(broken, broken.replace("1b", "1 b"))).toBeUndefined();
  });

  it.each([
    ["a space typed between a name and its colon", "agent a: supervisor", "agent a : supervisor"],
    ["a space typed in a field path", "goal.acceptance_criteria", "goal .acceptance_criteria"],
    ["a space deleted in a field path", "budget . limit", "budget. limit"],
    ["a space typed before an arrow written without them", "a->b", "a ->b"],
    ["a space typed after digits glued to a name, before its colon", "3foo:", "3foo :"],
    ["a space typed between digits and the colon after them", "4 bar:", "4 bar :"],
  ])("reuses the check across %s, where no two tokens glue into a name", (_, from, to) => {
    const edited = glued.replace(from, to);
    expect(edited).not.toBe(glued);
    const reused = reuse(glued, edited);
    expect(reused).toBeDefined();
    expectFresh(reused as CheckResult, edited);
  });

  it.each([
    ["digits typed apart from the keyword they were glued to", "12agent", "12 agent"],
    ["digits joined to the name after them", "4 bar", "4bar"],
    ["digits typed apart from a name in an edge", "-> 3foo", "-> 3 foo"],
  ])("declines %s", (_, from, to) => {
    const edited = glued.replace(from, to);
    expect(edited).not.toBe(glued);
    // The fresh checks differ, so carrying the old one would be wrong.
    expect(check(createSourceFile("x.seam", edited)).diagnostics).not.toEqual(check(createSourceFile("x.seam", glued)).diagnostics);
    expect(reuse(glued, edited)).toBeUndefined();
  });

  it("declines an edit of a suppression comment's text, and a line break typed in a file with one", () => {
    const text = suppressions[0] as string;
    const at = text.indexOf("seam-disable") + "seam-disable".length;
    expect(at).toBeGreaterThan(20);
    expect(reuse(text, `${text.slice(0, at)}x${text.slice(at)}`)).toBeUndefined();
    const end = text.lastIndexOf("}");
    expect(reuse(text, `${text.slice(0, end)}\n${text.slice(end)}`)).toBeUndefined();
  });

  it("is what a program answers for an edited text, counted as reused", () => {
    const program = createProgram(createOverlayHost());
    program.checkFile(createSourceFile("x.seam", findings));
    const file = createSourceFile("x.seam", findings.replace("// unknown", "// unknown name"));
    expect(program.checkFile(file)).toEqual(check(file));
    const spaced = createSourceFile("x.seam", file.text.replace("delegate a -> b", "delegate  a -> b"));
    expect(program.checkFile(spaced)).toEqual(check(spaced));
    expect(program.stats).toEqual({ checks: 1, cacheHits: 0, reused: 2, renamed: 0 });
  });

  it("reuses the check across an edit anywhere in the text, the first line included", () => {
    const program = createProgram(createOverlayHost());
    program.checkFile(createSourceFile("x.seam", findings));
    // "// what a does": the third line of twelve, most of the text after it.
    const early = findings.replace("// what a does", "// what a  does");
    expectFresh(program.checkFile(createSourceFile("x.seam", early)), early);
    const first = ` ${early}`;
    expectFresh(program.checkFile(createSourceFile("x.seam", first)), first);
    const late = first.replace("// the end", "// the  end");
    expectFresh(program.checkFile(createSourceFile("x.seam", late)), late);
    expect(program.stats).toEqual({ checks: 1, cacheHits: 0, reused: 3, renamed: 0 });
  });

  it("carries a check across keystrokes before a long tail, whose tree it moves when read, as a fresh check has it", () => {
    // 400 KiB: a space typed after the first agent's name leaves more than 256 KiB after it.
    const long = toSeam(generateGraph({ agents: 2_000 }));
    const name = /agent ([\w-]+)/.exec(long) as RegExpExecArray;
    const at = name.index + name[0].length;
    const program = createProgram(createOverlayHost());
    program.checkFile(createSourceFile("x.seam", long));
    const spaced = `${long.slice(0, at)} ${long.slice(at)}`;
    expectFresh(program.checkFile(createSourceFile("x.seam", spaced)), spaced);
    // The next keystroke is carried before its tree is read, and the one after carries it.
    const twice = `${long.slice(0, at)}  ${long.slice(at)}`;
    program.checkFile(createSourceFile("x.seam", twice));
    const thrice = `${long.slice(0, at)}   ${long.slice(at)}`;
    expectFresh(program.checkFile(createSourceFile("x.seam", thrice)), thrice);
    expect(program.stats).toEqual({ checks: 1, cacheHits: 0, reused: 3, renamed: 0 });
  });
});
