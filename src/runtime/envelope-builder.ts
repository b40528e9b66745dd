/**
 * Builders for the envelopes a producer sends, so that the correct envelope is the easy one to
 * write: the header (ids, hop index, limit and path, roles and declared versions, the envelope
 * version, the provenance time) comes from the graph and the envelope received, never from hand.
 */
import { randomUUID } from "node:crypto";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type {
  AgentRef,
  Approval,
  Artefact,
  Budget,
  BudgetCounters,
  Decision,
  Envelope,
  EnvelopeStatus,
  Goal,
  OpenQuestion,
  ProvenanceEntry,
} from "./envelope.js";
import type { AgentInfo, EdgeInfo, GraphInfo } from "./graph-data.js";
import { addCounts } from "./budget-counts.js";
import { readClock } from "./clock.js";
import { BUDGET_COUNTERS, type BudgetCounter } from "./checks/budget-exhausted.js";
import { createFanOutMap } from "./fan-out-map.js";
import { fieldOf, isJsonObject } from "./json-object.js";

/** The content of a handoff: what the producer decides; everything else is filled in. */
export interface HandoffContent<Me extends string = string, To extends string = string> {
  /** The sending agent. For {@link EnvelopeBuilder.next}, the receiver of the envelope handed on. */
  readonly me: Me;
  /** The receiving agent: the graph must have an edge `me -> to`. */
  readonly to: To;
  /** What this agent did, for the provenance entry it appends. */
  readonly action: string;
  /** The provenance entry's status (default `asserted`). */
  readonly provenanceStatus?: ProvenanceEntry["status"];
  /** A note for the provenance entry. */
  readonly note?: string;
  readonly decisions?: readonly Decision[];
  readonly artefacts?: readonly Artefact[];
  readonly constraints?: readonly string[];
  readonly open_questions?: readonly OpenQuestion[];
  readonly status?: EnvelopeStatus;
  readonly allowed_next_step?: string;
  readonly safe_resume?: string;
  readonly blocked_on?: string;
  /** The approval an approval gate gave (envelope 1.4): every handoff leaving a gate carries one. */
  readonly approval?: Approval;
  /** The clock for the provenance time, in ms since the Unix epoch (default `Date.now`). */
  readonly now?: () => number;
  /** The new `handoff_id` (default: a random UUID, RFC 9562 version 4). */
  readonly handoffId?: string;
}

/**
 * The options of {@link HandoffContent}, for the unknown-option check: `satisfies` makes the
 * compiler hold this list to the interface (a key missing or extra is a type error).
 */
const CONTENT_OPTIONS: ReadonlySet<string> = new Set(
  Object.keys({
    me: true, to: true, action: true, provenanceStatus: true, note: true, decisions: true, artefacts: true,
    constraints: true, open_questions: true, status: true, allowed_next_step: true, safe_resume: true,
    blocked_on: true, approval: true, now: true, handoffId: true,
  } satisfies Record<keyof HandoffContent, true>),
);

/**
 * The options whose type the builders check, in the order they are checked, each with the kind of
 * value it takes and, for the message, what it holds. A caller without types may pass anything:
 * an envelope built from it would only be refused by its receiver, far from the mistake. The
 * Python builders check the same options with the same words.
 */
const TYPED_OPTIONS = {
  me: { kind: "string", holds: "this agent's id" },
  to: { kind: "string", holds: "the receiving agent's id" },
  action: { kind: "string", holds: "what this agent did" },
  provenanceStatus: { kind: "string", holds: "verified, asserted or unverified" },
  note: { kind: "string", holds: "a note for the provenance entry" },
  status: { kind: "string", holds: "the envelope's status" },
  handoffId: { kind: "string", holds: "the new handoff's id" },
  taskId: { kind: "string", holds: "the task's id" },
  goal: { kind: "object", holds: "{ statement, acceptance_criteria }" },
  budget: { kind: "object", holds: "{ limit, consumed }" },
  parent: { kind: "object", holds: "the envelope received before the fan-out" },
  now: { kind: "function", holds: "the time in milliseconds since the Unix epoch" },
} as const;

type TypedOption = keyof typeof TYPED_OPTIONS;

