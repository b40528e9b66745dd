/**
 * The content half of `accept()`: what one envelope says, judged against one graph, with no I/O.
 * Every check whose inputs are well-typed runs, whatever else is wrong, so a rejection lists
 * every reason at once:
 * 1. the JSON Schema of the edge's contract (every error);
 * 2. the envelope is JSON data (no inherited fields, finite numbers, no cycles, Unicode text);
 * 3. the envelope's semantics: the authenticated sender, bounded ids, major version, addressee,
 *    hop limit (the graph's, whatever the envelope claims), budget counters, blocking questions;
 * 4. the graph's own: the edge exists, roles and agent versions match the graph, `hop.path` is a
 *    walk of the graph within `max_rounds`; the edge's guard is met and no earlier route takes
 *    the envelope, its confidence floor holds, and nothing waiting for review leaves a gate;
 *    `hop.branch` names the branch of a fan-out edge (envelope 1.4 and later: older envelopes
 *    have no `hop.branch`, so their fan-outs are not enforced).
 * Each check is a module of `checks/`, named after its rule id; this file is the pipeline.
 * Required artefacts are listed for `canRead`, which the caller asks (synchronously or not).
 */
import { parseAgentVersion } from "../core/agent-version.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { Route } from "./accept.js";
import type { AgentInfo, EdgeInfo, GraphInfo, Role } from "./graph-data.js";
import { envelopeSchema } from "../core/envelope-schema.js";
import { createDataCheck, jsonDataProblems } from "./json-data.js";
import type { Reason, SchemaError } from "./reason.js";
import { isHeaderPath, schemaReasons, type SchemaReasons } from "./schema-reasons.js";
import { checkAgentVersion, type VersionMemo } from "./checks/agent-version.js";
import { checkGateStatus } from "./checks/approval-pending.js";
import { checkFloor } from "./checks/confidence-below-floor.js";
import { checkGuard } from "./checks/guard-unmet.js";
import { describeEdge } from "./guard-route.js";
import { checkHopPath, type PathGraph } from "./checks/bad-hop-path.js";
import { checkBlockingQuestions } from "./checks/blocking-question.js";
import { checkBranch, type BranchGraph } from "./checks/branch-mismatch.js";
import { checkCounterReported } from "./checks/budget-counter-missing.js";
import { checkCounter, wholeCount } from "./checks/budget-exhausted.js";
import { createHopLimitCheck } from "./checks/hop-limit-reached.js";
import { checkIdLengths } from "./checks/id-too-long.js";
import { checkAddressee } from "./checks/not-addressed-to-me.js";
import { checkRole } from "./checks/role-mismatch.js";
import { checkSender } from "./checks/sender-mismatch.js";
import { reportUnknownEdge } from "./checks/unknown-edge.js";
import { unreadableReason } from "./checks/unreadable-envelope.js";
import { createVersionCheck } from "./checks/version-major.js";
import { createFanOutMap, type FanOutMap } from "./fan-out-map.js";
import type { ClaimApproval, ClaimBranch, ClaimBudget } from "./seen-store.js";
import { isJsonObject } from "./json-object.js";

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
  /**
   * `hop.path` when it is an array of strings, at most its first `hopLimit + 1` entries (no more
   * can be a walk within the limit): the ledger compares it with the recorded hops.
   */
  readonly path: readonly string[] | undefined;
  /** The whole-number budget counters, for the ledger (`null` when the envelope has no budget object). */
  readonly budget: ClaimBudget | null;
  /** The fan-out branch the delivery travels in (`hop.branch`, checked against the graph); `null` outside one. */
  readonly branch: ClaimBranch | null;
  /** The reasons found; the caller appends artefact and store reasons, then caps them (`capReasons`). */
  readonly reasons: Reason[];
  /** Required artefacts with a well-formed `ref`, for `canRead`, one per distinct (ref, scope). */
  readonly required: readonly RequiredArtefact[];
  /** The reasons may become warnings: an observe edge, a usable header, addressed to me, no limit crossed. */
  readonly lenient: boolean;
  /** The task is at or past the hop limit: route by `on_hop_limit`. */
  readonly hopLimitReached: boolean;
  /**
   * The delivery could neither start nor continue a task (another sender than the transport
   * authenticated, not addressed to me, no edge of the graph to me, an id too long, not JSON
   * data): the ledger is not asked, so nothing of it is written.
   */
  readonly stranger: boolean;
  /** `from_agent.id` is not `options.sender`. */
  readonly forged: boolean;
  /** A decision is below the edge's confidence floor and no other route takes the envelope: a person decides. */
  readonly floorEscalates: boolean;
  /** What the ledger needs to hold approvals (graphs of envelope 1.4 and later; `null` before). */
  readonly approval: ClaimApproval | null;
  readonly consumed: readonly string[];
  readonly constraints: readonly string[];
  readonly route: Route;
}

