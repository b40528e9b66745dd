/** With a store, the envelope has a string `task_id`: its refusals can be counted. */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const untrackedTask = ingestRule("untracked-task", "ledger", "/task_id");

/** The one reason of an untracked task (it carries nothing of the envelope). */
export const UNTRACKED_REASON: Reason = Object.freeze(ruleReason(untrackedTask.pointer, untrackedTask.id, "untracked"));
