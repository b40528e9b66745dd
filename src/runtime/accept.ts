/**
 * `accept()`: the check every agent service runs at ingest (DESIGN.md section 4; seed
 * `000_1aee4e1ce8cdfd24.txt`, "validate at ingest, collect every error, reject rather than
 * repair"; seed `004_f0d22a9f213fd5f4.txt` for the acceptance record and the routes).
 *
 * Order: the JSON Schema (the envelope plus the edge's contract when the edge is known, every
 * error collected); then, only on a schema-valid envelope (the structure is known-good), the
 * semantic checks of seed 000 and the graph's own checks; then the duplicate and ownership
 * memory. Nothing is coerced: `"1"` is not `1`.
 */
import type { AgentInfo, EdgeInfo, GraphInfo, HopLimitAction, Role } from "./graph-data.js";
import { ordinal } from "./ordinal.js";
import { schemaErrorToReason, type Reason, type SchemaError } from "./reason.js";
import type { SeenStore } from "./seen-store.js";

/** A compiled JSON Schema validator (an Ajv validate function, standalone or not). */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/** What {@link createAccept} needs: the graph as data and its compiled validators. */
export interface AcceptSpec {
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
  /** The envelope schema alone: used when the envelope names no edge of the graph. */
  readonly validateEnvelope: ValidateFunction;
  /** One validator per distinct contract, indexed by {@link EdgeInfo.contract}. */
  readonly contracts: readonly ValidateFunction[];
}

/** Options of one `accept()` call. */
export interface AcceptOptions {
  /** The receiving agent's id. */
  readonly me: string;
  /**
   * Whether this agent can dereference an artefact (seed 000's permission trap). Called for each
   * artefact whose role is `required`, with its `ref` and `read_scope`. A throw counts as "no".
   * Absent: artefacts are not checked.
   */
  readonly canRead?: (ref: string, scope: string | undefined) => boolean;
  /** Duplicate and ownership memory; absent: neither is checked. */
  readonly seen?: SeenStore;
  /** The clock for `accepted_at`, in ms since the Unix epoch (default `Date.now`); a time `Date` cannot represent makes `accept` throw a `RangeError`. */
  readonly now?: () => number;
}

/** Where an accepted task goes next (seed 004's queues), from the envelope's `status`. */
export type Route = "proceed" | "human_input" | "approval" | "failed";

/**
 * Where a refused envelope goes: back to the producer for one bounded `repair`; `escalate` or
 * `failed` (the graph's `on_hop_limit`) when the hop limit is reached; `discard` for a duplicate.
 */
export type RejectionRoute = "repair" | HopLimitAction | "discard";

/** The acceptance record of seed 004: a chain of custody for what the receiver took on. */
export interface AcceptanceRecord {
  readonly handoff_id: string;
  readonly task_id: string;
  readonly hop_index: number;
  /** `from_agent.id`. */
  readonly producer: string;
  /** The receiving agent (`me`). */
  readonly receiver: string;
  /** ISO 8601 time of acceptance (UTC). */
  readonly accepted_at: string;
  /** `ref` of every artefact handed over that is not `superseded`, in envelope order. */
  readonly artefacts_consumed: readonly string[];
  /** From `status`: ready/partial/absent -> proceed, blocked -> human_input, waiting_review -> approval, failed -> failed. */
  readonly route: Route;
  /** The envelope's `constraints`, carried forward. */
  readonly constraints: readonly string[];
  /** On an `observe` edge, what would have been refused; otherwise empty. */
  readonly warnings: readonly Reason[];
}

/** A structured rejection (seed 000): which handoff, at which hop, from whom, and why. */
export interface Rejection {
  /** `null` when the envelope has no string `handoff_id`. */
  readonly handoff_id: string | null;
  /** `null` when the envelope has no integer `hop.index`. */
  readonly hop_index: number | null;
  /** `from_agent.id`; `null` when absent. */
  readonly producer: string | null;
  readonly route: RejectionRoute;
  /** Every violated rule, schema errors first, in a fixed order. */
  readonly reasons: readonly Reason[];
}

/** The verdict of `accept()`. `duplicate` is true only for a repeated `handoff_id`. */
export type AcceptResult =
  | { readonly ok: true; readonly duplicate: false; readonly record: AcceptanceRecord }
  | { readonly ok: false; readonly duplicate: boolean; readonly rejection: Rejection };

