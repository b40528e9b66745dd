/**
 * Approval gates at ingest (docs/language.md, Approval gates). What leaves a gate (an agent or an
 * edge marked `gate`) is no longer waiting for review; and while a task waits for an approval
 * (the ledger accepted a handoff of it with `status: waiting_review`), every hop of the task but
 * the resumption that cites that handoff in `approval.pending_handoff_id` is refused. The first
 * is a check of the envelope; the second the task ledger's (a `custody` fault of the store).
 * An approval that cites a handoff while none is pending must cite the task's last accepted
 * handoff: an approval answers the handoff it follows.
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const approvalPending = ingestRule("approval-pending", "ledger", "/approval/pending_handoff_id");

/** `status: waiting_review` leaving the approval gate `gate` (an agent's id, or an edge in words). */
export function checkGateStatus(status: unknown, gate: string, reasons: Reason[]): void {
  if (status === "waiting_review") reasons.push(ruleReason("/status", approvalPending.id, "gate", { gate }));
}

/**
 * The task waits for approval of handoff `pending`, and the delivery cites `cited` (null: no
 * approval record). `task` is quoted already.
 */
export function approvalPendingReason(task: string, pending: string, cited: string | null): Reason {
  if (cited === null) return ruleReason("/approval", approvalPending.id, "pending", { task, pending: quoteUntrusted(pending) });
  return ruleReason(approvalPending.pointer, approvalPending.id, "other", { task, pending: quoteUntrusted(pending), cited: quoteUntrusted(cited) });
}

/**
 * No approval is pending, and the delivery cites `cited`, not the task's last accepted handoff
 * `expected` (`""`: the task has none yet). `task` is quoted already.
 */
export function approvalCiteReason(task: string, cited: string, expected: string): Reason {
  if (expected === "") return ruleReason(approvalPending.pointer, approvalPending.id, "none", { task, cited: quoteUntrusted(cited) });
  return ruleReason(approvalPending.pointer, approvalPending.id, "unknown", { task, cited: quoteUntrusted(cited), expected: quoteUntrusted(expected) });
}
