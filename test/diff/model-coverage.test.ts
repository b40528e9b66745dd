/**
 * Every field of the checked model has a `seam diff` finding or is named as deliberately not
 * compared (`src/diff/model-coverage.ts`, as buf's rules cover every descriptor property): the
 * table names only findings that exist, covers every setting of the settings table through its
 * model field, and every field a checked model holds at run time is in it.
 */
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { AGENT_SETTINGS, EDGE_SETTINGS } from "../../src/core/settings.js";
import { findingCatalog } from "../../src/diff/findings/index.js";
import { MODEL_COVERAGE } from "../../src/diff/model-coverage.js";

const ids = new Set(findingCatalog.map((f) => f.id));

/** A graph that uses every construct, so its model holds every optional field. */
const EVERYTHING = `graph g {
  envelope 1.3
  entry lead
  hop_limit 9
  on_hop_limit failed
  loop_signature goal.statement
  contract transfer { require decisions }
  agent lead: supervisor { version "1.0.0" terminal done complete "ok" gate effect "pays" }
  agent coder: worker
  delegate lead -> coder observe { max_rounds 2 repairs 1 min_confidence 0.5 gate require constraints }
  return coder -> lead when status is ready
  return coder -> lead otherwise
}
`;

describe("the checked model's coverage by seam diff", () => {
  it("names only findings that exist, and gives a reason for every field it does not compare", () => {
    for (const [part, fields] of Object.entries(MODEL_COVERAGE)) {
      for (const [field, coverage] of Object.entries(fields)) {
        if ("ignored" in coverage) expect(coverage.ignored.length, `${part}.${field}`).toBeGreaterThan(10);
        else for (const id of coverage as readonly string[]) expect(ids.has(id), `${part}.${field}: ${id}`).toBe(true);
      }
    }
  });

  it("covers every setting of the settings table through its model field", () => {
    for (const spec of AGENT_SETTINGS) expect(Object.keys(MODEL_COVERAGE.agent)).toContain(spec.model);
    for (const spec of EDGE_SETTINGS) expect(Object.keys(MODEL_COVERAGE.edge)).toContain(spec.model);
  });

  it("lists every field a checked model holds", () => {
    const result = checkText("g.seam", EVERYTHING);
    const graph = result.graphs[0];
    if (graph === undefined) throw new Error("no graph");
    const keys = (values: readonly object[]) => [...new Set(values.flatMap((v) => Object.keys(v)))].sort();
    expect(keys([graph])).toEqual(Object.keys(MODEL_COVERAGE.graph).sort());
    expect(keys(graph.agents)).toEqual(Object.keys(MODEL_COVERAGE.agent).sort());
    expect(keys(graph.edges)).toEqual(Object.keys(MODEL_COVERAGE.edge).sort());
    expect(keys(graph.agents.flatMap((a) => a.terminals))).toEqual(Object.keys(MODEL_COVERAGE.terminal).sort());
  });
});
