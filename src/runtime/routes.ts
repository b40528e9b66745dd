/**
 * Where a handoff goes after ingest, stated once as data: the types of `accept()`'s verdicts are
 * derived from these lists, and `seam report` checks an event's `route` against them.
 */
import { HOP_LIMIT_ACTIONS } from "../core/vocabulary.js";

/** Every route of an acceptance record, in the order docs/handoff-events.md lists them. */
export const ROUTES = ["proceed", "human_input", "approval", "failed", "held"] as const;

/**
 * Where an accepted task goes next, from the envelope's `status`; `held` for an arrival at a join
 * that still waits for other branches (recorded: act on the branches' results once an arrival's
 * record says the join fired).
 */
export type Route = (typeof ROUTES)[number];

/** Every route of a rejection, in the order docs/handoff-events.md lists them. */
export const REJECTION_ROUTES = ["repair", ...HOP_LIMIT_ACTIONS, "discard", "retry"] as const;

/**
 * Where a refused envelope goes: back to the producer for `repair`; `escalate` when the
 * producer's repairs in the task's round are used up (`attempt` past the edge's `repairs`,
 * default 1), when the task has ended, when a decision is below the edge's confidence floor and
 * no other route of the sender takes the envelope (`confidence-below-floor`), or when a store is
 * given but the envelope has no string `task_id` (its refusals cannot be counted, reason
 * `untracked-task`); `escalate` or `failed`
 * (the graph's `on_hop_limit`) when the task is at the graph's hop limit, whatever else is wrong;
 * `discard` for a duplicate, and for a handoff in a branch its join no longer takes
 * (`branch-late`: the task went on without it); `retry` for a handoff this receiver holds under
 * a live lease, not yet committed (`lease-held`): deliver it again later, do not process it now.
 */
export type RejectionRoute = (typeof REJECTION_ROUTES)[number];
