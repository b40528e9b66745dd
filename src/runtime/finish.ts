/**
 * `finish()` and `finishAsync()`: the call a service makes when one of its agents takes a
 * terminal action, so that the task stays finished: after it, the store refuses every handoff of
 * the task (`task-finished`). The terminal is checked against the graph (the agent declares it,
 * with that outcome); a mistake there is the calling service's bug, a `TypeError`. Only the
 * task's owner ends it; a task never handed on, only an entry agent (graph-wide store).
 */
import { readClock } from "./clock.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { AgentInfo, GraphInfo, Outcome } from "./graph-data.js";
import type { AsyncSeenStore, FinishRequest, FinishResult, SeenStore, TaskEnd } from "./seen-store.js";
import { branchOpenReason } from "./checks/branch-open.js";
import { joinRefusal, type JoinRefusal } from "./join-refusal.js";

/** Options of one `finish()` call. Unknown keys are a `TypeError`. */
export interface FinishOptions {
  /** The agent taking the terminal action: an agent of the graph. */
  readonly me: string;
  /** The terminal's id, one the graph declares on `me`. */
  readonly terminal: string;
  /** The terminal's outcome as the graph declares it (`complete`, `escalate`, `fail`): a second statement of intent, checked. */
  readonly outcome: Outcome;
  /** The store `accept()` claims on; it must have a `finish` method. */
  readonly seen: SeenStore;
  /** The clock, in ms since the Unix epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** Options of one `finishAsync()` call: as {@link FinishOptions}, with an asynchronous store allowed. */
export interface FinishAsyncOptions extends Omit<FinishOptions, "seen"> {
  readonly seen: AsyncSeenStore;
}

/** The record of a task's end: who ended it, how, and when. */
export interface EndRecord {
  readonly task_id: string;
  readonly agent: string;
  readonly terminal: string;
  readonly outcome: string;
  /** ISO 8601 time (UTC). */
  readonly ended_at: string;
  /** The task's last accepted hop when it ended; `null` when the store had none. For a branch's end, the branch's last hop. */
  readonly hop_index: number | null;
  /** A branch's end (`me` owned a branch of the task's fan-out): the branch; the task goes on. Absent for the task's end. */
  readonly branch?: string;
  /**
   * This end found the task's join given up on and acted on its policy (the join agent's policy
   * terminal, or a branch's end that left the join too few branches); absent otherwise.
   */
  readonly join?: JoinRefusal;
}

/**
 * The verdict of `finish()`: `ok` with the end record, or refused (nothing written) because
 * another agent owns the task (`not-owner`: `owner` accepted its last hop; `null` when no hop
 * was accepted and `me` is no entry agent) or it had ended before (`task-finished`, with that
 * end's record), or a join still waits for branches of a fan-out (`branch-open`, naming them in
 * `missing`).
 */
export type FinishVerdict =
  | { readonly ok: true; readonly record: EndRecord }
  | { readonly ok: false; readonly rule: "not-owner"; readonly message: string; readonly owner: string | null }
  | { readonly ok: false; readonly rule: "task-finished"; readonly message: string; readonly record: EndRecord }
  | { readonly ok: false; readonly rule: "branch-open"; readonly message: string; readonly missing: readonly string[] };

/** Records that `options.me` ended `taskId` at a terminal; see {@link createFinish}. */
export type Finish = (taskId: string, options: FinishOptions) => FinishVerdict;
/** {@link Finish} over an asynchronous store. */
export type FinishAsync = (taskId: string, options: FinishAsyncOptions) => Promise<FinishVerdict>;

const OPTION_KEYS = new Set(["me", "terminal", "outcome", "seen", "now"]);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Builds `finish()` and `finishAsync()` for one graph.
 *
 * Both throw a `TypeError` for a misuse, its message starting `finish(taskId, options): ` (or
 * `finishAsync(...)`): a `taskId` that is not a non-empty string, no options, an unknown option,
 * a missing `me`, `terminal` or `outcome`, a `me` the graph lacks, a terminal `me` does not
 * declare, an outcome other than the terminal's, a store without `finish` (or, for `finish`, one
 * answering with a promise, or any store answering an unknown outcome); a `RangeError` for a
 * clock outside `Date`'s range; and what the store throws.
 *
 * @param spec - the graph's settings and agents
 * @param isoTime - formats ms since the Unix epoch as ISO 8601 (shared with `accept()`)
 */