/** A new task: the content plus what only the first handoff states. */
export interface FirstHandoff<Me extends string = string, To extends string = string> extends HandoffContent<Me, To> {
  readonly taskId: string;
  readonly goal: Goal;
  readonly budget: Budget;
}

/** A handoff of a task received: goal and budget default to the received ones, and carried fields (decisions, artefacts, constraints, open questions) too. */
export interface NextHandoff<Me extends string = string, To extends string = string> extends HandoffContent<Me, To> {
  readonly goal?: Goal;
  readonly budget?: Budget;
}

/**
 * The handoff a join agent makes once its join fired: the content, from the arrivals. `budget`
 * defaults to the parent's limits with the spend of `parent` plus every arrival's (the ledger
 * adds the branches' spend back to the task); a join that fired before every branch arrived
 * (`any`, k of n) passes the spend the firing arrival's record gives (`record.join.consumed`),
 * which counts the other branches' too. `goal` defaults to the parent's, else the first arrival's.
 */
export interface JoinHandoff<Me extends string = string, To extends string = string> extends HandoffContent<Me, To> {
  /** The envelope the fanning-out supervisor received before the fan-out; absent when the fan-out started the task. */
  readonly parent?: Envelope;
  readonly goal?: Goal;
  readonly budget?: Budget;
}

/** The builders of one graph. Each returns a new envelope that shares no object with its inputs (a deep copy). */
export interface EnvelopeBuilder {
  /**
   * The first envelope of a new task, from an entry agent: hop 1, path `[me, to]`.
   *
   * @throws TypeError when an option is unknown or mistyped (`me`, `to`, `action` or `taskId` not a
   *   string, `goal` or `budget` not an object, `provenanceStatus`, `note`, `status` or `handoffId`
   *   given but not a string, `now` given but not a function), `handoff` is not an object, `me`
   *   is not an entry, the graph has no edge `me -> to`, or `now()` returns no number or seconds
   *   (as `accept()`'s clock); RangeError when the graph allows no handoff or `now()` returns a
   *   time outside `Date`'s range
   */
  first(handoff: FirstHandoff): Envelope;
  /**
   * The envelope that hands a received task on: the same `task_id`, a fresh `handoff_id`,
   * `hop.index + 1`, the graph's `hop.limit`, the path extended by `to`, `hop.branch` (over a
   * `fan_out` edge the edge's branch, each branch one call; inside a branch the received one), roles and declared
   * versions from the graph, the received provenance plus this agent's entry (a provenance that
   *   is not a list, which an `observe` edge accepts as a warning, restarts with this entry).
   *
   * @throws TypeError when an option is unknown or mistyped (`me`, `to` or `action` not a string,
   *   `goal` or `budget` given but not an object, `provenanceStatus`, `note`, `status` or
   *   `handoffId` given but not a string, `now` given but not a function), `received` is not an
   *   object, was not addressed to `me`, has no `hop.path` and whole-number `hop.index` or a
   *   `hop.branch` that is no string, the graph has no edge `me -> to`, or
   *   `received` reached the join `me` (hand on with `join`), and for `handoff` and `now()` as
   *   `first`; RangeError when the task is at its hop limit (escalate or fail it, as the graph's
   *   `on_hop_limit` says, instead of handing it on) and for `now()` as `first`
   */
  next(received: Envelope, handoff: NextHandoff): Envelope;
  /**
   * The envelope a join agent hands the task on with once its join fired: the next hop after the
   * longest arrival (the first of equals, in the order given), along that arrival's path, out of
   * every branch; decisions, artefacts, constraints and open questions of every arrival (each
   * once, by id, ref or text), their provenance, then this agent's entry.
   *
   * @param arrivals - the envelopes that reached the join, in the order they were accepted
   * @throws TypeError when an option is unknown or mistyped (`me`, `to` or `action` not a string,
   *   `parent`, `goal` or `budget` given but not an object, `provenanceStatus`, `note`, `status`
   *   or `handoffId` given but not a string, `now` given but not a function), `arrivals` is not a
   *   list of objects, no arrival is given, one is not addressed to `me`, carries no `hop.branch`,
   *   `hop.path`, whole-number `hop.index` or budget, has a budget count that is no whole number
   *   from 0 to 2^53 - 1, two come from one branch, one is of another
   *   task, or the graph has no edge `me -> to`, and for `handoff` and `now()` as `first`;
   *   RangeError at the hop limit (as `next`) and for `now()` as `first`
   */
  join(arrivals: readonly Envelope[], handoff: JoinHandoff): Envelope;
}

