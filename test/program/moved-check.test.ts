/** moveOffsets: one copy per declaration met twice, and a decline for a `decl` of a kind it does not track. */
import { describe, expect, it } from "vitest";
import { moveOffsets } from "../../src/program/moved-check.js";

/** One character typed at offset 0: every offset moves by one. */
const typed = { from: 0, oldTo: 0, newTo: 1 };

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