export function createFinish(
  spec: { readonly graph: GraphInfo; readonly agents: readonly AgentInfo[] },
  isoTime: (ms: number) => string,
): { finish: Finish; finishAsync: FinishAsync } {
  const agents = new Map(spec.agents.map((agent) => [agent.id, agent]));
  const entries = new Set(spec.graph.entries);
  const entryList = spec.graph.entries.join(", ");

  function request(call: string, taskId: unknown, options: unknown): FinishRequest {
    const misuse = (problem: string): TypeError => new TypeError(`${call}(taskId, options): ${problem}`);
    if (typeof taskId !== "string" || taskId === "") throw misuse("taskId must be the task_id of the task that ends, a non-empty string");
    if (typeof options !== "object" || options === null) throw misuse("options must be an object such as { me, terminal, outcome, seen }");
    for (const key in options) {
      if (!OPTION_KEYS.has(key)) throw misuse(`unknown option ${quoteUntrusted(key)}; the options are me, terminal, outcome, seen and now`);
    }
    const { me, terminal, outcome, seen, now } = options as Record<string, unknown>;
    if (me === undefined) throw misuse("options.me is missing: name the agent taking the terminal action");
    const agent = typeof me === "string" ? agents.get(me) : undefined;
    if (agent === undefined) throw misuse(`options.me ${quoteUntrusted(me)} is no agent of graph ${spec.graph.name}`);
    const known = agent.terminals.map((t) => t.id).join(", ");
    if (terminal === undefined) {
      throw misuse(`options.terminal is missing: ${known === "" ? `agent ${agent.id} declares no terminal, so it cannot end a task` : `agent ${agent.id} declares ${known}`}`);
    }
    const declared = agent.terminals.find((t) => t.id === terminal);
    if (declared === undefined) {
      throw misuse(
        `agent ${agent.id} declares no terminal ${quoteUntrusted(terminal)}${known === "" ? "; it declares none, so it cannot end a task" : `; its terminals are ${known}`}`,
      );
    }
    if (outcome === undefined) throw misuse(`options.outcome is missing: terminal ${declared.id} of ${agent.id} has the outcome ${declared.outcome}`);
    if (outcome !== declared.outcome) {
      throw misuse(`terminal ${declared.id} of ${agent.id} has the outcome ${declared.outcome}, not ${quoteUntrusted(outcome)}`);
    }
    if (typeof seen !== "object" || seen === null || typeof (seen as { finish?: unknown }).finish !== "function") {
      throw misuse("options.seen must be the store accept() claims on, with a finish(request) method, such as createMemorySeenStore()");
    }
    const at = readClock(now, `${call}(taskId, options)`, "options.now");
    return { taskId, agent: agent.id, terminal: declared.id, outcome: declared.outcome, at, entry: entries.has(agent.id) };
  }

  function record(taskId: string, ended: TaskEnd): EndRecord {
    return { task_id: taskId, agent: ended.agent, terminal: ended.terminal, outcome: ended.outcome, ended_at: isoTime(ended.at), hop_index: ended.hopIndex };
  }

  function verdict(call: string, req: FinishRequest, result: FinishResult): FinishVerdict {
    const task = quoteUntrusted(req.taskId);
    switch (result.outcome) {
      case "finished":
        return { ok: true, record: { ...record(req.taskId, result.ended), ...(result.join === undefined ? {} : { join: joinRefusal(result.join, isoTime) }) } };
      case "branch-finished":
        return {
          ok: true,
          record: { ...record(req.taskId, result.ended), branch: result.branch, ...(result.join === undefined ? {} : { join: joinRefusal(result.join, isoTime) }) },
        };
      case "not-owner": {
        const why =
          result.owner === null
            ? `no hop of it was accepted, so it is still with the entry agent that took it in: only an entry agent (${entryList}) may end it`
            : `${quoteUntrusted(result.owner)} accepted its last hop (${result.lastHop}), so only it may end the task`;
        return { ok: false, rule: "not-owner", owner: result.owner, message: `${quoteUntrusted(req.agent)} does not own task ${task}: ${why}` };
      }
      case "already-finished": {
        const ended = record(req.taskId, result.ended);
        return {
          ok: false,
          rule: "task-finished",
          record: ended,
          message: `task ${task} ended before, at ${ended.ended_at}: ${quoteUntrusted(ended.agent)} took terminal ${quoteUntrusted(ended.terminal)} (${ended.outcome})`,
        };
      }
      case "branch-open": {
        const missing = result.missing.map((id) => quoteUntrusted(id));
        return { ok: false, rule: "branch-open", missing: [...result.missing], message: branchOpenReason(task, quoteUntrusted(result.join), missing).message };
      }
      default:
        throw new TypeError(`${call}(taskId, options): options.seen.finish returned an unknown outcome ${quoteUntrusted((result as { outcome?: unknown }).outcome)}`);
    }
  }

  function finish(taskId: string, options: FinishOptions): FinishVerdict {
    const req = request("finish", taskId, options);
    const answer: unknown = (options.seen.finish as NonNullable<SeenStore["finish"]>)(req);
    if (isThenable(answer)) throw new TypeError("finish(taskId, options): options.seen.finish returned a promise: use finishAsync with an asynchronous store");
    return verdict("finish", req, answer as FinishResult);
  }

  async function finishAsync(taskId: string, options: FinishAsyncOptions): Promise<FinishVerdict> {
    const req = request("finishAsync", taskId, options);
    return verdict("finishAsync", req, await (options.seen.finish as NonNullable<AsyncSeenStore["finish"]>)(req));
  }

  return { finish, finishAsync };
}
