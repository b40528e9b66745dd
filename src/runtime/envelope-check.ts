/**
 * The content half of `accept()`: what one envelope says, judged against one graph, with no I/O.
 * Every check whose inputs are well-typed runs, whatever else is wrong, so a rejection lists
 * every reason at once:
 * 1. the JSON Schema of the edge's contract (every error);
 * 2. the envelope is JSON data (no inherited fields, finite numbers, no cycles, Unicode text);
 * 3. the semantic checks: major version, addressee, hop limit (the graph's, whatever the envelope
 *    claims), budget counters, blocking open questions;
 * 4. the graph's own: the edge exists, roles and agent versions match the graph, `hop.path` is a
 *    walk of the graph within `max_rounds`.
 * Required artefacts are listed for `canRead`, which the caller asks (synchronously or not).
 */
import { checkClaimedVersion, parseAgentVersion, type AgentVersion, type VersionMismatch } from "../core/agent-version.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { Route } from "./accept.js";
import type { AgentInfo, EdgeInfo, GraphInfo, Role } from "./graph-data.js";
import { envelopeSchema } from "../core/envelope-schema.js";
import { createDataCheck, jsonDataProblems } from "./json-data.js";
import { ordinal } from "./ordinal.js";
import { reason, schemaErrorToReason, type Reason, type SchemaError } from "./reason.js";

/** A compiled JSON Schema validator (an Ajv validate function, standalone or not). */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/** The graph as data and its compiled validators (what `AcceptSpec` adds to is this). */
export interface EnvelopeCheckSpec {
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
  /** The envelope schema alone: used when the envelope names no edge of the graph. */
  readonly validateEnvelope: ValidateFunction;
  /** One validator per distinct contract, indexed by {@link EdgeInfo.contract}. */
  readonly contracts: readonly ValidateFunction[];
  /**
   * The JSON-data check of a schema-valid envelope, as `seam compile` emits it (the same answers
   * as `createDataCheck(envelopeSchema)`, faster); default: the runtime's own.
   */
  readonly isJsonData?: (value: unknown) => boolean;
}

/** A required artefact to ask `canRead` about. */
export interface RequiredArtefact {
  /** Its index in `artefacts`. */
  readonly index: number;
  readonly ref: string;
  readonly scope: string | undefined;
}

/** What one envelope's content gives; the store's claim and the verdict are made from it. */
export interface ContentVerdict {
  readonly handoffId: string | undefined;
  readonly taskId: string | undefined;
  /** `hop.index` when it is a whole number within the schema's range. */
  readonly hopIndex: number | undefined;
  readonly producer: string | undefined;
  /** The graph's edge from `from_agent.id` to `to_agent.id` whose contract was applied. */
  readonly edge: EdgeInfo | undefined;
  /** `hop.path` when it is an array of strings: the ledger compares it with the recorded hops. */
  readonly path: readonly string[] | undefined;
  /** The reasons found; the caller appends artefact and store reasons. */
  readonly reasons: Reason[];
  /** Required artefacts with a well-formed `ref`, for `canRead`. */
  readonly required: readonly RequiredArtefact[];
  /** The reasons may become warnings: an observe edge, a usable header, addressed to me, no limit crossed. */
  readonly lenient: boolean;
  /** The task is at or past the hop limit: route by `on_hop_limit`. */
  readonly hopLimitReached: boolean;
  readonly consumed: readonly string[];
  readonly constraints: readonly string[];
  readonly route: Route;
}

/** Checks one envelope for the receiving agent `me`. Never throws. */
export type EnvelopeCheck = (input: unknown, me: string) => ContentVerdict;

/** The edges between one ordered pair of agents (usually one; a supervisor pair may have a delegate and a return). */
interface Pair {
  readonly edges: readonly EdgeInfo[];
  readonly validators: readonly ValidateFunction[];
  /** Sum of the edges' rounds; undefined when any of them is unbounded. */
  readonly maxRounds: number | undefined;
  /** Counter slot for bounded pairs, -1 otherwise. */
  readonly slot: number;
  /** The two agents, as `agents` holds them (undefined for an agent a hand-made spec lacks). */
  readonly fromAgent: Agent | undefined;
  readonly toAgent: Agent | undefined;
}

