import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSourceFile } from "../../src/core/source-file.js";
import { parse } from "../../src/parser/parse.js";

const fixtures = ["design-example.seam", "all-items.seam", "several-errors.seam"].map((name) =>
  readFileSync(new URL(`../fixtures/parser/${name}`, import.meta.url), "utf8"),
);

/** Every `{ start, end }` object anywhere in `value` (node ranges, `observe`, diagnostics). */
function collectRanges(value: unknown, out: { start: unknown; end: unknown }[] = []): { start: unknown; end: unknown }[] {
  if (Array.isArray(value)) {
    for (const v of value) collectRanges(v, out);
  } else if (typeof value === "object" && value !== null) {
    if ("start" in value && "end" in value) out.push(value as { start: unknown; end: unknown });
    for (const [key, v] of Object.entries(value)) if (key !== "file") collectRanges(v, out);
  }
  return out;
}

/** Parses `text` and checks what must hold for any input. */
function checkInvariants(text: string): void {
  const { ast, diagnostics } = parse(createSourceFile("fuzz.seam", text));
  expect(ast.range).toEqual({ start: 0, end: text.length });
  for (const d of diagnostics) {
    expect(d.rule).toBe("syntax");
    expect(d.severity).toBe("error");
    expect(d.message.length).toBeGreaterThan(0);
  }
  for (const range of collectRanges([ast, diagnostics.map((d) => d.range)])) {
    const { start, end } = range as { start: number; end: number };
    expect(Number.isInteger(start) && Number.isInteger(end)).toBe(true);
    expect(0 <= start && start <= end && end <= text.length).toBe(true);
  }
}

/** Token-sized pieces of a text: words, numbers, strings, comments, punctuation, whitespace. */
function chunks(text: string): string[] {
  return text.match(/"[^"\n]*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][\w-]*|\d+(?:\.\d+)?|->|\[\]|\s+|./g) ?? [];
}

const pieces = [...new Set(fixtures.flatMap(chunks))].concat(["/*", '"', "\\", "\uFEFF", "\r", "\u2028", "9007199254740993", "[", "-"]);

/** Runs per property; raise it locally (`SEAM_FUZZ_RUNS=20000`) for a deeper search. */
const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 400);

type Mutation = { op: "delete" | "insert" | "duplicate"; at: number; piece: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom("delete", "insert", "duplicate"),
  at: fc.nat(),
  piece: fc.constantFrom(...pieces),
});

function mutate(parts: string[], mutations: readonly Mutation[]): string {
  const out = [...parts];
  for (const { op, at, piece } of mutations) {
    const i = out.length === 0 ? 0 : at % out.length;
    if (op === "delete") out.splice(i, 1);
    else if (op === "insert") out.splice(i, 0, piece);
    else out.splice(i, 0, out[i] ?? piece);
  }
  return out.join("");
}

describe("parse: properties", () => {
  it("the valid fixtures parse without diagnostics, twice to the same result", () => {
    for (const text of fixtures.slice(0, 2)) {
      const first = parse(createSourceFile("a.seam", text));
      expect(first.diagnostics).toEqual([]);
      expect(parse(createSourceFile("a.seam", text)).ast).toEqual(first.ast);
    }
  });

  it("never throws on random text and keeps every range inside it", () => {
    const alphabet = fc.constantFrom(...pieces, "{", "}", ":", ",", ".", " ", "\n", "é", "\u0000", "\uD800");
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.array(alphabet, { maxLength: 120 }).map((a) => a.join("")),
    );
    fc.assert(fc.property(text, (t) => checkInvariants(t)), { numRuns });
  });

  it("never throws on mutated fixtures (deleted, inserted, duplicated pieces)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures.map(chunks)),
        fc.array(mutation, { minLength: 1, maxLength: 8 }),
        (parts, mutations) => checkInvariants(mutate(parts, mutations)),
      ),
      { numRuns },
    );
  });

  it("survives the deletion of any single piece of the example", () => {
    const parts = chunks(fixtures[0] as string);
    for (let i = 0; i < parts.length; i++) {
      const text = [...parts.slice(0, i), ...parts.slice(i + 1)].join("");
      checkInvariants(text);
    }
  });
});
