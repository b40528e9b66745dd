/** `from_agent.id` is the task's owner, the receiver of its last accepted hop (inside a branch, the branch's). */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const notOwner = ingestRule("not-owner", "ledger", "/from_agent/id");

/**
 * `producer` and `owner` are quoted already. `branch`: the fan-out branch (`hop.branch`, checked
 * against the graph) whose own chain the hop was judged on, so the message names whose turn it
 * is there; `null` for the task's chain.
 */
export function notOwnerReason(producer: string, task: string, owner: string, lastHop: number, branch: string | null = null): Reason {
  if (branch !== null) return ruleReason(notOwner.pointer, notOwner.id, "branch", { producer, branch, task, owner, last: lastHop });
  return ruleReason(notOwner.pointer, notOwner.id, "producer", { producer, task, owner, last: lastHop });
}
