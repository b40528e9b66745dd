import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Range } from "../../src/core/source-file.js";
import { cstToAst } from "../../src/parser/cst-to-ast.js";
import { parseDirect } from "../../src/parser/direct-parser.js";
import { toChevrotainTokens } from "../../src/parser/lexer.js";
import { parseTokens } from "../../src/parser/parser.js";
import { scan } from "../../src/parser/scanner.js";

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/parser/${name}`, import.meta.url), "utf8");
const fixtures = ["design-example.seam", "all-items.seam", "several-errors.seam"].map(fixture);

/** The Chevrotain path on the same tokens: tree, parse error count and literal errors. */
function viaChevrotain(text: string) {
  const scanned = scan(text);
  const { cst, errors } = parseTokens(toChevrotainTokens(text, scanned));
  if (cst === undefined) throw new Error("parseTokens stopped without an error limit");
  const literalErrors: { range: Range; message: string }[] = [];
  const ast = cstToAst(cst, text.length, (range, message) => literalErrors.push({ range, message }));
  return { ast, parseErrors: errors.length, literalErrors };
}

/** The direct path must give up exactly when Chevrotain finds a syntax error, and else agree. */
function expectSamePaths(text: string): boolean {
  const direct = parseDirect(text, scan(text));
  const reference = viaChevrotain(text);
  expect(direct === undefined).toBe(reference.parseErrors > 0);
  if (direct !== undefined) {
    expect(direct.ast).toStrictEqual(reference.ast);
    expect(direct.errors).toEqual(reference.literalErrors);
  }
  return direct !== undefined;
}

const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 300);

// Valid files, built from the grammar (grammar/seam.ebnf), with odd spacing and comments.
const id = fc.constantFrom("a", "b", "research-agent", "x_1", "agents", "seam_bot");
const keywordName = fc.constantFrom("version", "agent", "seam", "require");
const integer = fc.constantFrom("0", "1", "8", "007", "-1", "9007199254740991", "9007199254740993");
const str = fc.constantFrom('""', '"ok"', '"esc \\" \\u00e9"', '"bad \\q"', '"open\n');
const gap = fc.constantFrom(" ", "  ", "\n", "\r\n", " /* c */ ", " // c\n", "\t");
const path = fc
  .tuple(id, fc.array(fc.oneof(fc.tuple(fc.constant("."), fc.oneof(id, keywordName)).map((p) => p.join("")), fc.constant("[]")), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.join(""));
const list = <T extends string>(item: fc.Arbitrary<T>) => fc.array(item, { minLength: 1, maxLength: 3 }).map((a) => a.join(", "));
const requireDecl = list(path).map((p) => `require ${p}`);
const edgeKind = fc.constantFrom("delegate", "return", "transfer");
const block = (items: fc.Arbitrary<string>) =>
  fc.option(fc.array(items, { maxLength: 3 }).map((a) => `{ ${a.join("\n")} }`), { nil: "" });
const graphItem = fc.oneof(
  fc.constantFrom("envelope 1.3", "envelope 9007199254740993.0", "envelope 1.3.0"),
  list(id).map((a) => `entry ${a}`),
  fc.oneof(integer, fc.constant("auto")).map((v) => `hop_limit ${v}`),
  fc.constantFrom("on_hop_limit escalate", "on_hop_limit failed"),
  list(path).map((p) => `loop_signature ${p}`),
  fc
    .tuple(id, fc.constantFrom("supervisor", "worker", "peer"), block(fc.oneof(
      fc.tuple(id, fc.constantFrom("", " complete", " failed", " escalate"), fc.option(str, { nil: "" }))
        .map(([n, o, s]) => `terminal ${n}${o} ${s}`),
      str.map((s) => `version ${s}`),
    )))
    .map(([n, r, b]) => `agent ${n}: ${r} ${b}`),
  fc.tuple(edgeKind, fc.array(requireDecl, { maxLength: 2 })).map(([k, r]) => `contract ${k} { ${r.join(" ")} }`),
  fc
    .tuple(edgeKind, id, id, fc.constantFrom("", " observe"), block(fc.oneof(requireDecl, integer.map((n) => `max_rounds ${n}`))))
    .map(([k, f, t, o, b]) => `${k} ${f}->${t}${o} ${b}`),
);
const graph = fc.tuple(id, fc.array(graphItem, { maxLength: 6 }), gap).map(([n, items, g]) => `graph ${n} {${g}${items.join(g)}${g}}`);
const validFile = fc
  .tuple(fc.constantFrom("", "seam 1\n", "seam 2 ", "\uFEFFseam 1 "), fc.array(graph, { minLength: 1, maxLength: 2 }))
  .map(([version, graphs]) => version + graphs.join("\n"));

/** Token-sized pieces of a text, for mutations. */
function chunks(text: string): string[] {
  return text.match(/"[^"\n]*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][\w-]*|\d+(?:\.\d+)?|->|\[\]|\s+|./g) ?? [];
}

describe("direct parser", () => {
  it("builds the same tree as the Chevrotain path for the valid fixtures", () => {
    for (const text of fixtures.slice(0, 2)) expect(expectSamePaths(text)).toBe(true);
  });

  it("gives up on the fixture with errors", () => {
    expect(expectSamePaths(fixtures[2] as string)).toBe(false);
  });

  it("agrees with the Chevrotain path on files built from the grammar", () => {
    fc.assert(
      fc.property(validFile, (text) => {
        expect(expectSamePaths(text)).toBe(true);
      }),
      { numRuns },
    );
  });

  it("gives up exactly where the Chevrotain path reports an error, on mutated files", () => {
    const pieces = [...new Set(fixtures.flatMap(chunks))];
    const mutated = fc
      .tuple(validFile, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...pieces), fc.boolean()), { minLength: 1, maxLength: 3 }))
      .map(([text, edits]) => {
        const parts = chunks(text);
        for (const [at, piece, insert] of edits) {
          if (insert) parts.splice(at % (parts.length + 1), 0, piece);
          else parts.splice(at % Math.max(1, parts.length), 1);
        }
        return parts.join("");
      });
    fc.assert(
      fc.property(mutated, (text) => {
        expectSamePaths(text);
      }),
      { numRuns },
    );
  });
});
