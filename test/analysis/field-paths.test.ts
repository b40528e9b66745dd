import { describe, expect, it } from "vitest";
import { formatFieldPath, listFieldPaths, resolveFieldPath } from "../../src/analysis/field-paths.js";

const split = (path: string) => path.split(/\.|(?=\[\])|(?<=\[\])/).filter(Boolean);

describe("field paths", () => {
  it("resolves names, [] items and $refs", () => {
    for (const path of ["goal.statement", "decisions[].rationale", "budget.limit.tokens", "from_agent.role", "artefacts[]", "hop.path[]", "status"]) {
      expect(resolveFieldPath(split(path)), path).toBeUndefined();
    }
  });

  it("says which segment fails and why", () => {
    expect(resolveFieldPath(split("goal.statment"))).toEqual({ segment: 1, reason: "'statment' is not a field of goal" });
    expect(resolveFieldPath(split("budget[]"))).toEqual({ segment: 1, reason: "budget is not an array" });
    expect(resolveFieldPath(split("decisions.rationale"))?.segment).toBe(1);
    expect(resolveFieldPath(split("status.x"))?.reason).toContain("has no fields");
  });

  it("lists every valid path, each of which resolves", () => {
    const paths = listFieldPaths();
    expect(paths).toContain("decisions[].rationale");
    expect(paths).toContain("to_agent.version");
    expect(paths).toContain("budget.consumed.cost_micros");
    for (const path of paths) expect(resolveFieldPath(split(path)), path).toBeUndefined();
    expect(formatFieldPath(["decisions", "[]", "rationale"])).toBe("decisions[].rationale");
  });
});