interface Agent {
  readonly role: Role;
  readonly version: AgentVersion | undefined;
  /** The last version an envelope claimed for the agent and its verdict: producers repeat one version, so it is parsed once. */
  lastClaimed: string | undefined;
  lastMismatch: VersionMismatch | undefined;
}

/** Where `status` sends an accepted task (compared, not looked up: this runs on every call). */
function routeOf(status: unknown): Route {
  switch (status) {
    case "blocked":
      return "human_input";
    case "waiting_review":
      return "approval";
    case "failed":
      return "failed";
    default:
      // ready, partial, or absent.
      return "proceed";
  }
}

/** The hot path's JSON data check, over the envelope schema's shape (the contracts add no field). */
const isEnvelopeData = createDataCheck(envelopeSchema);

const ROLES: ReadonlySet<unknown> = new Set(["supervisor", "worker", "peer"]);
const VERSION = /^(0|[1-9][0-9]*)\.[0-9]+\.[0-9]+$/;

/**
 * Reasons an `observe` edge never turns into warnings: limits, addressing, data that is not
 * JSON, and any fault in the header (below), which the record, the store and the next hop need.
 */
const STRICT_RULES: ReadonlySet<string> = new Set([
  "not-json-data",
  "unpaired-surrogate",
  "not-addressed-to-me",
  "hop-limit-reached",
  "budget-exhausted",
  "max-rounds-exceeded",
]);

/** The header: the fields every hop relies on, whatever the edge's contract. */
const HEADER = /^\/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:\/|$)/;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the fields of a value that is no object read from: it has none (and inherits none). */
const NO_FIELDS: Json = Object.freeze(Object.create(null) as Json);

/**
 * `value` when it is an object, else an object without fields, so that `fieldsOf(x).name` reads a
 * field of anything. Fields are read by literal names: each read site then sees one shape of
 * object and stays fast, where a read by a computed name would see them all. An inherited value
 * may be read here, but never counts: an envelope with an object that inherits enumerable
 * properties is refused as `not-json-data` (and the names read are envelope fields, none of
 * which `Object.prototype` or `Array.prototype` has).
 */
