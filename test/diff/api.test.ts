/** `seam diff` through the package's entry point, as tools that embed it call it. */
import { describe, expect, it } from "vitest";
import { applyVersionPolicy, checkText, diffFiles, findingCatalog } from "../../src/index.js";
import { BASE, edit } from "./helpers.js";

describe("public API: diff", () => {
  it("diffs two checked files and applies the version policy", () => {
    const old = checkText("old.seam", BASE);
    const next = checkText("new.seam", edit(BASE, ["hop_limit 9", "hop_limit 10"]));
    const findings = diffFiles(old, next);
    expect(findings.map((f) => [f.rule, f.class, f.graph])).toEqual([["hop-limit-raised", "receiver-first", "desk"]]);
    expect(applyVersionPolicy(findings, old, next)).toEqual(findings);
    expect(findingCatalog.some((m) => m.id === "hop-limit-raised" && m.class === "receiver-first")).toBe(true);
  });
});
