import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { defineRule, runRules } from "../../src/analysis/rule.js";
import { ruleCatalog, rules } from "../../src/analysis/rules/index.js";

describe("rules", () => {
  it("are kebab-case, unique, and listed in the catalogue after syntax", () => {
    const ids = rules.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ruleCatalog[0]?.id).toBe("syntax");
    expect(ruleCatalog.map((m) => m.id)).toEqual(["syntax", ...ids, "suppression-reason", "suppression-unknown-rule", "unused-suppression", "file-too-large", "internal-error"]);
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
      incomplete: false,
      firstOfName: graph.decl,
      comments: [],
    });
    expect(diagnostics.map((d) => [d.rule, d.severity])).toEqual([
      ["internal-error", "error"],
      ["reporting", "warning"],
    ]);
    expect(diagnostics[0]?.message).toContain("boom");
  });

  it("skip whole-graph rules on a graph with syntax errors, so dropped items cause no follow-on findings", () => {
    // `entry agent` is a syntax error ('agent' is a keyword): the entry line is dropped.
    const broken = checkText("x.seam", "graph g {\n  entry agent\n  agent a: peer\n  agent b: peer\n  agent b: peer\n}\n");
    const found = broken.diagnostics.map((d) => d.rule);
    expect(found).toContain("syntax");
    expect(found).toContain("duplicate-agent");
    expect(found).not.toContain("missing-entry");
    expect(found).not.toContain("no-terminal-path");

    const clean = checkText("y.seam", "graph g {\n  agent a: peer\n}\n");
    expect(clean.diagnostics.map((d) => d.rule)).toContain("missing-entry");

    // An unterminated comment inside the graph swallows its closing brace: the graph ends early.
    const swallowed = checkText("z.seam", "graph g { /* agent a: peer }\n");
    expect(swallowed.diagnostics.map((d) => d.rule)).toEqual(["syntax"]);
  });
});
