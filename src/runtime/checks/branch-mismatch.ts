/**
 * `hop.branch` names the branch of a fan-out the handoff travels in: over a `fan_out` edge it
 * must be that edge's branch (`NAME/to`), and wherever it is given it must be a branch of the
 * graph. Inside a branch the ledger checks that the task opened it (`branch-unknown`).
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const branchMismatch = ingestRule("branch-mismatch", "graph", "/hop/branch");

/** What the check needs of the graph's fan-outs. */
export interface BranchGraph {
  readonly name: string;
  /** Every branch id of the graph (`NAME/AGENT`), in edge order. */
  readonly branches: ReadonlySet<string>;
}

/**
 * Checks `claimed` (the envelope's `hop.branch`, `undefined` when absent or not a string) for the
 * edge `from -> to`, whose branch is `own` (`undefined` for an edge with no `fan_out`).
 *
 * @returns whether `claimed` may be given to the ledger: the edge's own branch, or a branch of the graph on another edge
 */
export function checkBranch(graph: BranchGraph, from: string, to: string, own: { readonly fanOut: string; readonly id: string } | undefined, claimed: string | undefined, reasons: Reason[]): boolean {
  if (own !== undefined) {
    if (claimed === own.id) return true;
    const params = { from, to, branch: own.id, fanout: own.fanOut };
    if (claimed === undefined) reasons.push(ruleReason(branchMismatch.pointer, branchMismatch.id, "missing", params));
    else reasons.push(ruleReason(branchMismatch.pointer, branchMismatch.id, "other", { ...params, claimed: quoteUntrusted(claimed) }));
    return false;
  }
  if (claimed === undefined || graph.branches.has(claimed)) return true;
  if (graph.branches.size === 0) reasons.push(ruleReason(branchMismatch.pointer, branchMismatch.id, "none", { graph: graph.name }));
  else reasons.push(ruleReason(branchMismatch.pointer, branchMismatch.id, "unknown", { claimed: quoteUntrusted(claimed), graph: graph.name, branches: [...graph.branches].slice(0, 20).join(", ") }));
  return false;
}
