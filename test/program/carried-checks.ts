/**
 * Shared by the tests of a check carried across a token-preserving edit (`token-edit.ts`): the
 * reuse as a program makes it, the assertion that a carried check is a fresh one, and long runs
 * of random edits through a program (whose cached scan is carried from each edit to the next).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { check } from "../../src/analysis/check.js";
import type { CheckResult } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { rescan } from "../../src/parser/rescan.js";
import { scan } from "../../src/parser/scanner.js";
import { createOverlayHost } from "../../src/program/host.js";
import { createProgram } from "../../src/program/program.js";
import { reuseAcrossTokenEdit } from "../../src/program/token-edit.js";

/**
 * What a program does with an edit: the old check (made here, since a carried check consumes
 * it) and scan, the rescan, the reuse (or `undefined`).
 */
export function reuse(text: string, edited: string): CheckResult | undefined {
  const before = scan(text);
  const file = createSourceFile("x.seam", edited);
  return reuseAcrossTokenEdit(check(createSourceFile("x.seam", text)), before, file, rescan(before, text, edited), () => check(file));
}

/**
 * `reused` equals a fresh check of `text`, and shares objects as one does: every model object's
 * `decl` is the very node of the tree (not an equal copy), so code that finds a declaration's
 * checked agent by identity (`a.decl === node`) finds it in a reused check too.
 */
export function expectFresh(reused: CheckResult, text: string): void {
  expect(reused).toEqual(check(createSourceFile("x.seam", text)));
  const nodes = new Set<object>();
  const walk = (value: unknown): void => {
    if (typeof value !== "object" || value === null || nodes.has(value)) return;
    nodes.add(value);
    for (const field of Object.values(value)) walk(field);
  };
  walk(reused.ast);
  const decls: object[] = [];
  for (const graph of reused.graphs) {
    decls.push(graph.decl);
    for (const agent of graph.agents) decls.push(agent.decl, ...(agent.join === undefined ? [] : [agent.join.decl]));
    for (const edge of graph.edges) decls.push(edge.decl);
  }
  for (const decl of decls) expect(nodes.has(decl)).toBe(true);
}

/** One random edit: `removed` UTF-16 units at a place chosen from `where`, replaced by `inserted` joined. */
export interface EditStep {
  readonly where: number;
  readonly removed: number;
  readonly inserted: readonly string[];
}

/** How {@link followEditRuns} runs: steps per run, fast-check's runs and seed, and where a step may land. */
export interface EditRunOptions<S extends EditStep> {
  readonly minSteps: number;
  readonly maxSteps: number;
  readonly numRuns: number;
  readonly seed: number;
  /** The offsets `step` may land on in `text`; none: anywhere in it. */
  readonly places: (text: string, step: S) => readonly number[];
}

/**
 * Runs of `step`s applied one after another to one of `texts` through a program, each carried
 * check (and each check of a renamed tree, `name-edit.ts`) held to a fresh one ({@link expectFresh});
 * returns how many edits were made, how many the program carried and how many it renamed, so a
 * caller can show the run was not vacuous.
 */
export function followEditRuns<S extends EditStep>(
  texts: readonly string[],
  step: fc.Arbitrary<S>,
  options: EditRunOptions<S>,
): { edits: number; reused: number; renamed: number } {
  let edits = 0;
  let reused = 0;
  let renamed = 0;
  fc.assert(
    fc.property(fc.nat(texts.length - 1), fc.array(step, { minLength: options.minSteps, maxLength: options.maxSteps }), (which, steps) => {
      const program = createProgram(createOverlayHost());
      let text = texts[which] as string;
      program.checkFile(createSourceFile("x.seam", text));
      for (const s of steps) {
        const places = options.places(text, s);
        const at = places.length > 0 ? (places[s.where % places.length] as number) : s.where % (text.length + 1);
        text = text.slice(0, at) + s.inserted.join("") + text.slice(Math.min(text.length, at + s.removed));
        const before = { ...program.stats };
        const result = program.checkFile(createSourceFile("x.seam", text));
        edits++;
        if (program.stats.reused > before.reused) reused++;
        if (program.stats.renamed > before.renamed) renamed++;
        if (program.stats.reused > before.reused || program.stats.renamed > before.renamed) expectFresh(result, text);
      }
    }),
    { numRuns: options.numRuns, seed: options.seed },
  );
  return { edits, reused, renamed };
}
