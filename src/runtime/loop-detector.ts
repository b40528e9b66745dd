/**
 * A small loop detector over loop signatures: per task, the
 * signatures each receiving agent has seen (per fan-out branch, where `hop.branch` names one). An agent that receives a state it already received
 * for the same task is going round a loop, even while the hop counter stays under its limit.
 */
import type { LoopSignature } from "./loop-signature.js";
import { LOOP_MAX_SIGNATURES_PER_TASK, LOOP_MAX_TASKS } from "./reason-catalogue.js";

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

/** Options of {@link createLoopDetector}. */
export interface LoopDetectorOptions {
  /**
   * How many tasks are remembered (default 10,000): past it, the task observed least recently is
   * forgotten, so memory is bounded however many tasks arrive (a forgotten task's loops go unseen).
   */
  readonly maxTasks?: number;
  /** How many signatures one task keeps (default 1,024: more than any hop limit allows); past it, new ones are checked, not kept. */
  readonly maxSignaturesPerTask?: number;
}

/** The default of {@link LoopDetectorOptions.maxTasks} (10,000; from the runtime catalogue, shared with Python). */
export const DEFAULT_LOOP_TASKS: number = LOOP_MAX_TASKS;

/** The default of {@link LoopDetectorOptions.maxSignaturesPerTask} (1,024; from the runtime catalogue, shared with Python). */
export const DEFAULT_LOOP_SIGNATURES: number = LOOP_MAX_SIGNATURES_PER_TASK;

interface TaskMemory {
  readonly agents: Map<string, Set<string>>;
  kept: number;
}

/**
 * Creates a {@link LoopDetector} using `signature` (a graph's `loopSignature`).
 *
 * @param signature - the loop signature function
 * @param options - the bounds of its memory
 * @throws TypeError when a bound is not a positive whole number
 */
export function createLoopDetector(signature: LoopSignature, options: LoopDetectorOptions = {}): LoopDetector {
  const maxTasks = bound("maxTasks", options.maxTasks ?? DEFAULT_LOOP_TASKS);
  const maxSignatures = bound("maxSignaturesPerTask", options.maxSignaturesPerTask ?? DEFAULT_LOOP_SIGNATURES);
  // In the order last observed (a Map keeps insertion order: a task observed again moves to the end).
  const tasks = new Map<string, TaskMemory>();
  return {
    observe(envelope) {
      if (typeof envelope !== "object" || envelope === null) return undefined;
      const record = envelope as Record<string, unknown>;
      const taskId = record["task_id"];
      const to = record["to_agent"];
      const agent = typeof to === "object" && to !== null ? (to as Record<string, unknown>)["id"] : undefined;
      if (typeof taskId !== "string" || typeof agent !== "string") return undefined;
      // Branches of one task are apart (envelope 1.4's hop.branch): two branches reaching the same
      // agent in the same state run side by side, they do not go round a loop.
      const hop = record["hop"];
      const branch = typeof hop === "object" && hop !== null ? (hop as Record<string, unknown>)["branch"] : undefined;
      const place = typeof branch === "string" ? `${agent}\u0000${branch}` : agent;
      const value = signature(envelope);
      let task = tasks.get(taskId);
      if (task === undefined) {
        task = { agents: new Map(), kept: 0 };
        if (tasks.size >= maxTasks) tasks.delete(tasks.keys().next().value as string);
      } else tasks.delete(taskId);
      tasks.set(taskId, task);
      let seen = task.agents.get(place);
      if (seen === undefined) task.agents.set(place, (seen = new Set()));
      const loop = seen.has(value);
      if (!loop && task.kept < maxSignatures) {
        seen.add(value);
        task.kept++;
      }
      return { taskId, agent, signature: value, loop };
    },
    forget(taskId) {
      tasks.delete(taskId);
    },
  };
}

function bound(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createLoopDetector: options.${name} must be a positive whole number, not ${String(value)}`);
  return value;
}
