/**
 * planMove: every new offset worked out before any is written, so an object met twice is moved
 * once, and nothing changed when it declines. moveCheck: the diagnostics copied at once, the
 * tree and model moved in place when first read, and a fresh check for a tree that cannot be.
 */
import { describe, expect, it, vi } from "vitest";
import { check } from "../../src/analysis/check.js";
import type { CheckResult } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { editShift, moveCheck, planMove } from "../../src/program/moved-check.js";

/** One character typed at offset 5: every offset from 5 on moves by one. */
const typed = { from: 5, oldTo: 5, newTo: 6 };

/** A graph with one finding after a comment, and the same text with a letter typed in the comment. */
const text = ["graph g {", "  entry a", "  // note", "  agent a: supervisor", "  delegate a -> nobody", "}"].join("\n");
const at = text.indexOf("note") + 4;
const edited = `${text.slice(0, at)}s${text.slice(at)}`;
const letter = { from: at, oldTo: at, newTo: at + 1 };

describe("planMove", () => {
  it("moves a range met twice once, and a declaration the model names once", () => {
    const shared = { start: 6, end: 9 };
    const agent = { kind: "Agent", range: { start: 6, end: 9 } };
    const root = { tree: [agent, { kind: "Name", range: shared }], model: { decl: agent, range: { start: 6, end: 9 }, name: { range: shared } } };
    const move = planMove(root, editShift(typed), new Map());
    expect(move).toBeTypeOf("function");
    move?.();
    expect(agent.range).toEqual({ start: 7, end: 10 });
    expect(shared).toEqual({ start: 7, end: 10 });
    expect(root.model.range).toEqual({ start: 7, end: 10 });
    expect(root.model.decl).toBe(root.tree[0]);
  });

  it("leaves ranges before the edit and swaps a replaced object where it is held", () => {
    const before = { start: 0, end: 4 };
    const old = { kind: "StringLiteral", value: "a", range: { start: 6, end: 9 } };
    const swapped = { kind: "StringLiteral", value: "ab", range: { start: 6, end: 10 } };
    const root = { items: [{ kind: "Terminal", range: { start: 0, end: 10 }, name: { range: before }, description: old }] };
    planMove(root, editShift(typed), new Map([[old, swapped]]))?.();
    expect(root.items[0]).toEqual({ kind: "Terminal", range: { start: 0, end: 11 }, name: { range: { start: 0, end: 4 } }, description: swapped });
    expect(root.items[0]?.name.range).toBe(before);
  });

  it("declines, changing nothing, when a range would be empty at the edit or something is no plain data", () => {
    const moved = { start: 6, end: 9 };
    const empty = { start: 5, end: 5 };
    const root = { items: [{ range: moved }, { range: empty }] };
    expect(planMove(root, editShift(typed), new Map())).toBeUndefined();
    expect(root).toEqual({ items: [{ range: { start: 6, end: 9 } }, { range: { start: 5, end: 5 } }] });
    expect(planMove({ items: [{ range: moved }, new Map()] }, editShift(typed), new Map())).toBeUndefined();
    expect(moved).toEqual({ start: 6, end: 9 });
  });
});

describe("moveCheck", () => {
  const comment = (result: CheckResult): CheckResult["ast"]["comments"][number] => result.ast.comments[0] as CheckResult["ast"]["comments"][number];

  it("copies the diagnostics at once and moves the tree and model in place when first read", () => {
    const previous = check(createSourceFile("x.seam", text));
    const file = createSourceFile("x.seam", edited);
    const swapped = { ...comment(previous), text: "// notes", range: { start: comment(previous).range.start, end: comment(previous).range.end + 1 } };
    const tree = previous.ast;
    const recheck = vi.fn(() => check(file));
    const moved = moveCheck(previous, file, editShift(letter), new Map<object, unknown>([[comment(previous), swapped]]), recheck);
    const fresh = check(file);
    expect(moved?.diagnostics).toEqual(fresh.diagnostics);
    expect(moved?.diagnostics[0]?.range).toEqual({ start: edited.indexOf("nobody"), end: edited.indexOf("nobody") + "nobody".length });
    // Not read yet: the tree still has the old offsets.
    expect(tree.range).toEqual({ start: 0, end: text.length });
    expect(moved?.ast).toEqual(fresh.ast);
    expect(moved?.graphs).toEqual(fresh.graphs);
    expect(moved?.ast).toBe(tree);
    expect(moved?.graphs[0]?.decl).toBe(moved?.ast.graphs[0]);
    expect(recheck).not.toHaveBeenCalled();
  });

  it("takes the tree from a fresh check, once, when it cannot be moved, leaving the previous one as it was", () => {
    const checked = check(createSourceFile("x.seam", text));
    // An empty range at the edit: a fresh check may put it either side of the typed letter.
    const previous: CheckResult = { ...checked, ast: { ...checked.ast, comments: [{ ...comment(checked), range: { start: at, end: at } }] } };
    const file = createSourceFile("x.seam", edited);
    const fresh = check(file);
    const recheck = vi.fn(() => fresh);
    const moved = moveCheck(previous, file, editShift(letter), new Map(), recheck);
    expect(moved?.diagnostics).toEqual(fresh.diagnostics);
    expect(recheck).not.toHaveBeenCalled();
    expect(moved?.graphs).toBe(fresh.graphs);
    expect(moved?.ast).toBe(fresh.ast);
    expect(recheck).toHaveBeenCalledTimes(1);
    expect(previous.graphs).toEqual(check(createSourceFile("x.seam", text)).graphs);
  });

  it("declines at once when a diagnostic's range lies in the edited span", () => {
    const previous = check(createSourceFile("x.seam", text));
    // The space before `nobody` and its first letter deleted: the finding's start is in the span.
    const name = text.indexOf("nobody");
    const file = createSourceFile("x.seam", `${text.slice(0, name - 1)}${text.slice(name + 1)}`);
    const recheck = vi.fn(() => check(file));
    expect(moveCheck(previous, file, editShift({ from: name - 1, oldTo: name + 1, newTo: name - 1 }), new Map(), recheck)).toBeUndefined();
    expect(recheck).not.toHaveBeenCalled();
    expect(previous).toEqual(check(createSourceFile("x.seam", text)));
  });
});
