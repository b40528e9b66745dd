/**
 * moveOffsets: one copy per declaration met twice, and a decline for a `decl` of a kind it does
 * not track. moveCheck: the diagnostics moved at once, the tree and model on first read, and a
 * fresh check for a tree that cannot be moved.
 */
import { describe, expect, it, vi } from "vitest";
import { check } from "../../src/analysis/check.js";
import type { CheckResult } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { moveCheck, moveOffsets } from "../../src/program/moved-check.js";

/** One character typed at offset 0: every offset moves by one. */
const typed = { from: 0, oldTo: 0, newTo: 1 };

/** A graph with one finding after a comment, and the same text with a letter typed in the comment. */
const text = ["graph g {", "  entry a", "  // note", "  agent a: supervisor", "  delegate a -> nobody", "}"].join("\n");
const at = text.indexOf("note") + 4;
const edited = `${text.slice(0, at)}s${text.slice(at)}`;
const letter = { from: at, oldTo: at, newTo: at + 1 };

describe("moveOffsets", () => {
  it("moves a declaration named by the model once, so the tree and the model share its copy", () => {
    const agent = { kind: "Agent", range: { start: 4, end: 9 } };
    const moved = moveOffsets({ tree: [agent], model: { decl: agent, range: { start: 4, end: 9 } } }, typed, new Map());
    expect(moved?.tree[0]).toEqual({ kind: "Agent", range: { start: 5, end: 10 } });
    expect(moved?.model.decl).toBe(moved?.tree[0]);
  });

  it("declines a model object whose decl is of a kind it does not track", () => {
    const other = { kind: "Mystery", range: { start: 4, end: 9 } };
    expect(moveOffsets({ tree: [other], model: { decl: other } }, typed, new Map())).toBeUndefined();
  });
});

describe("moveCheck", () => {
  const comment = (result: CheckResult): CheckResult["ast"]["comments"][number] => result.ast.comments[0] as CheckResult["ast"]["comments"][number];

  it("moves the diagnostics at once and the tree and model, sharing declarations, when first read", () => {
    const previous = check(createSourceFile("x.seam", text));
    const file = createSourceFile("x.seam", edited);
    const swapped = { ...comment(previous), text: "// notes", range: { start: comment(previous).range.start, end: comment(previous).range.end + 1 } };
    const recheck = vi.fn(() => check(file));
    const moved = moveCheck(previous, file, letter, new Map<object, unknown>([[comment(previous), swapped]]), recheck);
    const fresh = check(file);
    expect(moved?.diagnostics).toEqual(fresh.diagnostics);
    expect(moved?.diagnostics[0]?.range).toEqual({ start: edited.indexOf("nobody"), end: edited.indexOf("nobody") + "nobody".length });
    expect(moved?.ast).toEqual(fresh.ast);
    expect(moved?.graphs).toEqual(fresh.graphs);
    expect(moved?.graphs[0]?.decl).toBe(moved?.ast.graphs[0]);
    expect(recheck).not.toHaveBeenCalled();
  });

  it("takes the tree from a fresh check, once, when it cannot be moved, and only when it is read", () => {
    const checked = check(createSourceFile("x.seam", text));
    // An empty range at the edit: a fresh check may put it either side of the typed letter.
    const previous: CheckResult = { ...checked, ast: { ...checked.ast, comments: [{ ...comment(checked), range: { start: at, end: at } }] } };
    const file = createSourceFile("x.seam", edited);
    const fresh = check(file);
    const recheck = vi.fn(() => fresh);
    const moved = moveCheck(previous, file, letter, new Map(), recheck);
    expect(moved?.diagnostics).toEqual(fresh.diagnostics);
    expect(recheck).not.toHaveBeenCalled();
    expect(moved?.graphs).toBe(fresh.graphs);
    expect(moved?.ast).toBe(fresh.ast);
    expect(recheck).toHaveBeenCalledTimes(1);
  });

  it("declines at once when a diagnostic's range lies in the edited span", () => {
    const previous = check(createSourceFile("x.seam", text));
    // The space before `nobody` and its first letter deleted: the finding's start is in the span.
    const name = text.indexOf("nobody");
    const file = createSourceFile("x.seam", `${text.slice(0, name - 1)}${text.slice(name + 1)}`);
    const recheck = vi.fn(() => check(file));
    expect(moveCheck(previous, file, { from: name - 1, oldTo: name + 1, newTo: name - 1 }, new Map(), recheck)).toBeUndefined();
    expect(recheck).not.toHaveBeenCalled();
  });
});
