/**
 * Which `seam diff` findings cover each field of the checked model (`analysis/model.ts`), or why
 * a field is deliberately not compared: buf's breaking rules cover every descriptor property the
 * same way. The table is typed by the model, so a field added to it without a line here is a
 * compile error; `test/diff/model-coverage.test.ts` checks every finding named here exists and
 * every setting of `core/settings.ts` is covered through its model field.
 */
import type { CheckedAgent, CheckedEdge, CheckedGraph, CheckedTerminal } from "../analysis/model.js";

/** The findings that report a change of the field, or the reason it is not compared. */
export type Coverage = readonly string[] | { readonly ignored: string };

const ignored = (reason: string): Coverage => ({ ignored: reason });
const SOURCE = ignored("where the item is written, not what it means");

/** Coverage of every field of a checked graph, agent, edge and terminal. */
export const MODEL_COVERAGE = {
  graph: {
    name: ["graph-added", "graph-removed"],
    envelope: ["envelope-version-raised", "envelope-version-lowered", "envelope-version-changed"],
    entries: ["entry-added", "entry-removed"],
    hopLimit: ["hop-limit-raised", "hop-limit-lowered"],
    onHopLimit: ["on-hop-limit-changed"],
    loopSignature: ["loop-signature-changed"],
    contracts: ["required-field-added", "required-field-removed", "required-field-replaced"],
    agents: ["agent-added", "agent-removed"],
    edges: ["edge-added", "edge-removed", "edge-kind-changed"],
    unboundedCycles: ignored("follows from the edges and their max_rounds, which are compared"),
    decl: SOURCE,
  },
  agent: {
    id: ["agent-added", "agent-removed"],
    role: ["role-changed"],
    version: ["agent-major-changed", "agent-minor-raised", "agent-version-lowered", "agent-version-changed"],
    terminals: ["terminal-added", "terminal-removed", "terminal-outcome-changed"],
    gate: ["gate-added", "gate-removed"],
    effect: ignored("a note for the ungated-effect check; no envelope depends on it"),
    join: ["join-wait-changed", "join-policy-changed"],
    reachable: ignored("follows from the entries and edges, which are compared"),
    canTerminate: ignored("follows from the terminals and edges, which are compared"),
    decl: SOURCE,
  },
  edge: {
    index: ignored("the edge's position in the file; edges are matched by kind and agents"),
    kind: ["edge-kind-changed"],
    from: ["edge-added", "edge-removed"],
    to: ["edge-added", "edge-removed"],
    observe: ["edge-observed", "edge-enforced"],
    maxRounds: ["max-rounds-raised", "max-rounds-lowered"],
    repairs: ["repairs-raised", "repairs-lowered"],
    guard: ["guard-narrowed", "guard-widened"],
    minConfidence: ["min-confidence-raised", "min-confidence-lowered"],
    gate: ["gate-added", "gate-removed"],
    fanOut: ["branch-added", "branch-removed"],
    require: ["required-field-added", "required-field-removed", "required-field-replaced"],
    inUnboundedCycle: ignored("follows from the edges and their max_rounds, which are compared"),
    decl: SOURCE,
  },
  terminal: {
    id: ["terminal-added", "terminal-removed"],
    outcome: ["terminal-outcome-changed"],
    description: ignored("prose for people; no envelope depends on it"),
  },
} as const satisfies {
  readonly graph: { readonly [K in keyof CheckedGraph]-?: Coverage };
  readonly agent: { readonly [K in keyof CheckedAgent]-?: Coverage };
  readonly edge: { readonly [K in keyof CheckedEdge]-?: Coverage };
  readonly terminal: { readonly [K in keyof CheckedTerminal]-?: Coverage };
};
