// Completion takes shortcuts: content assist runs on the enclosing blocks' headers and the
// cursor's item only, and the tokens of a version are made from the last version's. Here the
// editor's answer, after an edit, is compared with content assist over every token from the
// start of the document, on a front end that never saw the earlier version: same labels, kinds,
// order, details and text edits. Where the document before the cursor is no valid beginning of
// a file, content assist over it offers nothing (and the editor offers what the cursor's block
// allows): there the editor's answer is compared with the same shortcut on freshly made tokens.
import type { IToken } from "chevrotain";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { completionsAt, type ExpectedTokens } from "../../src/lsp/completion.js";
import { createFrontEnd, loadGrammar } from "../../src/lsp/front-end.js";
import { scan } from "../../src/parser/scanner.js";
import { toChevrotainTokens } from "../../src/parser/spec/chevrotain-tokens.js";
import { nextTokensAfter } from "../../src/parser/spec/content-assist.js";
import { SEAM_SOURCES } from "./seam-sources.js";

const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 300);

beforeAll(loadGrammar);

const grammarTokens = new Map<string, IToken[]>();
/** Content assist over the document's first `count` tokens, each made by a full scan; notes whether it offered anything. */
function wholeDocument(offered: { empty: boolean }): ExpectedTokens {
  return (analysis, count) => {
    const { text } = analysis.file;
    let all = grammarTokens.get(text);
    if (all === undefined) grammarTokens.set(text, (all = toChevrotainTokens(text, scan(text))));
    const next = nextTokensAfter(all.slice(0, count));
    if (next.length === 0) offered.empty = true;
    return next;
  };
}

/** Typed pieces: half-written edges, blocks, guards and field paths. */
const PIECES = ["a", " ", "\n", "->", "{", "}", ":", ",", ".", "[]", "\"", "//", "agent ", "delegate ", "transfer ", "return ", "when ", "require ", "goal.", "1"];
const anEdit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  removed: fc.nat({ max: 12 }),
  text: fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((p) => p.join("")),
});

describe("completion: the editor's shortcuts offer what content assist over the whole document offers", () => {
  let compared = 0;
  let wholeValid = 0;
  it("at random positions of the examples and fixtures, after a random edit", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEAM_SOURCES), anEdit, fc.double({ min: 0, max: 1, noNaN: true }), ({ name, text }, edit, where) => {
        const at = Math.floor(edit.at * (text.length + 1));
        const edited = text.slice(0, at) + edit.text + text.slice(at + edit.removed);
        const offset = Math.floor(where * (edited.length + 1));
        // The editor: the earlier version analysed and its tokens made, then the edited one.
        const editor = createFrontEnd();
        void editor.analyse(name, text).tokens;
        const answer = completionsAt(editor.analyse(name, edited), offset);
        const fresh = createFrontEnd().analyse(name, edited);
        const offered = { empty: false };
        const whole = completionsAt(fresh, offset, wholeDocument(offered));
        compared++;
        if (offered.empty) {
          expect(answer).toEqual(completionsAt(fresh, offset));
        } else {
          wholeValid++;
          expect(answer).toEqual(whole);
        }
      }),
      { numRuns },
    );
    // Most positions lie where the document before them parses: the first comparison is the one that counts.
    expect(wholeValid).toBeGreaterThan(compared / 4);
  });

  it("offers the same 999 agent names (not the edge's source) at the last edge's target of a 1,000-agent graph, keystroke after keystroke", () => {
    const agents = Array.from({ length: 1000 }, (_, i) => `  agent a${i}: worker`);
    const edges = Array.from({ length: 999 }, (_, i) => `  transfer a${i} -> a${i + 1}`);
    const base = `seam 1\n\ngraph big {\n  entry a0\n${agents.join("\n")}\n${edges.join("\n")}\n}\n// \n`;
    const offset = base.lastIndexOf("-> ") + 3;
    const editor = createFrontEnd();
    for (const version of [base, base.replace(/\/\/ \n$/, "// x\n"), base]) {
      const answer = completionsAt(editor.analyse("big.seam", version), offset);
      const offered = { empty: false };
      expect(answer).toEqual(completionsAt(createFrontEnd().analyse("big.seam", version), offset, wholeDocument(offered)));
      expect(offered.empty).toBe(false);
      expect(answer.map((i) => i.label)).toEqual(Array.from({ length: 1000 }, (_, i) => `a${i}`).filter((name) => name !== "a998"));
    }
  });
});
