/**
 * A letter typed in a name (`name-edit.ts`): the rules run on the last tree with the name
 * changed, and the result is held to a fresh check of the new text on random edits inside and at
 * the ends of names (agents', edges', guards', field paths', settings'), through a program.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { check } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { rescan } from "../../src/parser/rescan.js";
import { K_IDENTIFIER, K_STRING, scan } from "../../src/parser/scanner.js";
import { createOverlayHost } from "../../src/program/host.js";
import { reuseAcrossNameEdit } from "../../src/program/name-edit.js";
import { createProgram } from "../../src/program/program.js";
import { expectFresh, followEditRuns } from "./carried-checks.js";

const seamFiles = (folder: string): string[] =>
  readdirSync(new URL(`../../${folder}/`, import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".seam"))
    .sort()
    .map((name) => readFileSync(new URL(`../../${folder}/${name}`, import.meta.url), "utf8"));
const generated = toSeam(generateGraph({ agents: 60 }));
const texts = [...seamFiles("examples"), ...seamFiles("test/fixtures"), generated];

/** Offsets inside identifiers and at both of their ends. */
function nameOffsets(text: string): number[] {
  const scanned = scan(text);
  const offsets: number[] = [];
  for (let t = 0; t < scanned.count; t++) {
    if (scanned.kinds[t] !== K_IDENTIFIER) continue;
    for (let i = scanned.starts[t] as number; i <= (scanned.ends[t] as number); i++) offsets.push(i);
  }
  return offsets;
}

/** What is typed in a name: letters and digits mostly, now and then something that splits or ends it. */
const pieces = fc.constantFrom("x", "x", "b", "_", "7", "é", "Ζ", "а", "-", " ", ".", "agent", "1", "");
const step = fc.record({ where: fc.nat(), removed: fc.nat(2), inserted: fc.array(pieces, { maxLength: 2 }) });

/** `text` with `typed` inserted at `at` and `removed` code units after it taken out. */
const edit = (text: string, at: number, typed: string, removed = 0): string => text.slice(0, at) + typed + text.slice(at + removed);

/** The program's check of `edited` after one of `text`, and whether it ran the rules on the last tree. */
function throughProgram(text: string, edited: string): { renamed: boolean; result: ReturnType<typeof check> } {
  const program = createProgram(createOverlayHost());
  program.checkFile(createSourceFile("x.seam", text));
  const result = program.checkFile(createSourceFile("x.seam", edited));
  return { renamed: program.stats.renamed === 1, result };
}