/** Checks one envelope for the receiving agent `me`, sent (when known) by `sender`. Never throws. */
export type EnvelopeCheck = (input: unknown, me: string, sender?: string) => ContentVerdict;

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

interface Agent extends VersionMemo {
  readonly role: Role;
  readonly gate: boolean;
}

/** The route checks of one edge: the guarded edges out of its agent, and the gate it leaves (in words), if any. */
interface RoutePlan {
  readonly router: readonly EdgeInfo[];
  readonly gate: string | undefined;
}

/** The first envelope minor version with the approval record (`approval`). */
const APPROVAL_SINCE = 4;
const NO_ROUTES: readonly EdgeInfo[] = [];
const HAS_UPPER_CASE = /[A-Z]/;

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

/**
 * Reasons an `observe` edge never turns into warnings: limits, addressing, identity, data that
 * is not JSON, and any fault in the header (`isHeaderPath`), which the record, the store and the next hop need.
 */
const STRICT_RULES: ReadonlySet<string> = new Set([
  "not-json-data",
  "unpaired-surrogate",
  "not-addressed-to-me",
  "sender-mismatch",
  "id-too-long",
  "hop-limit-reached",
  "budget-exhausted",
  "budget-counter-missing",
  "max-rounds-exceeded",
]);

/** Rules after which the delivery can neither start nor continue a task: the ledger is not asked. */
const STRANGER_RULES: ReadonlySet<string> = new Set(["not-json-data", "unpaired-surrogate", "unreadable-envelope", "not-addressed-to-me", "sender-mismatch", "id-too-long"]);

/** The schema reasons of an envelope its validator accepted. */
const NO_SCHEMA_REASONS: SchemaReasons = Object.freeze({ reasons: [], headerFaultCounted: false, faultyRefs: undefined });

type Json = Record<string, unknown>;


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