/** What {@link createEnvelopeBuilder} needs: the graph as data (a compiled module's exports). */
export interface EnvelopeBuilderSpec {
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
}

/**
 * Creates the envelope builders of one graph.
 *
 * @param spec - the graph as data
 */
export function createEnvelopeBuilder(spec: EnvelopeBuilderSpec): EnvelopeBuilder {
  const { graph } = spec;
  const agents = new Map(spec.agents.map((agent) => [agent.id, agent]));
  const edges = new Set(spec.edges.map((edge) => `${edge.from}\u0000${edge.to}`));
  const entries = new Set(graph.entries);
  const envelopeVersion = `${graph.envelope.major}.${graph.envelope.minor}.0`;
  // hop.branch exists from envelope 1.4 on.
  const fanOuts = createFanOutMap(spec.agents, graph.envelope.major === 1 && graph.envelope.minor >= 4 ? spec.edges : []);
  const branchEdges = new Map([...fanOuts.ofEdge].map(([edge, branch]) => [`${edge.from}\u0000${edge.to}`, branch.id]));

  /** The `hop` of a handoff `me -> to` at `index` along `path`, in branch `inside` (the received one) unless the edge opens its own. */
  function hopOf(me: string, to: string, index: number, path: readonly string[], inside: string | undefined): Envelope["hop"] {
    const branch = branchEdges.get(`${me}\u0000${to}`) ?? inside;
    return branch === undefined ? { index, limit: graph.hopLimit, path: [...path, to] } : { index, limit: graph.hopLimit, path: [...path, to], branch };
  }

  /** Whether `received` reached its fan-out's join at `me`: the task goes on from there with `join`. */
  function arrivedAt(received: Envelope, me: string): boolean {
    const branch = received.hop.branch === undefined ? undefined : fanOuts.byId.get(received.hop.branch);
    return branch?.join?.agent === me && fanOuts.inputs.get(me)?.has(received.from_agent.id) === true;
  }

  function ref(id: string): AgentRef {
    const agent = agents.get(id);
    if (agent === undefined) throw new TypeError(`graph ${graph.name} has no agent ${quoteUntrusted(id)}`);
    return agent.version === undefined ? { id, role: agent.role } : { id, role: agent.role, version: agent.version };
  }

  /**
   * A misspelt or unknown option would be dropped silently (and, say, a gated handoff built
   * without its `approval`): it is a caller's mistake, a TypeError, as Python's builders raise.
   */
  function checkOptions(handoff: object, call: string, extra: readonly string[]): void {
    const given: unknown = handoff; // checked as any value: a caller without types may pass anything
    if (!isJsonObject(given)) throw new TypeError(`${call}: the handoff must be an object of options such as { me, to, action }, not ${kindOf(given)}`);
    for (const key of Object.keys(handoff)) {
      if (!CONTENT_OPTIONS.has(key) && !extra.includes(key)) {
        throw new TypeError(`${call}: unknown option ${quoteUntrusted(key)}; the options are ${[...CONTENT_OPTIONS, ...extra].sort().join(", ")}`);
      }
    }
  }

  /**
   * Each typed option of `handoff` of the right kind: those `required`, and the others when given
   * (not undefined). Run before anything that would fail on a mistyped one less clearly.
   */
  function checkTypes(handoff: object, call: string, required: readonly TypedOption[]): void {
    for (const name of Object.keys(TYPED_OPTIONS) as TypedOption[]) {
      const { kind, holds } = TYPED_OPTIONS[name];
      const value: unknown = (handoff as Record<string, unknown>)[name];
      if (value === undefined && !required.includes(name)) continue;
      if (kind === "string" ? typeof value === "string" : kind === "function" ? typeof value === "function" : isJsonObject(value)) continue;
      const expected = kind === "string" ? "a string" : kind === "function" ? "a function" : "an object of JSON data";
      throw new TypeError(`${call}: ${name} must be ${expected} (${holds}), not ${kindOf(value)}`);
    }
  }

  function checkEdge(me: string, to: string): void {
    ref(me);
    ref(to);
    if (!edges.has(`${me}\u0000${to}`)) throw new TypeError(`graph ${graph.name} has no edge ${me} -> ${to}`);
  }

  function checkLimit(index: number): void {
    if (index >= graph.hopLimit) {
      throw new RangeError(
        `hop ${index} would reach the hop limit of graph ${graph.name}, ${graph.hopLimit}: ${graph.onHopLimit === "escalate" ? "escalate the task to a human" : "fail the task"} instead of handing it on`,
      );
    }
  }

  function provenanceEntry(handoff: HandoffContent, call: string): ProvenanceEntry {
    const at = new Date(readClock(handoff.now, call, "now")).toISOString();
    const entry: ProvenanceEntry = { agent: handoff.me, action: handoff.action, at, status: handoff.provenanceStatus ?? "asserted" };
    return handoff.note === undefined ? entry : { ...entry, note: handoff.note };
  }

  /** The optional fields, in schema order, each present only when given. */
  function carried(handoff: HandoffContent, received: Envelope | undefined): Partial<Envelope> {
    const pick = <K extends keyof HandoffContent & keyof Envelope>(key: K): Partial<Envelope> => {
      const value = handoff[key] ?? (received?.[key] as HandoffContent[K] | undefined);
      return value === undefined ? {} : { [key]: value };
    };
    return {
      ...pick("decisions"),
      ...pick("artefacts"),
      ...pick("constraints"),
      ...pick("open_questions"),
    };
  }

  function completion(handoff: HandoffContent): Partial<Envelope> {
    const out: { -readonly [K in keyof Envelope]?: Envelope[K] } = {};
    if (handoff.status !== undefined) out.status = handoff.status;
    if (handoff.allowed_next_step !== undefined) out.allowed_next_step = handoff.allowed_next_step;
    if (handoff.safe_resume !== undefined) out.safe_resume = handoff.safe_resume;
    if (handoff.blocked_on !== undefined) out.blocked_on = handoff.blocked_on;
    if (handoff.approval !== undefined) out.approval = handoff.approval;
    return out;
  }

  return {
    first(handoff) {
      checkOptions(handoff, "firstEnvelope", ["taskId", "goal", "budget"]);
      checkTypes(handoff, "firstEnvelope", ["me", "to", "action", "taskId", "goal", "budget"]);
      if (!entries.has(handoff.me)) throw new TypeError(`${quoteUntrusted(handoff.me)} is not an entry of graph ${graph.name}: a task starts at ${graph.entries.join(", ")}`);
      checkEdge(handoff.me, handoff.to);
      if (graph.hopLimit < 1) throw new RangeError(`graph ${graph.name} allows no handoff`);
      const { decisions, artefacts, constraints, open_questions } = carried(handoff, undefined);
      // A copy: editing the new envelope (bumping its budget) never edits the caller's values.
      return structuredClone({
        envelope_version: envelopeVersion,
        handoff_id: handoff.handoffId ?? randomUUID(),
        task_id: handoff.taskId,
        hop: hopOf(handoff.me, handoff.to, 1, [handoff.me], undefined),
        from_agent: ref(handoff.me),
        to_agent: ref(handoff.to),
        goal: handoff.goal,
        ...(decisions === undefined ? {} : { decisions }),
        ...(artefacts === undefined ? {} : { artefacts }),
        ...(constraints === undefined ? {} : { constraints }),
        budget: handoff.budget,
        ...(open_questions === undefined ? {} : { open_questions }),
        provenance: [provenanceEntry(handoff, "firstEnvelope")],
        ...completion(handoff),
      });
    },
    next(received, handoff) {
      checkOptions(handoff, "nextEnvelope", ["goal", "budget"]);
      checkTypes(handoff, "nextEnvelope", ["me", "to", "action"]);
      if (!isJsonObject(received)) throw new TypeError("nextEnvelope(received, handoff): received must be an envelope (the object accept() took)");
      const addressed = fieldOf(received.to_agent, "id");
      if (addressed !== handoff.me) {
        throw new TypeError(`the envelope received was addressed to ${quoteUntrusted(addressed ?? null)}, not to ${quoteUntrusted(handoff.me)}`);
      }
      // Read as accept() reads them: an array path and a whole-number index, never coerced ("1" is not 1).
      const path = fieldOf(received.hop, "path");
      const receivedIndex = fieldOf(received.hop, "index");
      if (!Array.isArray(path) || !Number.isSafeInteger(receivedIndex)) throw new TypeError("the envelope received has no hop.path and hop.index to extend");
      const inside = fieldOf(received.hop, "branch");
      if (inside !== undefined && typeof inside !== "string") throw new TypeError(`the envelope received has a hop.branch that is ${kindOf(inside)}, not a branch id (accept() refuses it)`);
      checkEdge(handoff.me, handoff.to);
      if (arrivedAt(received, handoff.me)) {
        throw new TypeError(`the envelope received reached the join of ${handoff.me} in branch ${received.hop.branch}: hand the task on with joinEnvelope(arrivals, handoff) once the join fired`);
      }
      const index = (receivedIndex as number) + 1;
      checkLimit(index);
      const { decisions, artefacts, constraints, open_questions } = carried(handoff, received);
      // A copy: editing the new envelope never edits the envelope received, nor the caller's values.
      return structuredClone({
        envelope_version: envelopeVersion,
        handoff_id: handoff.handoffId ?? randomUUID(),
        task_id: received.task_id,
        hop: hopOf(handoff.me, handoff.to, index, path as string[], received.hop.branch),
        from_agent: ref(handoff.me),
        to_agent: ref(handoff.to),
        goal: handoff.goal ?? received.goal,
        ...(decisions === undefined ? {} : { decisions }),
        ...(artefacts === undefined ? {} : { artefacts }),
        ...(constraints === undefined ? {} : { constraints }),
        budget: handoff.budget ?? received.budget,
        ...(open_questions === undefined ? {} : { open_questions }),
        // On an observe edge a malformed provenance may have been accepted (as a warning): it restarts here.
        provenance: [...(Array.isArray(received.provenance) ? received.provenance : []), provenanceEntry(handoff, "nextEnvelope")],
        ...completion(handoff),
      });
    },
    join(arrivals, handoff) {
      checkOptions(handoff, "joinEnvelope", ["parent", "goal", "budget"]);
      checkTypes(handoff, "joinEnvelope", ["me", "to", "action"]);
      const given: unknown = arrivals; // checked as any value: a caller without types may pass anything
      if (!Array.isArray(given) || !given.every((arrival) => isJsonObject(arrival))) {
        throw new TypeError("joinEnvelope(arrivals, handoff): arrivals must be a list of envelopes (the objects accept() took)");
      }
      const first = arrivals[0];
      if (first === undefined) throw new TypeError("joinEnvelope(arrivals, handoff): no arrival given; a join hands on what reached it");
      let longest = first;
      const branches = new Set<string>();
      for (const arrival of arrivals) {
        const addressed = fieldOf(arrival.to_agent, "id");
        if (addressed !== handoff.me) throw new TypeError(`an arrival was addressed to ${quoteUntrusted(addressed ?? null)}, not to ${quoteUntrusted(handoff.me)}`);
        if (arrival.task_id !== first.task_id) throw new TypeError(`the arrivals belong to tasks ${quoteUntrusted(first.task_id)} and ${quoteUntrusted(arrival.task_id)}: a join hands on one task`);
        const hop = arrival.hop as unknown;
        const budget = arrival.budget as unknown;
        const branch = fieldOf(hop, "branch");
        if (typeof branch !== "string" || !Array.isArray(fieldOf(hop, "path")) || !Number.isSafeInteger(fieldOf(hop, "index")) || !isJsonObject(fieldOf(budget, "limit")) || !isJsonObject(fieldOf(budget, "consumed"))) {
          throw new TypeError("an arrival has no hop.branch, hop.path, whole-number hop.index or budget: a join takes the envelopes its branches sent it");
        }
        if (!wholeCounts(fieldOf(budget, "limit")) || !wholeCounts(fieldOf(budget, "consumed"))) {
          throw new TypeError("an arrival's budget counts must be whole numbers from 0 to 2^53 - 1, as accept() requires: a join adds them up");
        }
        if (branches.has(branch)) throw new TypeError(`two arrivals come from branch ${quoteUntrusted(branch)}: a join takes each branch's arrival once`);
        branches.add(branch);
        if (arrival.hop.index > longest.hop.index) longest = arrival;
      }
      checkEdge(handoff.me, handoff.to);
      const index = longest.hop.index + 1;
      checkLimit(index);
      const decisions = handoff.decisions ?? unionBy(arrivals.flatMap((a) => a.decisions ?? []), (d) => d.id);
      const artefacts = handoff.artefacts ?? unionBy(arrivals.flatMap((a) => a.artefacts ?? []), (a) => a.ref);
      const constraints = handoff.constraints ?? unionBy(arrivals.flatMap((a) => a.constraints ?? []), (c) => c);
      const questions = handoff.open_questions ?? unionBy(arrivals.flatMap((a) => a.open_questions ?? []), (q) => q.question);
      const provenance = unionBy(arrivals.flatMap((a) => (Array.isArray(a.provenance) ? a.provenance : [])), (p) => JSON.stringify(p));
      return structuredClone({
        envelope_version: envelopeVersion,
        handoff_id: handoff.handoffId ?? randomUUID(),
        task_id: first.task_id,
        hop: hopOf(handoff.me, handoff.to, index, longest.hop.path as readonly string[], undefined),
        from_agent: ref(handoff.me),
        to_agent: ref(handoff.to),
        goal: handoff.goal ?? handoff.parent?.goal ?? first.goal,
        ...(decisions.length === 0 ? {} : { decisions }),
        ...(artefacts.length === 0 ? {} : { artefacts }),
        ...(constraints.length === 0 ? {} : { constraints }),
        budget: handoff.budget ?? joinedBudget(handoff.parent?.budget, arrivals),
        ...(questions.length === 0 ? {} : { open_questions: questions }),
        provenance: [...provenance, provenanceEntry(handoff, "joinEnvelope")],
        ...completion(handoff),
      });
    },
  };
}

