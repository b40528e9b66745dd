/** The task has not ended at a terminal (`finish`). */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import type { TaskEnd } from "../seen-store.js";
import { ingestRule } from "./ingest-rule.js";

export const taskFinished = ingestRule("task-finished", "ledger", "/task_id");

export function endedReason(taskId: string | undefined, ended: TaskEnd, isoTime: (ms: number) => string): Reason {
  return ruleReason(taskFinished.pointer, taskFinished.id, "ended", {
    task: quoteUntrusted(taskId),
    at: isoTime(ended.at),
    after: ended.hopIndex === null ? "" : ` after hop ${ended.hopIndex}`,
    agent: quoteUntrusted(ended.agent),
    terminal: quoteUntrusted(ended.terminal),
    outcome: quoteUntrusted(ended.outcome),
  });
}
