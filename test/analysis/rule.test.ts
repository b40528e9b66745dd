import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { defineRule, runRules } from "../../src/analysis/rule.js";
import { ruleCatalog, rules } from "../../src/analysis/rules/index.js";

describe("rules", () => {
  it("are kebab-case, unique, and listed in the catalogue after syntax", () => {
    const ids = rules.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ruleCatalog[0]?.id).toBe("syntax");
    expect(ruleCatalog.map((m) => m.id)).toEqual(["syntax", ...ids, "internal-error"]);
    expect(() => defineRule({ meta: { id: "Bad_Id", severity: "error", description: "x" }, check: () => undefined })).toThrow();
  });

  it("turn a crash into an internal-error diagnostic and keep running the others", () => {
    const model = checkText("x.seam", "graph g {\n  entry a\n  agent a: peer { terminal t }\n}\n");
    const graph = model.graphs[0];
    if (graph === undefined) throw new Error("no graph");
    const crashing = defineRule({
      meta: { id: "crashing", severity: "warning", description: "throws" },
      check() {
        throw new Error("boom");
      },
    });
    const reporting = defineRule({
      meta: { id: "reporting", severity: "warning", description: "reports" },
      check({ report, model: m }) {
        report({ range: m.graph.decl.name.range, message: "seen" });
      },
    });
    // Neither rule reads the binding or the facts, so those are left empty here.
    const diagnostics = runRules([crashing, reporting], {
      file: model.file,
      graph,
      bound: {} as never,
      facts: {} as never,
    });
    expect(diagnostics.map((d) => [d.rule, d.severity])).toEqual([
      ["internal-error", "error"],
      ["reporting", "warning"],
    ]);
    expect(diagnostics[0]?.message).toContain("boom");
  });
});