/** A whole number, 0 or more, of any size: an index past 2^53 is still an index, and past every hop limit. */
function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** The whole-number counters of `counters` (an object of the envelope), or `null` when there are none. */
function countersOf(counters: Json): Record<string, number> | null {
  // Read and written by literal names (BUDGET_COUNTERS of checks/budget-exhausted.ts, in its order): a computed name makes
  // every read and write here a dictionary lookup, and the result one shape of object per envelope.
  const tokens = wholeCount(counters.tokens);
  const wallClockMs = wholeCount(counters.wall_clock_ms);
  const toolCalls = wholeCount(counters.tool_calls);
  const retries = wholeCount(counters.retries);
  const costMicros = wholeCount(counters.cost_micros);
  if (tokens !== undefined && wallClockMs !== undefined && toolCalls !== undefined && retries !== undefined && costMicros !== undefined) {
    return { tokens, wall_clock_ms: wallClockMs, tool_calls: toolCalls, retries, cost_micros: costMicros };
  }
  let found: Record<string, number> | null = null;
  if (tokens !== undefined) (found ??= {}).tokens = tokens;
  if (wallClockMs !== undefined) (found ??= {}).wall_clock_ms = wallClockMs;
  if (toolCalls !== undefined) (found ??= {}).tool_calls = toolCalls;
  if (retries !== undefined) (found ??= {}).retries = retries;
  if (costMicros !== undefined) (found ??= {}).cost_micros = costMicros;
  return found;
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
    agents.set(agent.id, { role: agent.role, gate: agent.gate === true, version, lastClaimed: undefined, lastMismatch: undefined });
  }
  // Each agent's router: its guarded edges, in declaration order.
  const routers = new Map<string, EdgeInfo[]>();
  for (const edge of spec.edges) {
    if (edge.guard === undefined) continue;
    const router = routers.get(edge.from);
    if (router === undefined) routers.set(edge.from, [edge]);
    else router.push(edge);
  }
  // The route checks of each edge that has any (a guard, a floor, a gate), made once: an edge
  // without them costs one lookup per call.
  const routePlans = new Map<EdgeInfo, RoutePlan>();
  for (const edge of spec.edges) {
    const gate = edge.gate === true ? describeEdge(edge) : agents.get(edge.from)?.gate === true ? edge.from : undefined;
    if (edge.guard === undefined && edge.minConfidence === undefined && gate === undefined) continue;
    routePlans.set(edge, { router: routers.get(edge.from) ?? NO_ROUTES, gate });
  }
  const approvals = graph.envelope.major === 1 && graph.envelope.minor >= APPROVAL_SINCE;
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
  const pathGraph: PathGraph<Pair> = {
    name: graph.name,
    hopLimit: graph.hopLimit,
    entries: new Set(graph.entries),
    entryList: graph.entries.join(", "),
    pair: (a, b) => pairs.get(a)?.get(b),
    counts: new Uint32Array(boundedPairs),
  };
  const checkVersion = createVersionCheck(graph);
  const checkHopLimit = createHopLimitCheck(graph);
  const hasAgent = (id: string): boolean => agents.has(id);
  // hop.branch exists from envelope 1.4 on: an older graph's fan-outs are checked as delegations.
  const branchesChecked = graph.envelope.major === 1 && graph.envelope.minor >= 4;
  const fanOuts: FanOutMap = createFanOutMap(spec.agents, branchesChecked ? spec.edges : []);
  const branchGraph: BranchGraph = { name: graph.name, branches: fanOuts.ids };

  /** The branch a delivery from `from` to `to` over `edge` travels in, when `hop.branch` is right for it (else a reason). */
  function branchOf(edge: EdgeInfo | undefined, from: string, to: string, given: unknown, reasons: Reason[]): ClaimBranch | null {
    // Not a string: the schema said so, and nothing here can be compared.
    if (!branchesChecked || (given !== undefined && typeof given !== "string")) return null;
    const claimed = given as string | undefined;
    const own = edge === undefined ? undefined : fanOuts.ofEdge.get(edge);
    if (!checkBranch(branchGraph, from, to, own, claimed, reasons) || claimed === undefined) return null;
    const known = own ?? (fanOuts.byId.get(claimed) as NonNullable<ReturnType<FanOutMap["byId"]["get"]>>);
    const { join } = known;
    const arrives = own === undefined && join !== null && join.agent === to && fanOuts.inputs.get(to)?.has(from) === true;
    return { id: known.id, fanOut: known.fanOut, from: known.from, agent: known.agent, siblings: known.siblings, join, opens: own !== undefined, arrives };
  }

  /** The envelope's own semantics (stage 2); `hop` is the envelope's `hop`, read once. */
  function semanticChecks(envelope: Json, hop: Json, hopIndex: number | undefined, to: string | undefined, me: string, reasons: Reason[]): boolean {
    checkVersion(envelope.envelope_version, reasons);
    checkAddressee(to, me, reasons);
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
    if (isJsonObject(budget.consumed) && isJsonObject(budget.limit)) {
      checkCounterReported("tokens", consumed.tokens, caps.tokens, reasons);
      checkCounterReported("wall_clock_ms", consumed.wall_clock_ms, caps.wall_clock_ms, reasons);
      checkCounterReported("tool_calls", consumed.tool_calls, caps.tool_calls, reasons);
      checkCounterReported("retries", consumed.retries, caps.retries, reasons);
      checkCounterReported("cost_micros", consumed.cost_micros, caps.cost_micros, reasons);
    }
    checkBlockingQuestions(envelope.open_questions, envelope.status, reasons);
    return hopLimitReached;
  }

  /**
   * One pass over `artefacts`: the required ones to ask `canRead` about (only references that
   * passed the schema, absolute URIs; each distinct (ref, scope) once) and the references handed
   * over (all but `superseded`).
   */
  function readArtefacts(artefacts: unknown, faultyRefs: ReadonlySet<number> | undefined, required: RequiredArtefact[], consumed: string[]): void {
    if (!Array.isArray(artefacts)) return;
    let asked: Set<string> | undefined;
    for (let i = 0; i < artefacts.length; i++) {
      const artefact = fieldsOf(artefacts[i]);
      const ref = stringOf(artefact.ref);
      const scope = artefact.read_scope;
      const role = artefact.role;
      if (ref === undefined) continue;
      if (role !== "superseded") consumed.push(ref);
      if (role !== "required" || (scope !== undefined && typeof scope !== "string")) continue;
      if (faultyRefs?.has(i) === true) continue;
      if (asked !== undefined) {
        const key = keyOf(ref, scope as string | undefined);
        if (asked.has(key)) continue;
        asked.add(key);
      } else if (isAsked(required, ref, scope as string | undefined)) continue;
      else if (required.length === SCAN_UP_TO) {
        // Past a few artefacts a set keeps this linear (an envelope may list 10^5).
        asked = new Set(required.map((r) => keyOf(r.ref, r.scope)));
        asked.add(keyOf(ref, scope as string | undefined));
      }
      required.push({ index: i, ref, scope: scope as string | undefined });
    }
  }

  /** The graph's checks (stage 3); `fromRef` and `toRef` are the envelope's `from_agent` and `to_agent`, `path` its `hop.path` if all strings. */
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
    if (pair === undefined) reportUnknownEdge(graph.name, from, to, hasAgent, reasons);
    // A pair holds its agents: no lookup on the way of a known edge.
    const fromAgent = pair === undefined ? agents.get(from) : pair.fromAgent;
    const toAgent = pair === undefined ? agents.get(to) : pair.toAgent;
    if (fromAgent !== undefined) {
      checkRole("from_agent", from, fromAgent.role, fromRef.role, graph.name, reasons);
      checkAgentVersion("from_agent", from, fromAgent, fromRef.version, reasons);
    }
    if (toAgent !== undefined) {
      checkRole("to_agent", to, toAgent.role, toRef.role, graph.name, reasons);
      checkAgentVersion("to_agent", to, toAgent, toRef.version, reasons);
    }
    if (pair !== undefined && path !== undefined) checkHopPath(pathGraph, path, index, from, to, pair, reasons);
  }

  /**
   * The route checks of the edge the envelope takes (stage 3): its guard, its floor, its gate.
   * Returns true when a decision is below the floor and no other route takes the envelope.
   */
  function routeChecks(edge: EdgeInfo, fields: Json, reasons: Reason[]): boolean {
    const plan = routePlans.get(edge);
    if (plan === undefined) return false;
    if (edge.guard !== undefined) checkGuard(edge, plan.router, fields, reasons);
    const escalates = edge.minConfidence !== undefined && checkFloor(edge, plan.router, fields, reasons);
    if (plan.gate !== undefined) checkGateStatus(fields.status, plan.gate, reasons);
    return escalates;
  }

  /** The approval facts of the envelope for the ledger; `null` in a graph whose envelope has no approval record. */
  function approvalOf(fields: Json): ClaimApproval | null {
    if (!approvals) return null;
    const cited = fieldsOf(fields.approval).pending_handoff_id;
    // A UUID's hex digits are case-insensitive (RFC 9562 section 4), as for handoff ids.
    const cites = typeof cited === "string" ? (HAS_UPPER_CASE.test(cited) ? cited.toLowerCase() : cited) : null;
    return { waits: fields.status === "waiting_review", cites };
  }

  function schemaCheck(input: unknown, pair: Pair | undefined): { edge: EdgeInfo | undefined; found: SchemaReasons } {
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
    return { edge, found: errors ? schemaReasons(errors) : NO_SCHEMA_REASONS };
  }

  function evaluate(input: unknown, me: string, sender: string | undefined): ContentVerdict {
    const envelope = isJsonObject(input) ? input : undefined;
    // Each field is read once, here, and handed to the checks that need it.
    const fields = fieldsOf(envelope);
    const fromRef = fieldsOf(fields.from_agent);
    const toRef = fieldsOf(fields.to_agent);
    const from = stringOf(fromRef.id);
    const to = stringOf(toRef.id);
    const pair = from !== undefined && to !== undefined ? pairs.get(from)?.get(to) : undefined;
    // Stage 1: the JSON Schema of the edge's contract, and JSON data.
    const schema = schemaCheck(input, pair);
    const schemaFound = schema.found;
    // A schema-valid envelope types every value, so only its objects and free text need a look
    // (the hot path); anything else gets the full walk, which names every place that is not JSON data.
    const reasons = schemaFound.reasons.length === 0 && isJsonData(input) ? [] : jsonDataProblems(input);
    for (const found of schemaFound.reasons) reasons.push(found);
    const handoffId = stringOf(fields.handoff_id);
    const taskId = stringOf(fields.task_id);
    const forged = checkSender(from, sender, reasons);
    checkIdLengths(taskId, from, to, reasons);
    const hop = fieldsOf(fields.hop);
    const hopIndex = wholeCount(hop.index);
    const hopPath = hop.path;
    let path = isStringArray(hopPath) ? hopPath : undefined;
    let hopLimitReached = false;
    const required: RequiredArtefact[] = [];
    const consumed: string[] = [];
    let budget: ClaimBudget | null = null;
    let branch: ClaimBranch | null = null;
    let branchRefused = false;
    let floorEscalates = false;
    if (envelope !== undefined) {
      // Stage 2: the envelope's own semantics; stage 3: the graph.
      hopLimitReached = semanticChecks(envelope, hop, hopIndex, to, me, reasons);
      readArtefacts(envelope.artefacts, schemaFound.faultyRefs, required, consumed);
      if (from !== undefined && to !== undefined) {
        graphChecks(fromRef, toRef, from, to, pair, hopIndex, path, reasons);
        if (pair !== undefined) {
          branch = branchOf(schema.edge, from, to, hop.branch, reasons);
          // hop.branch refused (absent or another over a fan_out edge, no branch of the graph, not
          // a string): which line of the task the delivery is on is unknown, so no line's budget
          // is its to compare. A branch counts its spend from 0 and takes a share of the parent's
          // limit; set against the task's own line that is a lowered spend and a dropped limit,
          // reasons that only repeat the branch's. The repaired delivery is compared in full.
          branchRefused = branch === null && branchesChecked && (hop.branch !== undefined || (schema.edge !== undefined && fanOuts.ofEdge.has(schema.edge)));
        }
      }
      if (schema.edge !== undefined) floorEscalates = routeChecks(schema.edge, envelope, reasons);
      const declared = envelope.budget;
      if (isJsonObject(declared) && !branchRefused) budget = { limit: countersOf(fieldsOf(declared.limit)), consumed: countersOf(fieldsOf(declared.consumed)) };
    }
    // The ledger never needs more of the path than a walk within the hop limit holds.
    if (path !== undefined && path.length > graph.hopLimit + 1) path = path.slice(0, graph.hopLimit + 1);
    const edge = schema.edge;
    const stranger = forged || pair === undefined || reasons.some((r) => STRANGER_RULES.has(r.rule));
    const lenient =
      edge !== undefined &&
      edge.observe &&
      handoffId !== undefined &&
      taskId !== undefined &&
      hopIndex !== undefined &&
      to === me &&
      !schemaFound.headerFaultCounted &&
      !reasons.some((r) => STRICT_RULES.has(r.rule) || isHeaderPath(r.path));
    let constraints: readonly string[] = [];
    let route: Route = "proceed";
    if (envelope !== undefined && (reasons.length === 0 || lenient)) {
      const list = envelope.constraints;
      // Schema-valid, the list holds strings only; on an observe edge it may not.
      if (Array.isArray(list)) constraints = reasons.length === 0 ? (list as string[]) : list.filter((c): c is string => typeof c === "string");
      route = routeOf(envelope.status);
    }
    const approval = approvalOf(fields);
    return { handoffId, taskId, hopIndex, producer: from, edge, path, budget, branch, reasons, required, lenient, hopLimitReached, stranger, forged, floorEscalates, approval, consumed, constraints, route };
  }

  return function check(input: unknown, me: string, sender?: string): ContentVerdict {
    try {
      return evaluate(input, me, sender);
    } catch (error) {
      // A getter or a proxy trap threw while the envelope was read: it is not plain JSON data.
      return {
        handoffId: undefined,
        taskId: undefined,
        hopIndex: undefined,
        producer: undefined,
        edge: undefined,
        path: undefined,
        budget: null,
        branch: null,
        reasons: [unreadableReason(error)],
        required: [],
        lenient: false,
        hopLimitReached: false,
        stranger: true,
        forged: false,
        floorEscalates: false,
        approval: null,
        consumed: [],
        constraints: [],
        route: "proceed",
      };
    }
  };
}

function keyOf(ref: string, scope: string | undefined): string {
  return scope === undefined ? ref : `${ref}\u0000${scope}`;
}

/**
 * Required artefacts compared one by one before a set of keys is made: most envelopes need one
 * to three, and building keys (a string each) would cost more than comparing them.
 */
const SCAN_UP_TO = 8;

/** Whether `required` (at most {@link SCAN_UP_TO} entries) already holds (`ref`, `scope`). */
function isAsked(required: readonly RequiredArtefact[], ref: string, scope: string | undefined): boolean {
  for (let i = 0; i < required.length; i++) {
    const seen = required[i] as RequiredArtefact;
    if (seen.ref === ref && seen.scope === scope) return true;
  }
  return false;
}