function fieldsOf(value: unknown): Json {
  return typeof value === "object" && value !== null ? (value as Json) : NO_FIELDS;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** A whole number, 0 or more, of any size: an index past 2^53 is still an index, and past every hop limit. */
function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * Builds the content check of one graph.
 *
 * @throws Error when an edge names a missing contract, TypeError when an agent declares a
 *   version that is not one (`seam check` refuses both; a hand-made spec may not)
 */
export function createEnvelopeCheck(spec: EnvelopeCheckSpec): EnvelopeCheck {
  const { graph } = spec;
  const isJsonData = spec.isJsonData ?? isEnvelopeData;
  const agents = new Map<string, Agent>();
  for (const agent of spec.agents) {
    const version = agent.version === undefined ? undefined : parseAgentVersion(agent.version);
    if (agent.version !== undefined && version === undefined) {
      throw new TypeError(`agent ${agent.id} declares version ${quoteUntrusted(agent.version)}, which is not MAJOR.MINOR.PATCH`);
    }
    agents.set(agent.id, { role: agent.role, version, lastClaimed: undefined, lastMismatch: undefined });
  }
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
        fromAgent: agents.get(from),
        toAgent: agents.get(to),
      });
    }
    pairs.set(from, built);
  }
  const entryList = graph.entries.join(", ");
  const onLimit = graph.onHopLimit === "escalate" ? "escalate to a human" : "fail the task";
  // Scratch space for round counting, reused by every call (the count never calls out, so no
  // call can start while another is using it).
  const counts = new Uint32Array(boundedPairs);
  let lastVersion: string | undefined;
  let lastMajor: number | undefined;

  /** `hop.path` against the graph; `handoff` is the pair `from -> to` of this handoff, which a well-formed path ends in. */
  function checkHopPath(path: readonly string[], index: number | undefined, from: string, to: string, handoff: Pair, reasons: Reason[]): void {
    const n = path.length;
    if (index !== undefined && n !== index + 1) {
      reasons.push(
        reason("/hop/path", "bad-hop-path", `has ${n} entries, but hop.index ${index} needs ${index + 1}: the first agent, then one per handoff`),
      );
    }
    if (n > 0 && !entries.has(path[0] as string)) {
      reasons.push(
        reason("/hop/path/0", "bad-hop-path", `starts at ${quoteUntrusted(path[0])}, which is not an entry of graph ${graph.name} (${entryList})`),
      );
    }
    if (n < 2 || path[n - 2] !== from || path[n - 1] !== to) {
      reasons.push(reason(`/hop/path/${Math.max(n - 1, 0)}`, "bad-hop-path", `does not end in this handoff, ${from} -> ${to}`));
    }
    // A loop, not fill(): the usual handful of slots costs less than the call.
    for (let slot = 0; slot < boundedPairs; slot++) counts[slot] = 0;
    for (let i = 1; i < n; i++) {
      const a = path[i - 1] as string;
      const b = path[i] as string;
      const pair = i === n - 1 && a === from && b === to ? handoff : pairs.get(a)?.get(b);
      if (pair === undefined) {
        reasons.push(
          reason(`/hop/path/${i}`, "bad-hop-path", `steps ${quoteUntrusted(a)} -> ${quoteUntrusted(b)}, which is not an edge of graph ${graph.name}`),
        );
      } else if (pair.maxRounds !== undefined) {
        const taken = (counts[pair.slot] as number) + 1;
        counts[pair.slot] = taken;
        if (taken === pair.maxRounds + 1) {
          reasons.push(
            reason(`/hop/path/${i}`, "max-rounds-exceeded", `takes ${a} -> ${b} for the ${ordinal(taken)} time, but max_rounds allows ${pair.maxRounds}`),
          );
        }
      }
    }
  }

  /**
   * The hop limit: the graph's is the authority (an envelope may claim a lower one, never a
   * higher). Both `hop.index` and the length of `hop.path` witness how far the task has come, so
   * a malformed index does not hide a long path.
   */
  function checkHopLimit(index: number | undefined, ownLimit: unknown, path: unknown, reasons: Reason[]): boolean {
    const own = wholeNumber(ownLimit);
    const limit = own !== undefined && own >= 1 && own < graph.hopLimit ? own : graph.hopLimit;
    if (index !== undefined && index >= limit) {
      reasons.push(reason("/hop/index", "hop-limit-reached", `hop ${index} is at or past ${whoseLimit(limit)}: ${onLimit}, do not forward`));
      return true;
    }
    if (Array.isArray(path) && path.length - 1 >= limit) {
      reasons.push(reason("/hop/path", "hop-limit-reached", `${path.length - 1} handoffs are at or past ${whoseLimit(limit)}: ${onLimit}, do not forward`));
      return true;
    }
    return false;
  }

  function whoseLimit(limit: number): string {
    return limit === graph.hopLimit ? `the limit of graph ${graph.name}, ${limit}` : `the envelope's own limit of ${limit}`;
  }

  /** The major version `envelope_version` names, if it is MAJOR.MINOR.PATCH; the last answer is kept (producers repeat one version). */
  function majorOf(version: string): number | undefined {
    if (version !== lastVersion) {
      lastMajor = VERSION.test(version) ? Number(version.slice(0, version.indexOf("."))) : undefined;
      lastVersion = version;
    }
    return lastMajor;
  }

  function checkCounter(counter: string, consumed: unknown, cap: unknown, reasons: Reason[]): void {
    const spent = wholeNumber(consumed);
    const most = wholeNumber(cap);
    if (spent !== undefined && most !== undefined && spent >= most) {
      reasons.push(reason(`/budget/consumed/${counter}`, "budget-exhausted", `${counter}: ${spent} consumed of a limit of ${most}`));
    }
  }

  /** The semantic checks (see the module comment); `hop` is the envelope's `hop`, read once. */
  function semanticChecks(envelope: Json, hop: Json, hopIndex: number | undefined, to: string | undefined, me: string, reasons: Reason[]): boolean {
    const version = envelope.envelope_version;
    const major = typeof version === "string" ? majorOf(version) : undefined;
    if (major !== undefined) {
      if (major !== graph.envelope.major) {
        reasons.push(
          reason("/envelope_version", "version-major", `major version ${major} is not supported: graph ${graph.name} speaks ${graph.envelope.major}.x`),
        );
      }
    }
    if (to !== undefined && to !== me) {
      reasons.push(reason("/to_agent/id", "not-addressed-to-me", `addressed to ${quoteUntrusted(to)}, not to ${quoteUntrusted(me)}`));
    }
    // An index past 2^53 is no safe hop number, but it is past every limit.
    const hopLimitReached = checkHopLimit(hopIndex ?? nonNegativeInteger(hop.index), hop.limit, hop.path, reasons);
    const budget = fieldsOf(envelope.budget);
    const consumed = fieldsOf(budget.consumed);
    const caps = fieldsOf(budget.limit);
    checkCounter("tokens", consumed.tokens, caps.tokens, reasons);
    checkCounter("wall_clock_ms", consumed.wall_clock_ms, caps.wall_clock_ms, reasons);
    checkCounter("tool_calls", consumed.tool_calls, caps.tool_calls, reasons);
    checkCounter("retries", consumed.retries, caps.retries, reasons);
    checkCounter("cost_micros", consumed.cost_micros, caps.cost_micros, reasons);
    const questions = envelope.open_questions;
    if (Array.isArray(questions)) {
      for (let i = 0; i < questions.length; i++) {
        const question = fieldsOf(questions[i]);
        if (question.blocking === true) {
          const text = question.question;
          reasons.push(
            reason(`/open_questions/${i}/blocking`, "blocking-question", `unresolved: ${typeof text === "string" ? quoteUntrusted(text) : "(no question text)"}`),
          );
        }
      }
    }
    return hopLimitReached;
  }

  /**
   * One pass over `artefacts`: the required ones to ask `canRead` about (only references that
   * passed the schema, absolute URIs) and the references handed over (all but `superseded`).
   */
  function readArtefacts(artefacts: unknown, schemaReasons: readonly Reason[], required: RequiredArtefact[], consumed: string[]): void {
    if (!Array.isArray(artefacts)) return;
    const faultyPaths = schemaReasons.length === 0 ? undefined : new Set(schemaReasons.map((r) => r.path));
    for (let i = 0; i < artefacts.length; i++) {
      const artefact = fieldsOf(artefacts[i]);
      const ref = stringOf(artefact.ref);
      const scope = artefact.read_scope;
      const role = artefact.role;
      if (ref === undefined) continue;
      if (role !== "superseded") consumed.push(ref);
      if (role !== "required" || (scope !== undefined && typeof scope !== "string")) continue;
      if (faultyPaths?.has(`/artefacts/${i}/ref`) === true) continue;
      required.push({ index: i, ref, scope: scope as string | undefined });
    }
  }

  function checkAgent(side: "from_agent" | "to_agent", id: string, agent: Agent | undefined, ref: Json, reasons: Reason[]): void {
    if (agent === undefined) return;
    const role = ref.role;
    if (role !== agent.role && ROLES.has(role)) {
      reasons.push(reason(`/${side}/role`, "role-mismatch", `${id} is a ${agent.role} in graph ${graph.name}, not a ${String(role)}`));
    }
    const claimed = ref.version;
    if (agent.version !== undefined && typeof claimed === "string") {
      if (claimed !== agent.lastClaimed) {
        agent.lastMismatch = checkClaimedVersion(agent.version, claimed);
        agent.lastClaimed = claimed;
      }
      const mismatch = agent.lastMismatch;
      if (mismatch !== undefined) {
        reasons.push(reason(`/${side}/version`, "agent-version", `${id} version ${quoteUntrusted(claimed)} ${mismatch.message}`));
      }
    }
  }

  /** The graph's checks; `fromRef` and `toRef` are the envelope's `from_agent` and `to_agent`, `path` its `hop.path` if all strings. */
  function graphChecks(
    fromRef: Json,
    toRef: Json,
    from: string,
    to: string,
    pair: Pair | undefined,
    index: number | undefined,
    path: readonly string[] | undefined,
    reasons: Reason[],
  ): void {
    if (pair === undefined) {
      if (!agents.has(from)) {
        reasons.push(reason("/from_agent/id", "unknown-edge", `graph ${graph.name} has no agent ${quoteUntrusted(from)}`));
      } else if (!agents.has(to)) {
        reasons.push(reason("/to_agent/id", "unknown-edge", `graph ${graph.name} has no agent ${quoteUntrusted(to)}`));
      } else {
        reasons.push(reason("/to_agent/id", "unknown-edge", `graph ${graph.name} has no edge ${from} -> ${to}`));
      }
    }
    // A pair holds its agents: no lookup on the way of a known edge.
    checkAgent("from_agent", from, pair === undefined ? agents.get(from) : pair.fromAgent, fromRef, reasons);
    checkAgent("to_agent", to, pair === undefined ? agents.get(to) : pair.toAgent, toRef, reasons);
    if (pair !== undefined && path !== undefined) checkHopPath(path, index, from, to, pair, reasons);
  }

  function schemaCheck(input: unknown, pair: Pair | undefined): { edge: EdgeInfo | undefined; reasons: Reason[] } {
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
    if (errors) {
      // A contract restates the types it needs beside the envelope's $ref: report each fault once.
      // A set keeps this linear: an envelope can carry 10^5 faulty items in one array.
      const reported = new Set<string>();
      for (const error of errors) {
        const found = schemaErrorToReason(error);
        const key = `${found.rule}\u0000${found.path}`;
        if (reported.has(key)) continue;
        reported.add(key);
        reasons.push(found);
      }
    }
    return { edge, reasons };
  }

  function evaluate(input: unknown, me: string): ContentVerdict {
    const envelope = isRecord(input) ? input : undefined;
    // Each field is read once, here, and handed to the checks that need it.
    const fields = fieldsOf(envelope);
    const fromRef = fieldsOf(fields.from_agent);
    const toRef = fieldsOf(fields.to_agent);
    const from = stringOf(fromRef.id);
    const to = stringOf(toRef.id);
    const pair = from !== undefined && to !== undefined ? pairs.get(from)?.get(to) : undefined;
    const schema = schemaCheck(input, pair);
    const schemaReasons = schema.reasons;
    // A schema-valid envelope types every value, so only its objects and free text need a look
    // (the hot path); anything else gets the full walk, which names every place that is not JSON data.
    const reasons = schemaReasons.length === 0 && isJsonData(input) ? [] : jsonDataProblems(input);
    for (const found of schemaReasons) reasons.push(found);
    const hop = fieldsOf(fields.hop);
    const hopIndex = wholeNumber(hop.index);
    const hopPath = hop.path;
    const path = isStringArray(hopPath) ? hopPath : undefined;
    let hopLimitReached = false;
    const required: RequiredArtefact[] = [];
    const consumed: string[] = [];
    if (envelope !== undefined) {
      hopLimitReached = semanticChecks(envelope, hop, hopIndex, to, me, reasons);
      readArtefacts(envelope.artefacts, schemaReasons, required, consumed);
      if (from !== undefined && to !== undefined) graphChecks(fromRef, toRef, from, to, pair, hopIndex, path, reasons);
    }
    const handoffId = stringOf(fields.handoff_id);
    const taskId = stringOf(fields.task_id);
    const edge = schema.edge;
    const lenient =
      edge !== undefined &&
      edge.observe &&
      handoffId !== undefined &&
      taskId !== undefined &&
      hopIndex !== undefined &&
      to === me &&
      !reasons.some((r) => STRICT_RULES.has(r.rule) || HEADER.test(r.path));
    let constraints: readonly string[] = [];
    let route: Route = "proceed";
    if (envelope !== undefined && (reasons.length === 0 || lenient)) {
      const list = envelope.constraints;
      // Schema-valid, the list holds strings only; on an observe edge it may not.
      if (Array.isArray(list)) constraints = reasons.length === 0 ? (list as string[]) : list.filter((c): c is string => typeof c === "string");
      route = routeOf(envelope.status);
    }
    return { handoffId, taskId, hopIndex, producer: from, edge, path, reasons, required, lenient, hopLimitReached, consumed, constraints, route };
  }

  return function check(input: unknown, me: string): ContentVerdict {
    try {
      return evaluate(input, me);
    } catch (error) {
      // A getter or a proxy trap threw while the envelope was read: it is not plain JSON data.
      const why = error instanceof Error ? error.message : String(error);
      return {
        handoffId: undefined,
        taskId: undefined,
        hopIndex: undefined,
        producer: undefined,
        edge: undefined,
        path: undefined,
        reasons: [reason("", "unreadable-envelope", `reading the envelope threw: ${quoteUntrusted(why)}`)],
        required: [],
        lenient: false,
        hopLimitReached: false,
        consumed: [],
        constraints: [],
        route: "proceed",
      };
    }
  };
}