/**
 * What kind of value `value` is, for a message: `undefined`, `null`, `an array`, `a number`...
 * Never the value itself, which may be anything the caller was sent.
 */
function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** True when every value of `counts` (a budget's limit or consumed object) is a whole number from 0 to 2^53 - 1. */
function wholeCounts(counts: unknown): boolean {
  return Object.values(counts as object).every((count) => Number.isSafeInteger(count) && (count as number) >= 0);
}

/** `items` without repeats by `key`, the first of each kept, in order. */
function unionBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/**
 * The parent's limits, and its spend plus every arrival's, counter by counter (what the ledger
 * records at the join). Without a parent (a fan-out at the entry), each limit is the sum of every
 * arrival's, for the counters they all limit: at most what the ledger holds, which adds up every
 * branch the fan-out opened. Sums stop at 2^53 - 1, as the ledger's do ({@link addCounts}).
 */
function joinedBudget(parent: Budget | undefined, arrivals: readonly Envelope[]): Budget {
  const consumed: Record<string, number> = { ...(parent?.consumed ?? {}) };
  for (const arrival of arrivals) {
    for (const [counter, spent] of Object.entries(arrival.budget.consumed)) {
      if (typeof spent === "number") consumed[counter] = addCounts(consumed[counter] ?? 0, spent);
    }
  }
  return { limit: parent === undefined ? arrivalLimits(arrivals) : { ...parent.limit }, consumed };
}

/** Each counter's limit summed over the arrivals, for the counters every arrival limits with a number. */
function arrivalLimits(arrivals: readonly Envelope[]): BudgetCounters {
  const limit: { [counter in BudgetCounter]?: number } = {};
  for (const counter of BUDGET_COUNTERS) {
    const held = arrivals.map((arrival) => arrival.budget.limit[counter]);
    if (held.every((value) => typeof value === "number")) limit[counter] = held.reduce<number>((sum, value) => addCounts(sum, value ?? 0), 0);
  }
  return limit;
}