describe("reuseAcrossNameEdit", () => {
  it("gives a fresh check's result after every edit of long runs of typing in names", () => {
    const run = followEditRuns(texts, step, { minSteps: 5, maxSteps: 25, numRuns: 150, seed: 3, places: nameOffsets });
    // Not vacuous: a good share of the edits ran the rules on the last tree (the others split a
    // name, typed into a name the parser reads, or met a syntax error, and were checked afresh).
    expect(run.renamed).toBeGreaterThan(run.edits / 10);
  }, 120_000);

  it("gives a fresh check's result when typing in names and in descriptions alternate on one tree", () => {
    // Binding keeps what a name edit cannot change per tree (edge lines, agents whose name is
    // the one bound, bind.ts); a description edit in between swaps a checked terminal in place.
    // This graph repeats settings, terminals, agents and edges, and has gates, guards, floors,
    // fan-outs and required paths, so each of those kept lists is read again after edits.
    const repeats = `graph g {
  envelope 1.4
  entry boss
  agent boss: supervisor { version "1.0.0" version "2.0.0" gate gate }
  agent fan: worker { terminal done complete "first words" terminal done complete "again" terminal other complete "other words" }
  agent helper: worker { effect "writes" terminal fin complete "helper is done" }
  agent helper: worker
  delegate boss -> fan { max_rounds 2 max_rounds 3 min_confidence 0.8 min_confidence 0.9 fan_out pair gate gate }
  delegate boss -> helper { fan_out pair repairs 1 repairs 2 require goal.statement }
  return fan -> boss
  return helper -> boss when status is waiting_review
  return helper -> boss
  delegate boss -> fan
  delegate boss -> ghost
}
`;
    /** Offsets in names and inside string literals (descriptions among them). */
    const namesAndStrings = (text: string): number[] => {
      const scanned = scan(text);
      const offsets = nameOffsets(text);
      for (let t = 0; t < scanned.count; t++) {
        if (scanned.kinds[t] !== K_STRING) continue;
        for (let i = (scanned.starts[t] as number) + 1; i < (scanned.ends[t] as number); i++) offsets.push(i);
      }
      return offsets;
    };
    const run = followEditRuns([repeats, repeats, ...texts], step, { minSteps: 10, maxSteps: 30, numRuns: 80, seed: 11, places: namesAndStrings });
    // Not vacuous: both kinds of reuse ran often (most other edits split a name or broke a string).
    expect(run.renamed).toBeGreaterThan(run.edits / 30);
    expect(run.reused).toBeGreaterThan(run.edits / 30);
  }, 120_000);

  it("renames the middle agent of a generated graph: its edges then name an unknown agent", () => {
    const text = toSeam(generateGraph({ agents: 300 }));
    const declarations = [...text.matchAll(/^ {2}agent ([\w-]+)/gm)];
    const middle = declarations[declarations.length >> 1] as RegExpMatchArray;
    const at = (middle.index as number) + middle[0].length;
    const typed = edit(text, at, "x");
    const renamed = throughProgram(text, typed);
    expect(renamed.renamed).toBe(true);
    expect(renamed.result.diagnostics.some((d) => d.rule === "unknown-agent" && d.message.includes(`'${middle[1] as string}'`))).toBe(true);
    expectFresh(renamed.result, typed);
    // And back: the letter deleted again gives the first text's findings.
    const program = createProgram(createOverlayHost());
    program.checkFile(createSourceFile("x.seam", text));
    program.checkFile(createSourceFile("x.seam", typed));
    expectFresh(program.checkFile(createSourceFile("x.seam", text)), text);
    expect(program.stats.renamed).toBe(2);
  });

  it("renames an edge's end, at its start and in its middle, moving the findings after it", () => {
    const text = 'graph g {\n  entry a\n  agent a: supervisor\n  agent bee: worker { terminal done complete "d" }\n  delegate a -> bee\n  return bee -> a\n  delegate a -> nobody\n}\n';
    const end = text.indexOf("-> bee") + 3;
    for (const edited of [edit(text, end, "z"), edit(text, end + 1, "q"), edit(text, end + 1, "", 1), edit(text, end + 3, "s")]) {
      const renamed = throughProgram(text, edited);
      expect(renamed.renamed).toBe(true);
      expectFresh(renamed.result, edited);
    }
  });

  it("declines names the parser reads (a guard's subject or value, a field path), a syntax error, a name split in two", () => {
    const guarded = 'graph g {\n  entry a\n  agent a: supervisor\n  agent b: worker { terminal done complete "d" }\n  delegate a -> b when status is review\n  return b -> a { require goal.statement }\n}\n';
    const broken = "graph g {\n  entry a\n  agent a: worker\n  delegate a ->\n}\n";
    const cases: [string, string][] = [
      [guarded, edit(guarded, guarded.indexOf("status") + 2, "x")],
      [guarded, edit(guarded, guarded.indexOf("review") + 6, "x")],
      [guarded, edit(guarded, guarded.indexOf("statement") + 4, "x")],
      [broken, edit(broken, broken.indexOf("agent a") + 7, "x")],
      [guarded, edit(guarded, guarded.indexOf("agent b") + 7, " x")],
    ];
    for (const [text, edited] of cases) {
      const before = scan(text);
      const file = createSourceFile("x.seam", edited);
      const previous = check(createSourceFile("x.seam", text));
      const tree = JSON.stringify(previous.ast);
      expect(reuseAcrossNameEdit(previous, before, file, rescan(before, text, edited), {}, () => check(file))).toBeUndefined();
      // Declined before anything was changed.
      expect(JSON.stringify(previous.ast)).toBe(tree);
      expect(throughProgram(text, edited).result).toEqual(check(file));
    }
  });
});