/** The ingest check of one graph; see {@link createAccept}. Never throws on bad input. */
export type Accept = (envelope: unknown, options: AcceptOptions) => AcceptResult;

/** The edges between one ordered pair of agents (usually one; a supervisor pair may have a delegate and a return). */
interface Pair {
  readonly edges: readonly EdgeInfo[];
  readonly validators: readonly ValidateFunction[];
  /** Sum of the edges' rounds; undefined when any of them is unbounded. */
  readonly maxRounds: number | undefined;
  /** Counter slot for bounded pairs, -1 otherwise. */
  readonly slot: number;
}

/** What one evaluation found; store checks and the verdict are made from it. */
interface Evaluation {
  readonly handoffId: string | undefined;
  readonly taskId: string | undefined;
  readonly hopIndex: number | undefined;
  readonly producer: string | undefined;
  readonly reasons: Reason[];
  /** The reasons may become warnings (an observe edge, usable header, addressed to me). */
  readonly lenient: boolean;
  readonly hopLimitReached: boolean;
  /** For the record; read only when the envelope may be accepted. */
  readonly consumed: readonly string[];
  readonly constraints: readonly string[];
  readonly route: Route;
}

const STATUS_ROUTES: ReadonlyMap<unknown, Route> = new Map<unknown, Route>([
  ["ready", "proceed"],
  ["partial", "proceed"],
  ["blocked", "human_input"],
  ["waiting_review", "approval"],
  ["failed", "failed"],
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringAt(object: unknown, key: string): string | undefined {
  if (!isRecord(object)) return undefined;
  const value = object[key];
  return typeof value === "string" ? value : undefined;
}

function reason(path: string, rule: string, message: string): Reason {
  return { path, rule, message };
}

/**
 * Builds the `accept()` function of one graph. Lookups (agents, edges, bounded pairs) are
 * computed once here, so a call allocates little beyond its result.
 *
 * `accept(envelope, options)` never throws on bad input (null, arrays, strings, cyclic objects,
 * getters that throw): reading an envelope that throws gives a rejection with rule
 * `unreadable-envelope`. It does throw what `options.seen` throws (an unavailable store is not
 * bad input, and the caller may retry).
 *
 * On an `observe` edge the reasons are returned as `record.warnings` with `ok: true`, except when
 * the envelope is misaddressed, a duplicate, or lacks a usable `handoff_id`, `task_id` or
 * `hop.index` (the record and the memory need them). Several edges between the same two agents
 * (a supervisor's delegate and return) are tried in order; the first whose contract passes wins.
 *
 * @param spec - the graph data and its compiled validators
 */
export function createAccept(spec: AcceptSpec): Accept {
  const { graph } = spec;
  const roles = new Map<string, Role>();
  for (const agent of spec.agents) roles.set(agent.id, agent.role);
  const entries = new Set(graph.entries);
  const pairs = new Map<string, Map<string, Pair>>();
  const grouped = new Map<string, Map<string, EdgeInfo[]>>();
  for (const edge of spec.edges) {
    let targets = grouped.get(edge.from);
    if (targets === undefined) grouped.set(edge.from, (targets = new Map()));
    const list = targets.get(edge.to);
    if (list === undefined) targets.set(edge.to, [edge]);
    else list.push(edge);
  }
  let boundedPairs = 0;
  for (const [from, targets] of grouped) {
    const built = new Map<string, Pair>();
    for (const [to, edges] of targets) {
      const bounded = edges.every((edge) => edge.maxRounds !== undefined);
      const validators = edges.map((edge) => {
        const validate = spec.contracts[edge.contract];
        if (validate === undefined) throw new Error(`internal: edge ${from} -> ${to} names missing contract ${edge.contract}`);
        return validate;
      });
      built.set(to, {
        edges,
        validators,
        maxRounds: bounded ? edges.reduce((sum, edge) => sum + (edge.maxRounds ?? 0), 0) : undefined,
        slot: bounded ? boundedPairs++ : -1,
      });
    }
    pairs.set(from, built);
  }
  const entryList = graph.entries.join(", ");
  // Scratch space for round counting, reused by every call (the count never calls out, so no
  // call can start while another is using it).
  const counts = new Uint32Array(boundedPairs);
  // accepted_at: formatting a Date costs more than the rest of a call, and at high rates many
  // calls fall in the same millisecond.
  let lastMs = Number.NaN;
  let lastIso = "";
  function isoTime(ms: number): string {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  }

  function checkHopPath(path: readonly string[], index: number, from: string, to: string, reasons: Reason[]): void {
    const n = path.length;
    if (n !== index + 1) {
      reasons.push(
        reason(
          "/hop/path",
          "bad-hop-path",
          `has ${n} entries, but hop.index ${index} needs ${index + 1}: the first agent, then one per handoff`,
        ),
      );
    }
    if (n > 0 && !entries.has(path[0] as string)) {
      reasons.push(
        reason("/hop/path/0", "bad-hop-path", `starts at ${path[0]}, which is not an entry of graph ${graph.name} (${entryList})`),
      );
    }
    if (n < 2 || path[n - 2] !== from || path[n - 1] !== to) {
      reasons.push(reason(`/hop/path/${Math.max(n - 1, 0)}`, "bad-hop-path", `does not end in this handoff, ${from} -> ${to}`));
    }
    if (boundedPairs > 0) counts.fill(0);
    for (let i = 1; i < n; i++) {
      const a = path[i - 1] as string;
      const b = path[i] as string;
      const pair = pairs.get(a)?.get(b);
      if (pair === undefined) {
        reasons.push(reason(`/hop/path/${i}`, "bad-hop-path", `steps ${a} -> ${b}, which is not an edge of graph ${graph.name}`));
      } else if (pair.maxRounds !== undefined) {
        const taken = (counts[pair.slot] as number) + 1;
        counts[pair.slot] = taken;
        if (taken === pair.maxRounds + 1) {
          reasons.push(
            reason(
              `/hop/path/${i}`,
              "max-rounds-exceeded",
              `takes ${a} -> ${b} for the ${ordinal(taken)} time, but max_rounds allows ${pair.maxRounds}`,
            ),
          );
        }
      }
    }
  }

  function semanticChecks(envelope: Record<string, unknown>, me: string, options: AcceptOptions, reasons: Reason[]): boolean {
    // The schema passed: every field read below has the type the schema gives it.
    const version = envelope["envelope_version"] as string;
    const major = Number(version.slice(0, version.indexOf(".")));
    if (major !== graph.envelope.major) {
      reasons.push(
        reason(
          "/envelope_version",
          "version-major",
          `major version ${major} is not supported: graph ${graph.name} speaks ${graph.envelope.major}.x`,
        ),
      );
    }
    const toAgent = envelope["to_agent"] as Record<string, unknown>;
    if (toAgent["id"] !== me) {
      reasons.push(reason("/to_agent/id", "not-addressed-to-me", `addressed to ${String(toAgent["id"])}, not to ${me}`));
    }
    const hop = envelope["hop"] as Record<string, unknown>;
    const index = hop["index"] as number;
    const limit = hop["limit"] as number;
    const hopLimitReached = index >= limit;
    if (hopLimitReached) {
      reasons.push(
        reason(
          "/hop/index",
          "hop-limit-reached",
          `hop ${index} of a limit of ${limit}: ${graph.onHopLimit === "escalate" ? "escalate to a human" : "fail the task"}, do not forward`,
        ),
      );
    }
    const budget = envelope["budget"] as Record<string, Record<string, number>>;
    const consumed = budget["consumed"] as Record<string, number>;
    const caps = budget["limit"] as Record<string, number>;
    for (const counter in consumed) {
      const cap = caps[counter];
      const spent = consumed[counter] as number;
      if (cap !== undefined && spent >= cap) {
        reasons.push(reason(`/budget/consumed/${counter}`, "budget-exhausted", `${counter}: ${spent} consumed of a limit of ${cap}`));
      }
    }
    const canRead = options.canRead;
    const artefacts = envelope["artefacts"] as readonly Record<string, unknown>[] | undefined;
    if (canRead !== undefined && artefacts !== undefined) {
      for (let i = 0; i < artefacts.length; i++) {
        const artefact = artefacts[i] as Record<string, unknown>;
        if (artefact["role"] !== "required") continue;
        const ref = artefact["ref"] as string;
        let readable: boolean;
        let why = "";
        try {
          readable = canRead(ref, artefact["read_scope"] as string | undefined) === true;
        } catch (error) {
          readable = false;
          why = `: ${error instanceof Error ? error.message : String(error)}`;
        }
        if (!readable) {
          reasons.push(reason(`/artefacts/${i}/ref`, "artefact-unreadable", `${me} cannot read required artefact ${ref}${why}`));
        }
      }
    }
    const questions = envelope["open_questions"] as readonly Record<string, unknown>[] | undefined;
    if (questions !== undefined) {
      for (let i = 0; i < questions.length; i++) {
        const question = questions[i] as Record<string, unknown>;
        if (question["blocking"] === true) {
          reasons.push(reason(`/open_questions/${i}/blocking`, "blocking-question", `unresolved: ${String(question["question"])}`));
        }
      }
    }
    return hopLimitReached;
  }

  function graphChecks(envelope: Record<string, unknown>, from: string, to: string, pair: Pair | undefined, reasons: Reason[]): void {
    if (pair === undefined) {
      if (!roles.has(from)) {
        reasons.push(reason("/from_agent/id", "unknown-edge", `graph ${graph.name} has no agent ${from}`));
      } else if (!roles.has(to)) {
        reasons.push(reason("/to_agent/id", "unknown-edge", `graph ${graph.name} has no agent ${to}`));
      } else {
        reasons.push(reason("/to_agent/id", "unknown-edge", `graph ${graph.name} has no edge ${from} -> ${to}`));
      }
      return;
    }
    const fromRole = (envelope["from_agent"] as Record<string, unknown>)["role"];
    const toRole = (envelope["to_agent"] as Record<string, unknown>)["role"];
    if (fromRole !== roles.get(from)) {
      reasons.push(reason("/from_agent/role", "role-mismatch", `${from} is a ${roles.get(from)} in graph ${graph.name}, not a ${String(fromRole)}`));
    }
    if (toRole !== roles.get(to)) {
      reasons.push(reason("/to_agent/role", "role-mismatch", `${to} is a ${roles.get(to)} in graph ${graph.name}, not a ${String(toRole)}`));
    }
    const hop = envelope["hop"] as Record<string, unknown>;
    // The contract schema requires hop.path, so it is here whenever the schema passed.
    checkHopPath(hop["path"] as readonly string[], hop["index"] as number, from, to, reasons);
  }

  function evaluate(input: unknown, me: string, options: AcceptOptions): Evaluation {
    const envelope = isRecord(input) ? input : undefined;
    const from = stringAt(envelope?.["from_agent"], "id");
    const to = stringAt(envelope?.["to_agent"], "id");
    const pair = from !== undefined && to !== undefined ? pairs.get(from)?.get(to) : undefined;
    let edge: EdgeInfo | undefined;
    let errors: readonly SchemaError[] | null | undefined;
    if (pair === undefined) {
      if (!spec.validateEnvelope(input)) errors = spec.validateEnvelope.errors;
    } else {
      for (let i = 0; i < pair.validators.length; i++) {
        const validate = pair.validators[i] as ValidateFunction;
        if (validate(input)) {
          edge = pair.edges[i];
          errors = undefined;
          break;
        }
        // The first edge's errors are the ones reported when no contract passes.
        if (i === 0) errors = validate.errors;
      }
      edge ??= pair.edges[0];
    }
    const reasons: Reason[] = [];
    let hopLimitReached = false;
    if (errors) {
      for (const error of errors) {
        const found = schemaErrorToReason(error);
        // A contract restates the types it needs beside the envelope's $ref: report each fault once.
        if (!reasons.some((r) => r.path === found.path && r.rule === found.rule)) reasons.push(found);
      }
    } else if (envelope !== undefined) {
      hopLimitReached = semanticChecks(envelope, me, options, reasons);
      graphChecks(envelope, from as string, to as string, pair, reasons);
    }
    const handoffId = stringAt(envelope, "handoff_id");
    const taskId = stringAt(envelope, "task_id");
    const rawIndex = isRecord(envelope?.["hop"]) ? (envelope["hop"] as Record<string, unknown>)["index"] : undefined;
    const hopIndex = typeof rawIndex === "number" && Number.isInteger(rawIndex) && rawIndex >= 0 ? rawIndex : undefined;
    const lenient =
      edge !== undefined &&
      edge.observe &&
      handoffId !== undefined &&
      taskId !== undefined &&
      hopIndex !== undefined &&
      to === me;
    const consumed: string[] = [];
    let constraints: readonly string[] = [];
    let route: Route = "proceed";
    if (envelope !== undefined && (reasons.length === 0 || lenient)) {
      const artefacts = envelope["artefacts"];
      if (Array.isArray(artefacts)) {
        for (const artefact of artefacts) {
          const ref = stringAt(artefact, "ref");
          if (ref !== undefined && (artefact as Record<string, unknown>)["role"] !== "superseded") consumed.push(ref);
        }
      }
      const list = envelope["constraints"];
      if (Array.isArray(list)) constraints = list.filter((c): c is string => typeof c === "string");
      route = STATUS_ROUTES.get(envelope["status"]) ?? "proceed";
    }
    return { handoffId, taskId, hopIndex, producer: from, reasons, lenient, hopLimitReached, consumed, constraints, route };
  }

  function reject(evaluation: Evaluation, reasons: readonly Reason[], duplicate: boolean): AcceptResult {
    return {
      ok: false,
      duplicate,
      rejection: {
        handoff_id: evaluation.handoffId ?? null,
        hop_index: evaluation.hopIndex ?? null,
        producer: evaluation.producer ?? null,
        route: duplicate ? "discard" : evaluation.hopLimitReached ? graph.onHopLimit : "repair",
        reasons,
      },
    };
  }

  function duplicateOf(evaluation: Evaluation): AcceptResult {
    return reject(
      evaluation,
      [reason("/handoff_id", "duplicate", `handoff ${evaluation.handoffId} was accepted before; it is not processed twice`)],
      true,
    );
  }

  function ownerConflict(taskId: string, hopIndex: number, owner: string): Reason {
    return reason("/to_agent/id", "owner-conflict", `${owner} already owns hop ${hopIndex} of task ${taskId}: one owner at a time`);
  }

  return function accept(input: unknown, options: AcceptOptions): AcceptResult {
    const me = options?.me;
    let evaluation: Evaluation;
    try {
      evaluation = evaluate(input, me, options);
    } catch (error) {
      return {
        ok: false,
        duplicate: false,
        rejection: {
          handoff_id: null,
          hop_index: null,
          producer: null,
          route: "repair",
          reasons: [
            reason("", "unreadable-envelope", `reading the envelope threw: ${error instanceof Error ? error.message : String(error)}`),
          ],
        },
      };
    }
    const { handoffId, taskId, hopIndex, reasons } = evaluation;
    const seen = options?.seen;
    if (seen !== undefined && handoffId !== undefined && seen.hasHandoff(handoffId)) return duplicateOf(evaluation);
    if (seen !== undefined && taskId !== undefined && hopIndex !== undefined) {
      const owner = seen.ownerOf(taskId, hopIndex);
      if (owner !== undefined && owner !== me) reasons.push(ownerConflict(taskId, hopIndex, owner));
    }
    if (reasons.length > 0 && !evaluation.lenient) return reject(evaluation, reasons, false);
    // Accepted (or observed): the header is usable here, the schema or `lenient` saw to that.
    const id = handoffId as string;
    const task = taskId as string;
    const index = hopIndex as number;
    if (seen !== undefined) {
      const outcome = seen.record(id, task, index, me);
      if (outcome === "duplicate") return duplicateOf(evaluation);
      if (outcome === "owner-conflict" && !evaluation.lenient) {
        return reject(evaluation, [ownerConflict(task, index, seen.ownerOf(task, index) ?? "another agent")], false);
      }
    }
    return {
      ok: true,
      duplicate: false,
      record: {
        handoff_id: id,
        task_id: task,
        hop_index: index,
        producer: evaluation.producer as string,
        receiver: me,
        accepted_at: isoTime((options.now ?? Date.now)()),
        artefacts_consumed: evaluation.consumed,
        route: evaluation.route,
        constraints: evaluation.constraints,
        warnings: reasons,
      },
    };
  };
}
