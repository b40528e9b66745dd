/**
 * An open question marked blocking stops a `ready` or `partial` envelope (or one with no
 * status): the work cannot go on. A hand-back that says it waits (`status: blocked` or
 * `waiting_review`) is exactly what carries such a question, so there it is what the envelope
 * waits on, and the envelope is accepted with its route (`human_input`, `approval`).
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const blockingQuestion = ingestRule("blocking-question", "envelope", "/open_questions/<i>/blocking");

export function checkBlockingQuestions(questions: unknown, status: unknown, reasons: Reason[]): void {
  if (!Array.isArray(questions) || status === "blocked" || status === "waiting_review") return;
  for (let i = 0; i < questions.length; i++) {
    const question: unknown = questions[i];
    if (typeof question !== "object" || question === null) continue;
    const { blocking, question: text } = question as { blocking?: unknown; question?: unknown };
    if (blocking === true) {
      reasons.push(
        ruleReason(`/open_questions/${i}/blocking`, blockingQuestion.id, "unresolved", { question: typeof text === "string" ? quoteUntrusted(text) : "(no question text)" }),
      );
    }
  }
}
