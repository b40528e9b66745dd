import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rescan } from "../../src/parser/rescan.js";
import { scan, type ScanResult } from "../../src/parser/scanner.js";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";

/** A scan with its arrays cut to its token count, for comparison. */
const plain = (s: ScanResult) => ({
  count: s.count,
  kinds: [...s.kinds.subarray(0, s.count)],
  starts: [...s.starts.subarray(0, s.count)],
  ends: [...s.ends.subarray(0, s.count)],
  unexpected: s.unexpected.map((p) => [...p]),
  unterminatedComment: s.unterminatedComment,
  malformedStrings: [...s.malformedStrings],
  comments: s.comments.map((p) => [...p]),
});

const base = [
  'graph g {\n  entry a // note\n  agent a: supervisor { terminal done complete "a \\"b\\" c" }\n  /* block */ delegate a -> b { max_rounds 2 }\n  require x.y[], z\n}\n',
  toSeam(generateGraph({ agents: 60 })),
  "\uFEFFgraph g { agent é: worker } # bad ` chars -1 1.2.3 <= \"open\n",
];
// "e", "+" and "." beside digits make and unmake numbers with exponents (`1e-3`), which the
// scanner reads two code units ahead to tell from `1` and a name.
const pieces = fc.constantFrom(" ", "\n", "x", "-", ">", "/*", "*/", "//", '"', "\\", "\\u00e9", "{", "}", "#", "1.", "2", "\uFEFF", "agent", "é", "\uD835", "e", "+", ".");

describe("rescan", () => {
  it("gives the scan a full scan gives, on random edits", () => {
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.nat(), fc.nat(6), fc.array(pieces, { maxLength: 4 }), (which, where, removed, inserted) => {
        const text = base[which] as string;
        const at = where % (text.length + 1);
        const edited = text.slice(0, at) + inserted.join("") + text.slice(Math.min(text.length, at + removed));
        const change = rescan(scan(text), text, edited);
        expect(plain(change.scan)).toEqual(plain(scan(edited)));
        // What it says was rescanned covers every difference: the tokens outside are the old ones.
        const old = scan(text);
        const delta = edited.length - text.length;
        for (let i = 0; i < change.first; i++) expect(change.scan.starts[i]).toBe(old.starts[i]);
        for (let i = change.oldEnd; i < old.count; i++) expect(change.scan.starts[i - change.oldEnd + change.newEnd]).toBe((old.starts[i] as number) + delta);
      }),
      { numRuns: 1500, seed: 7 },
    );
  });

  // The scanner reads two code units past `1` to tell `1e-3` from `1` and the name `e-x`: an
  // edit there changes the token that ended before it.
  it.each([
    ["a 1e-x", "a 1e-3"],
    ["a 1e+x", "a 1e+3"],
    ["a 1e-3", "a 1e-x"],
    ["a -.x", "a -.5"],
    ["b a .x", "b a .5"],
  ])("gives the scan a full scan gives when %j becomes %j", (before, after) => {
    expect(plain(rescan(scan(before), before, after).scan)).toEqual(plain(scan(after)));
  });
});
