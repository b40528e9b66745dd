/**
 * planMove: every new offset worked out before any is written, so a range held twice is moved
 * once, the tree's ranges indexed for its later moves, and nothing changed when it declines. moveCheck: the diagnostics copied at once, the
 * tree and model moved in place when first read, and a fresh check for a tree that cannot be.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { check } from "../../src/analysis/check.js";
import type { CheckResult } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { editShift, moveCheck, planMove } from "../../src/program/moved-check.js";
import { projectRoot } from "../emit/helpers.js";

/** One character typed at offset 5: every offset from 5 on moves by one. */
const typed = { from: 5, oldTo: 5, newTo: 6 };

/** A graph with one finding after a comment, and the same text with a letter typed in the comment. */
const text = ["graph g {", "  entry a", "  // note", "  agent a: supervisor", "  delegate a -> nobody", "}"].join("\n");
const at = text.indexOf("note") + 4;
const edited = `${text.slice(0, at)}s${text.slice(at)}`;
const letter = { from: at, oldTo: at, newTo: at + 1 };

describe("planMove", () => {
  it("moves a range held twice once, and leaves the model's declarations the tree's", () => {
    const shared = { start: 6, end: 9 };
    const agent = { kind: "Agent", range: { start: 6, end: 9 } };
    const tree = { items: [agent, { kind: "Name", range: shared }, { kind: "Ref", range: shared }] };
    const model = { agents: [{ id: "a", decl: agent }] };
    const move = planMove(tree, model, editShift(typed), new Map());
    expect(move).toBeTypeOf("function");
    move?.();
    expect(agent.range).toEqual({ start: 7, end: 10 });
    expect(shared).toEqual({ start: 7, end: 10 });
    expect(model.agents[0]?.decl).toBe(tree.items[0]);
  });

  it("leaves ranges before the edit and swaps a replaced object where it is held, in the tree and the model", () => {
    const before = { start: 0, end: 4 };
    const old = { kind: "StringLiteral", value: "a", range: { start: 6, end: 9 } };
    const swapped = { kind: "StringLiteral", value: "ab", range: { start: 6, end: 10 } };
    const terminal = { kind: "Terminal", range: { start: 0, end: 10 }, name: { range: before }, description: old };
    const tree = { kind: "File", range: { start: 0, end: 10 }, items: [terminal] };
    const checked = { id: "t", description: "a" };
    const updated = { id: "t", description: "ab" };
    const model = { agents: [{ decl: terminal, terminals: [checked] }] };
    const replaced = new Map<object, unknown>([
      [old, swapped],
      [old.range, swapped.range],
      [checked, updated],
    ]);
    planMove(tree, model, editShift(typed), replaced)?.();
    expect(tree.items[0]).toEqual({ kind: "Terminal", range: { start: 0, end: 11 }, name: { range: { start: 0, end: 4 } }, description: swapped });
    expect(tree.items[0]?.name.range).toBe(before);
    expect(model.agents[0]?.terminals[0]).toBe(updated);
    // The next move of the tree moves the replacement, not the range it replaced.
    planMove(tree, model, editShift({ from: 7, oldTo: 7, newTo: 8 }), new Map())?.();
    expect(swapped.range).toEqual({ start: 6, end: 11 });
    expect(old.range).toEqual({ start: 6, end: 9 });
  });

  it("moves a tree again after an edit before its last one", () => {
    const first = { start: 2, end: 3 };
    const second = { start: 8, end: 9 };
    const tree = { items: [{ kind: "A", range: first }, { kind: "B", range: second }] };
    planMove(tree, {}, editShift(typed), new Map())?.();
    planMove(tree, {}, editShift({ from: 1, oldTo: 1, newTo: 3 }), new Map())?.();
    expect(first).toEqual({ start: 4, end: 5 });
    expect(second).toEqual({ start: 11, end: 12 });
  });

  it("declines, changing nothing, when a range would be empty at the edit or something is no plain data", () => {
    const moved = { start: 6, end: 9 };
    const empty = { start: 5, end: 5 };
    const root = { items: [{ range: moved }, { range: empty }] };
    expect(planMove(root, {}, editShift(typed), new Map())).toBeUndefined();
    expect(root).toEqual({ items: [{ range: { start: 6, end: 9 } }, { range: { start: 5, end: 5 } }] });
    expect(planMove({ items: [{ range: moved }, new Map()] }, {}, editShift(typed), new Map())).toBeUndefined();
    expect(moved).toEqual({ start: 6, end: 9 });
  });
});

describe("the checked model", () => {
  /** The range objects reachable from `value` without passing through a `decl` (the tree's own node). */
  function ownRanges(value: unknown, found: object[] = []): object[] {
    if (typeof value !== "object" || value === null) return found;
    if (!Array.isArray(value) && typeof (value as { start?: unknown }).start === "number" && typeof (value as { end?: unknown }).end === "number") found.push(value);
    for (const [key, field] of Object.entries(value)) if (key !== "decl") ownRanges(field, found);
    return found;
  }

  it("holds no range of its own, so a move reads only the tree's (every example, and a generated graph)", () => {
    const dir = join(projectRoot, "examples");
    const texts = readdirSync(dir)
      .filter((name) => name.endsWith(".seam"))
      .map((name) => readFileSync(join(dir, name), "utf8"));
    texts.push(toSeam(generateGraph({ agents: 200 })));
    for (const source of texts) {
      const result = check(createSourceFile("x.seam", source));
      expect(result.graphs.length).toBeGreaterThan(0);
      expect(ownRanges(result.graphs)).toEqual([]);
    }
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

  it("moves the tree when the edit ends a replaced range (the last letter of a comment deleted)", () => {
    const previous = check(createSourceFile("x.seam", edited));
    const file = createSourceFile("x.seam", text);
    const swapped = { ...comment(previous), text: "// note", range: { start: comment(previous).range.start, end: comment(previous).range.end - 1 } };
    const recheck = vi.fn(() => check(file));
    const replaced = new Map<object, unknown>([
      [comment(previous), swapped],
      [comment(previous).range, swapped.range],
    ]);
    const moved = moveCheck(previous, file, editShift({ from: at, oldTo: at + 1, newTo: at }), replaced, recheck);
    expect(moved?.ast).toEqual(check(file).ast);
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
