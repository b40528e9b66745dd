/** The refund desk's accept() and its valid delegate envelope, for the rule tests of `src/runtime/checks/`. */
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import type { AcceptResult } from "../../../src/runtime/accept.js";
import type { Reason } from "../../../src/runtime/reason.js";
import { clone, readJsonFixture, refundDesk } from "../../emit/helpers.js";

export type Envelope = Record<string, any>;

export const { accept, acceptAsync } = createGraphAccept(refundDesk());
export const NOW = Date.UTC(2026, 10, 29, 10, 5, 0);
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;

/** The valid delegate triage -> billing (hop 1), edited. */
export function delegate(edit: (e: Envelope) => void = () => {}): Envelope {
  const e = clone(base);
  edit(e);
  return e;
}

/** The return billing -> triage at hop 2, edited. */
export function returning(edit: (e: Envelope) => void = () => {}): Envelope {
  return delegate((e) => {
    e["handoff_id"] = "5d0e7a21-3c4b-4f8a-b1d2-9e6f0a7c3b54";
    e["hop"] = { index: 2, limit: 8, path: ["triage", "billing", "triage"] };
    e["from_agent"] = { id: "billing", role: "worker", version: "2.0.0" };
    e["to_agent"] = { id: "triage", role: "supervisor" };
    e["status"] = "ready";
    e["decisions"] = [{ id: "d1", statement: "charged twice", rationale: "two records", confidence: 0.9, reversible: true }];
    e["artefacts"] = [{ ref: "artefact://refund/ledger-extract", media_type: "application/json", role: "required" }];
    edit(e);
  });
}

/** The reasons of a refusal (none for an acceptance). */
export function reasons(result: AcceptResult): readonly Reason[] {
  return result.ok ? [] : result.rejection.reasons;
}
