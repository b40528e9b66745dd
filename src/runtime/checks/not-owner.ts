/** `from_agent.id` is the task's owner, the receiver of its last accepted hop. */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const notOwner = ingestRule("not-owner", "ledger", "/from_agent/id");

/** `producer` and `owner` are quoted already. */
export function notOwnerReason(producer: string, task: string, owner: string, lastHop: number): Reason {
  return ruleReason(notOwner.pointer, notOwner.id, "producer", { producer, task, owner, last: lastHop });
}
