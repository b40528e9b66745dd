import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { reuseAcrossCommentEdit } from "../../src/program/comment-edit.js";
import { createOverlayHost } from "../../src/program/host.js";
import { createProgram } from "../../src/program/program.js";

const read = (url: URL): string => readFileSync(url, "utf8");
const examples = readdirSync(new URL("../../examples/", import.meta.url))
  .filter((name) => name.endsWith(".seam"))
  .sort()
  .map((name) => read(new URL(`../../examples/${name}`, import.meta.url)));
const suppressions = ["joined-and-split", "block-on-code-line", "long-block"].map((name) =>
  read(new URL(`../fixtures/parser/suppressions/${name}.seam`, import.meta.url)),
);
const guesses = read(new URL("../fixtures/import/expected/langgraph-supervisor.seam", import.meta.url));
/** A graph with findings after its comments, and a comment at the very end without a line break. */
const findings = [
  "graph g {",
  "  entry a",
  "  // what a does /* not a block */",
  "  agent a: supervisor { terminal done }",
  "  agent b: worker /* a note",
  "  over two lines */",
  "  delegate a -> b",
  "  delegate a -> nobody // unknown",
  "}",
  "// the end",
].join("\n");
/** A syntax error (the parser's recovery) between two comments. */
const broken = "graph g {\n  entry a // first\n  agent a: worker { terminal done }\n  delegate ->\n  /* second */\n}\n// last\n";
const texts = [...examples, ...suppressions, guesses, findings, broken];

/** The offsets inside comment bodies of `text`, from a fresh parse. */
function commentOffsets(text: string): number[] {
  const offsets: number[] = [];
  for (const comment of check(createSourceFile("x.seam", text)).ast.comments) {
    for (let i = comment.range.start + 2; i <= comment.range.end; i++) offsets.push(i);
  }
  return offsets;
}

describe("reuseAcrossCommentEdit", () => {
  it("gives the same result as a fresh check, or declines, on random edits", () => {
    let runs = 0;
    let reusedRuns = 0;
    const pieces = fc.constantFrom("x", " ", "é", "*", "/", "*/", "/*", "//", "\n", "\r", "\u0000", "seam-disable-next-line unknown-agent", "seam-guess role -- why", "seam-disable", "-- ", "}", "agent");
    fc.assert(
      fc.property(
        fc.nat(texts.length - 1),
        fc.nat(),
        fc.nat(3),
        fc.array(pieces, { maxLength: 3 }),
        fc.boolean(),
        (which, where, removed, inserted, inComment) => {
          runs++;
          const text = texts[which] as string;
          const inside = commentOffsets(text);
          const at = inComment && inside.length > 0 ? (inside[where % inside.length] as number) : where % (text.length + 1);
          const edited = text.slice(0, at) + inserted.join("") + text.slice(Math.min(text.length, at + removed));
          const previous = check(createSourceFile("x.seam", text));
          const file = createSourceFile("x.seam", edited);
          const reused = reuseAcrossCommentEdit(previous, file);
          if (reused === undefined) return;
          reusedRuns++;
          expect(reused).toEqual(check(file));
        },
      ),
      { numRuns: 400, seed: 18 },
    );
    // Not vacuous: a good share of the edits take the shortcut (the others are checked afresh).
    expect(runs).toBe(400);
    expect(reusedRuns).toBeGreaterThan(80);
  });

  it("reuses the check across typing in a plain comment, moving the findings after it", () => {
    const at = findings.indexOf("what a does") + 4;
    const file = createSourceFile("x.seam", `${findings.slice(0, at)}typed ${findings.slice(at)}`);
    const reused = reuseAcrossCommentEdit(check(createSourceFile("x.seam", findings)), file);
    const fresh = check(file);
    expect(reused).toEqual(fresh);
    const nobody = file.text.indexOf("nobody");
    expect(nobody).toBe(findings.indexOf("nobody") + "typed ".length);
    expect(reused?.diagnostics.find((d) => d.rule === "unknown-agent")?.range).toEqual({ start: nobody, end: nobody + "nobody".length });
    expect(reused?.diagnostics.every((d) => d.file === file)).toBe(true);
  });

  it("reuses the check across typing at the end of a last comment with no line break after it", () => {
    const file = createSourceFile("x.seam", `${findings}!`);
    expect(reuseAcrossCommentEdit(check(createSourceFile("x.seam", findings)), file)).toEqual(check(file));
  });

  it.each([
    ["a line break typed into a comment", (t: string) => t.replace("what a does", "what a\ndoes")],
    ["an edit outside comments", (t: string) => t.replace("agent b: worker", "agent b: worker ")],
    ["a comment made a suppression", (t: string) => t.replace("// unknown", "// seam-disable unknown")],
    ["a block comment closed early", (t: string) => t.replace("a note", "a */ note")],
    ["a comment's opener edited", (t: string) => t.replace("// the end", "/ the end")],
  ])("declines %s", (_, edit) => {
    const previous = check(createSourceFile("x.seam", findings));
    const edited = edit(findings);
    expect(edited).not.toBe(findings);
    expect(reuseAcrossCommentEdit(previous, createSourceFile("x.seam", edited))).toBeUndefined();
  });

  it("declines an edit of a suppression comment's text", () => {
    const text = suppressions[0] as string;
    const at = text.indexOf("seam-disable") + "seam-disable".length;
    expect(at).toBeGreaterThan(20);
    const edited = `${text.slice(0, at)}x${text.slice(at)}`;
    expect(reuseAcrossCommentEdit(check(createSourceFile("x.seam", text)), createSourceFile("x.seam", edited))).toBeUndefined();
  });

  it("is what a program answers for an edited text, counted as reused", () => {
    const program = createProgram(createOverlayHost());
    program.checkFile(createSourceFile("x.seam", findings));
    const file = createSourceFile("x.seam", findings.replace("// unknown", "// unknown name"));
    expect(program.checkFile(file)).toEqual(check(file));
    expect(program.stats).toEqual({ checks: 1, cacheHits: 0, reused: 1 });
  });
});
