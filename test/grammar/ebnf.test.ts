import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEYWORDS } from "../../src/core/vocabulary.js";
import { renderEbnf } from "../../src/parser/spec/ebnf.js";
import { createSeamGrammar } from "../../src/parser/spec/grammar.js";
import { compareGrammars, parseEbnf, shapeFromChevrotain, showShape } from "./grammar-shape.js";

const ebnfText = readFileSync(new URL("../../grammar/seam.ebnf", import.meta.url), "utf8");
const ebnf = parseEbnf(ebnfText);
const parser = shapeFromChevrotain(createSeamGrammar().getSerializedGastProductions());

describe("grammar/seam.ebnf", () => {
  it("is what `npm run grammar` writes from the grammar specification", () => {
    expect(ebnfText === renderEbnf(), "grammar/seam.ebnf is stale: run `npm run build && npm run grammar`").toBe(true);
  });

  it("lists every keyword of the vocabulary", () => {
    const listed = /Keywords:([^*]*)\*\)/.exec(ebnfText)?.[1]?.trim().split(/\s+/);
    expect(listed).toEqual([...KEYWORDS]);
  });

  it("has exactly the parser's rules", () => {
    expect([...ebnf.keys()].sort()).toEqual([...parser.keys()].sort());
  });

  it.each([...parser.keys()])("rule %s has the parser's structure", (name) => {
    const written = ebnf.get(name);
    const actual = parser.get(name);
    expect(written && showShape(written)).toBe(actual && showShape(actual));
    expect(written).toEqual(actual);
  });

  it("starts with the parser's start rule", () => {
    expect([...ebnf.keys()][0]).toBe("file");
  });

  it("finds drift: a rule added on one side only, or a changed rule", () => {
    expect(compareGrammars(ebnf, parser)).toEqual([]);
    const extra = parseEbnf(`${ebnfText}\nextraRule = "graph" ;\n`);
    expect(compareGrammars(extra, parser)).toEqual(["rule extraRule is in the EBNF but not in the parser"]);
    const changed = parseEbnf(ebnfText.replace('"observe"?', '"observe"*'));
    expect(compareGrammars(changed, parser)).toEqual([expect.stringMatching(/^rule edgeDecl differs/)]);
    const missing = parseEbnf(ebnfText.replace(/^outcome .*$/m, ""));
    expect(compareGrammars(missing, parser)).toEqual(["rule outcome is in the parser but not in the EBNF"]);
  });

  it("reads the notation: groups, alternatives, repetitions", () => {
    expect(showShape(parseEbnf('a = "x" (B | c)* d? E+ ;').get("a")!)).toBe('"x" (B | c)* d? E+');
    expect(() => parseEbnf("a = ;")).toThrow(/unexpected ';'/);
    expect(() => parseEbnf('a = "x" ; a = "y" ;')).toThrow(/defined twice/);
  });
});
