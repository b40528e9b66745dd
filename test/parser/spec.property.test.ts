import { readFileSync } from "node:fs";
import type { CstElement, CstNode } from "chevrotain";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTokens } from "../../src/parser/parser.js";
import { scan } from "../../src/parser/scanner.js";
import { toChevrotainTokens } from "../../src/parser/spec/chevrotain-tokens.js";
import { parseWithGrammar, settingRuleName } from "../../src/parser/spec/grammar.js";
import { AGENT_SETTINGS, EDGE_SETTINGS } from "../../src/core/settings.js";
import { mutatedFile, validFile } from "./generate.js";

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/parser/${name}`, import.meta.url), "utf8");
const fixtures = ["design-example.seam", "all-items.seam", "several-errors.seam"].map(fixture);

/** AST node kind of each grammar rule that makes a node (the others are alternatives or leaves). */
const nodeOfRule: Readonly<Record<string, string>> = {
  languageVersion: "LanguageVersion", graph: "Graph", envelopeDecl: "Envelope", entryDecl: "Entry",
  hopLimitDecl: "HopLimit", onHopLimitDecl: "OnHopLimit", loopSignatureDecl: "LoopSignature", agentDecl: "Agent",
  contractDecl: "Contract", edgeDecl: "Edge", requireDecl: "Require", fieldPath: "FieldPath",
  guard: "Guard", condition: "Condition",
  ...Object.fromEntries(AGENT_SETTINGS.map((s) => [settingRuleName("agent", s.keyword), s.node])),
  ...Object.fromEntries(EDGE_SETTINGS.map((s) => [settingRuleName("edge", s.keyword), s.node])),
};

type Shape = [kind: string, start: number, end: number];
const byPosition = (a: Shape, b: Shape): number => a[1] - b[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Every node of the Chevrotain CST that is an AST node: kind and range. */
function shapesOfCst(node: CstNode, out: Shape[] = []): Shape[] {
  const kind = nodeOfRule[node.name];
  if (kind !== undefined && node.location !== undefined) out.push([kind, node.location.startOffset, (node.location.endOffset as number) + 1]);
  for (const children of Object.values(node.children) as CstElement[][]) {
    for (const child of children) if ("children" in child) shapesOfCst(child, out);
  }
  return out;
}

/** Every declaration node of the hand parser's AST: kind and range. */
function shapesOfAst(value: unknown, out: Shape[] = []): Shape[] {
  if (Array.isArray(value)) {
    for (const v of value) shapesOfAst(v, out);
  } else if (typeof value === "object" && value !== null) {
    const node = value as { kind?: string; range?: { start: number; end: number } };
    if (node.kind !== undefined && node.range !== undefined && Object.values(nodeOfRule).includes(node.kind)) {
      out.push([node.kind, node.range.start, node.range.end]);
    }
    for (const [key, v] of Object.entries(value)) if (key !== "comments") shapesOfAst(v, out);
  }
  return out;
}

/** The hand parser must accept exactly what the specification accepts, and build the same tree. */
function expectSameAsSpec(text: string): boolean {
  const scanned = scan(text);
  const hand = parseTokens(text, scanned);
  const spec = parseWithGrammar(toChevrotainTokens(text, scanned));
  const accepted = hand.errors.every((e) => e.kind === "literal");
  expect(accepted).toBe(spec.errorCount === 0);
  if (accepted) expect(shapesOfAst(hand.ast).sort(byPosition)).toEqual(shapesOfCst(spec.cst).sort(byPosition));
  return accepted;
}

const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 300);

describe("the parser against the Chevrotain grammar specification", () => {
  it("accepts the valid fixtures with the same tree and rejects the one with errors", () => {
    expect(fixtures.map(expectSameAsSpec)).toEqual([true, true, false]);
  });

  it("accepts every file generated from the grammar, with the same tree", () => {
    fc.assert(fc.property(validFile, (text) => {
      expect(expectSameAsSpec(text)).toBe(true);
    }), { numRuns });
  });

  it("accepts and rejects mutated files as the specification does", () => {
    fc.assert(fc.property(mutatedFile(fixtures), (text) => {
      expectSameAsSpec(text);
    }), { numRuns });
  });

  it("fails when the trees differ (the comparison can fail)", () => {
    const text = "graph g { agent a: worker }";
    const scanned = scan(text);
    const spec = shapesOfCst(parseWithGrammar(toChevrotainTokens(text, scanned)).cst);
    expect(spec).toEqual([["Graph", 0, 27], ["Agent", 10, 25]]);
    expect(shapesOfAst(parseTokens("graph g { agent ab: worker }", scan("graph g { agent ab: worker }")).ast)).not.toEqual(spec);
  });
});
