/** The guard fixtures' accept() and envelopes, for the tests of guard-unmet, confidence-below-floor and approval-pending. */
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import type { Acceptors } from "../../../src/runtime/accept.js";
import { checkedGraph, readFixture } from "../../emit/helpers.js";
import type { Envelope } from "./helpers.js";

/** The acceptors of `test/fixtures/guards/<name>.seam`, and its hop limit. */
export function guardGraph(name: string): Acceptors & { readonly hopLimit: number } {
  const graph = checkedGraph(readFixture("guards", `${name}.seam`), `${name}.seam`);
  return { ...createGraphAccept(graph), hopLimit: graph.hopLimit.value as number };
}

/** Handoff ids by hop, so a test can cite the pending one. */
export function handoffId(hop: number): string {
  return `0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b${String(hop).padStart(2, "0")}`;
}

/** What the envelopes of one graph share: the envelope version, the hop limit, the agents' roles. */
export interface EnvelopeBase {
  readonly version: string;
  readonly limit: number;
  readonly roles: Readonly<Record<string, string>>;
}

/** A valid envelope for the hop over `path` (its last two agents are the edge; hop index: its length - 1), with `fields` added. */
export function hopEnvelope(base: EnvelopeBase, path: readonly string[], fields: Envelope = {}): Envelope {
  const { version, limit, roles } = base;
  const index = path.length - 1;
  const from = path[index - 1] as string;
  const to = path[index] as string;
  return {
    envelope_version: version,
    handoff_id: handoffId(index),
    task_id: "task-0042",
    hop: { index, limit, path: [...path] },
    from_agent: { id: from, role: roles[from] },
    to_agent: { id: to, role: roles[to] },
    goal: { statement: "Pay invoice 7731.", acceptance_criteria: ["The payment is sent"] },
    budget: { consumed: { tokens: 10 * index }, limit: { tokens: 1000 } },
    provenance: [{ agent: from, action: "handed the task on", at: "2026-11-29T10:02:11Z", status: "verified" }],
    ...fields,
  };
}

/** A decision with `confidence`. */
export function decision(id: string, confidence: number): Envelope {
  return { id, statement: `decided ${id}`, rationale: "from the records", confidence, reversible: true };
}

/** One supporting artefact (returns and transfers require artefacts). */
export const ARTEFACTS = [{ ref: "artefact://invoices/7731", media_type: "application/pdf", role: "supporting" }];

/** An approval record citing handoff `pending`. */
export function approval(pending: string): Envelope {
  return { approver: "ana@example.com", approved_at: "2026-11-29T10:30:00Z", pending_handoff_id: pending };
}
