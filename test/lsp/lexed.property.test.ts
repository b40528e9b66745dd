// The editor's tokens of a new version, made from the last version's (`relex`), are the tokens a
// full scan of the new text gives (`lex`): on random edits of the examples and fixtures, one at a
// time and in chains, with the characters that change where tokens begin and end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lex, relex } from "../../src/lsp/lexed.js";
import { SEAM_SOURCES } from "./seam-sources.js";

const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 300);

/** Pieces that open, close, join or split tokens and comments. */
const PIECES = ["a", "-", ">", "->", "1", ".", ".5", "\"", "\\", "/", "*", "/*", "*/", "//", "\n", "\r\n", " ", "{", "}", "[", "]", "[]", ":", ",", "<", "=", "é", "\u{1F600}", "agent", "graph", "\uFEFF", "e", "E", "+"];
const inserted = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join(""));

/**
 * An edit of a text: replace `[at, at + removed)` by `text`. `at` is a fraction of the text's
 * length, or (`boundary`) picks a token and stands at its start or end, moved by `nudge`: where
 * a typed character joins or splits tokens.
 */
const anEdit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  boundary: fc.constantFrom(undefined, "start", "end"),
  nudge: fc.integer({ min: -1, max: 1 }),
  removed: fc.oneof(fc.nat({ max: 2 }), fc.nat({ max: 40 })),
  text: inserted,
});
type Edit = { at: number; boundary: "start" | "end" | undefined; nudge: number; removed: number; text: string };

function applied(source: string, edit: Edit): string {
  let at = Math.floor(edit.at * (source.length + 1));
  const { tokens } = lex(source);
  const token = tokens[Math.floor(edit.at * tokens.length)];
  if (edit.boundary !== undefined && token !== undefined) at = token[edit.boundary] + edit.nudge;
  at = Math.max(0, Math.min(source.length, at));
  return source.slice(0, at) + edit.text + source.slice(at + edit.removed);
}

describe("relex: tokens of a new version from the last version's", () => {
  it("equals a full scan of the new text after one edit", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEAM_SOURCES), anEdit, ({ text }, edit) => {
        const after = applied(text, edit);
        expect(relex(lex(text), after)).toEqual(lex(after));
      }),
      { numRuns },
    );
  });

  it("equals a full scan after each edit of a chain", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEAM_SOURCES), fc.array(anEdit, { minLength: 1, maxLength: 8 }), ({ text }, edits) => {
        let lexed = lex(text);
        for (const edit of edits) {
          const after = applied(lexed.text, edit);
          lexed = relex(lexed, after);
          expect(lexed).toEqual(lex(after));
        }
      }),
      { numRuns: Math.ceil(numRuns / 3) },
    );
  });

  it("keeps the token objects before an edit and reuses the whole result for an unchanged text", () => {
    const text = "seam 1\n\ngraph g {\n  agent a: worker\n  agent b: worker // note\n  transfer a -> b\n}\n";
    const before = lex(text);
    const after = relex(before, text.replace("// note", "// notes"));
    expect(after.tokens.slice(0, 10)).toEqual(before.tokens.slice(0, 10));
    expect(after.tokens[0]).toBe(before.tokens[0]);
    // The closing `}` (at text.length - 2 before the edit) moved by the one code unit typed.
    expect(after.tokens[after.tokens.length - 1]).toEqual({ kind: "punctuation", start: text.length - 1, end: text.length, text: "}" });
    expect(relex(before, text)).toBe(before);
  });

  it("moves the tokens after an edit in place rather than copying them", () => {
    const text = "graph g {\n  agent a: worker\n  agent b: worker\n}\n";
    const before = lex(text);
    const last = before.tokens[before.tokens.length - 1];
    const edited = text.replace("agent a", "agent ab");
    const after = relex(before, edited);
    expect(after).toEqual(lex(edited));
    expect(after.tokens[after.tokens.length - 1]).toBe(last);
  });

  it("rescans the token before an edit that its lookahead reaches: `1.a` -> `1.5` is one version number", () => {
    const after = relex(lex("x 1.a"), "x 1.5");
    expect(after).toEqual(lex("x 1.5"));
    expect(after.tokens.map((t) => [t.kind, t.start, t.end])).toEqual([["identifier", 0, 1], ["number", 2, 5]]);
  });

  it("rescans the token two code units before an edit: `1e-x` -> `1e-3` is one number with an exponent", () => {
    const after = relex(lex("x 1e-x"), "x 1e-3");
    expect(after).toEqual(lex("x 1e-3"));
    expect(after.tokens.map((t) => [t.kind, t.start, t.end])).toEqual([["identifier", 0, 1], ["number", 2, 6]]);
  });
});
