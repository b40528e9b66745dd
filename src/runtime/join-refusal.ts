/**
 * A join given up on (its deadline passed, or too few branches can still arrive), as `accept()`
 * words and records it: the `join-expired` and `join-failed` reasons, and the `join` of a
 * rejection, a finish record and `joinState`'s answer. The store decides; this module words.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import { joinExpiredReason } from "./checks/join-expired.js";
import { joinFailedReason } from "./checks/join-failed.js";
import type { Reason } from "./reason.js";
import type { JoinClosed } from "./seen-store.js";

/** A join given up on, in a rejection or `joinState`'s answer (a rejection's `join`, accept.ts). */
export interface JoinRefusal {
  readonly agent: string;
  readonly state: "expired" | "failed";
  readonly policy: string;
  readonly acts: boolean;
  readonly missing: readonly string[];
  readonly ended: readonly string[];
  readonly deadline: string | null;
}

/** A join given up on, as a rejection (and `joinState`) reports it: the store's answer with its deadline as ISO 8601. */
export function joinRefusal(closed: JoinClosed, isoTime: (ms: number) => string): JoinRefusal {
  return {
    agent: closed.join,
    state: closed.state,
    policy: closed.policy,
    acts: closed.acts,
    missing: [...closed.missing],
    ended: [...closed.ended],
    deadline: closed.deadline === null ? null : isoTime(closed.deadline),
  };
}

/** The `join-expired` or `join-failed` reason at `pointer` for a join given up on; the store's ids are quoted. */
export function joinReason(pointer: string, taskId: string, closed: JoinClosed, isoTime: (ms: number) => string): Reason {
  const task = quoteUntrusted(taskId);
  const join = quoteUntrusted(closed.join);
  const terminal = closed.policy === "escalate" ? null : quoteUntrusted(closed.policy);
  if (closed.state === "expired") {
    return joinExpiredReason(pointer, task, join, closed.deadline === null ? "its deadline" : isoTime(closed.deadline), closed.missing.map((id) => quoteUntrusted(id)), terminal);
  }
  return joinFailedReason(pointer, task, join, closed.ended.map((id) => quoteUntrusted(id)), terminal);
}

