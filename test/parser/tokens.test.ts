import { describe, expect, it } from "vitest";
import { lex } from "./lex.js";

/** Token names and images of `text`, skipping nothing the lexer produced. */
function tokensOf(text: string): string[] {
  return lex(text).tokens.map((t) => `${t.tokenType.name}:${t.image}`);
}

describe("tokens", () => {
  it("reads keywords as keywords only when the whole word matches", () => {
    expect(tokensOf("agent agents agent-x seam_bot seam")).toEqual([
      "Kw_agent:agent",
      "Identifier:agents",
      "Identifier:agent-x",
      "Identifier:seam_bot",
      "Kw_seam:seam",
    ]);
  });

  it("leaves a hyphen before '>' to the arrow", () => {
    expect(tokensOf("a->b research-agent -> c")).toEqual([
      "Identifier:a",
      "Arrow:->",
      "Identifier:b",
      "Identifier:research-agent",
      "Arrow:->",
      "Identifier:c",
    ]);
  });

  it("tells versions from integers", () => {
    expect(tokensOf("1.3 12 0.10 1.3.0 1.2.3.4 1.2.")).toEqual([
      "VersionNumber:1.3", "Integer:12", "VersionNumber:0.10", "LongVersion:1.3.0", "LongVersion:1.2.3.4",
      "VersionNumber:1.2", "Dot:.",
    ]);
  });

  it("reads a minus sign and digits as one (negative) integer, apart from arrows and hyphenated names", () => {
    expect(tokensOf("-1 a-1 a -12->b")).toEqual([
      "NegativeNumber:-1",
      "Identifier:a-1",
      "Identifier:a",
      "NegativeNumber:-12",
      "Arrow:->",
      "Identifier:b",
    ]);
  });

  it("reads a minus sign and a decimal as one negative number", () => {
    expect(tokensOf("-0.1 -1.2.3")).toEqual(["NegativeNumber:-0.1", "NegativeNumber:-1.2.3"]);
  });

  it("reads a number with an exponent or without a digit before its point as one malformed number", () => {
    expect(tokensOf("1e-3 1E+3 -1.5e2 .5 -.5 1e 1ex 0.5e")).toEqual([
      "MalformedNumber:1e-3",
      "MalformedNumber:1E+3",
      "MalformedNumber:-1.5e2",
      "MalformedNumber:.5",
      "MalformedNumber:-.5",
      "Integer:1",
      "Identifier:e",
      "Integer:1",
      "Identifier:ex",
      "VersionNumber:0.5",
      "Identifier:e",
    ]);
  });

  it("reads punctuation and path brackets", () => {
    expect(tokensOf("{ } , : . []")).toEqual([
      "LCurly:{", "RCurly:}", "Comma:,", "Colon::", "Dot:.", "Brackets:[]",
    ]);
  });

  it("skips whitespace and both kinds of comment", () => {
    expect(tokensOf("a // x\r\n/* y\n z */ b\rc")).toEqual(["Identifier:a", "Identifier:b", "Identifier:c"]);
  });

  it("skips a BOM at offset 0 and keeps the original offsets", () => {
    const result = lex("\uFEFFgraph g");
    expect(result.errors).toEqual([]);
    expect(result.tokens.map((t) => [t.image, t.startOffset])).toEqual([["graph", 1], ["g", 7]]);
  });

  it("treats an unterminated block comment as one error token, not a hang", () => {
    const result = lex("a /* never closed\n b c");
    expect(result.tokens.map((t) => t.image)).toEqual(["a"]);
    expect(result.groups["errors"]?.map((t) => t.startOffset)).toEqual([2]);
  });

  it("marks malformed strings but still hands them to the parser as strings", () => {
    expect(tokensOf('"ok \\u00e9" "bad \\q" "open')).toEqual([
      'StringLiteral:"ok \\u00e9"',
      'MalformedString:"bad \\q"',
      'MalformedString:"open',
    ]);
  });
});
