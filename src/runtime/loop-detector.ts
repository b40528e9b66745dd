/**
 * A small loop detector over loop signatures: per task, the
 * signatures each receiving agent has seen. An agent that receives a state it already received
 * for the same task is going round a loop, even while the hop counter stays under its limit.
 */
import type { LoopSignature } from "./loop-signature.js";

/** What {@link LoopDetector.observe} found. */
export interface LoopObservation {
  readonly taskId: string;
  /** The receiving agent (`to_agent.id`). */
  readonly agent: string;
  readonly signature: string;
  /** The agent had already received this signature for this task. */
  readonly loop: boolean;
}

/** Remembers loop signatures per task and receiving agent, in memory. */
export interface LoopDetector {
  /**
   * Records the envelope's signature for its `task_id` and `to_agent.id`. Returns `undefined`
   * (and records nothing) when either is not a string.
   *
   * @throws what the loop signature throws for values RFC 8785 cannot encode
   */
  observe(envelope: unknown): LoopObservation | undefined;
  /** Drops what is remembered for a finished task. */
  forget(taskId: string): void;
}

/**
 * Creates a {@link LoopDetector} using `signature` (a graph's `loopSignature`).
 *
 * @param signature - the loop signature function
 */
export function createLoopDetector(signature: LoopSignature): LoopDetector {
  const tasks = new Map<string, Map<string, Set<string>>>();
  return {
    observe(envelope) {
      if (typeof envelope !== "object" || envelope === null) return undefined;
      const record = envelope as Record<string, unknown>;
      const taskId = record["task_id"];
      const to = record["to_agent"];
      const agent = typeof to === "object" && to !== null ? (to as Record<string, unknown>)["id"] : undefined;
      if (typeof taskId !== "string" || typeof agent !== "string") return undefined;
      const value = signature(envelope);
      let agents = tasks.get(taskId);
      if (agents === undefined) tasks.set(taskId, (agents = new Map()));
      let seen = agents.get(agent);
      if (seen === undefined) agents.set(agent, (seen = new Set()));
      const loop = seen.has(value);
      seen.add(value);
      return { taskId, agent, signature: value, loop };
    },
    forget(taskId) {
      tasks.delete(taskId);
    },
  };
}
