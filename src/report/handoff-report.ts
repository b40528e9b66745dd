/**
 * `seam report`'s summary of handoff event logs: the five handoff metrics (latency, envelope
 * size per hop, hop count per task against the hop limit, rejection rate by producer and field,
 * status distribution per edge) plus the envelope versions in flight, built one event at a time
 * in bounded memory (quantile sketches and capped groups), so a log of any length fits.
 */
import { escapeUntrusted } from "../core/untrusted-text.js";
import { fieldLabel } from "../runtime/field-label.js";
import { parseTime, type HandoffEvent, type HandoffVerdict } from "../runtime/handoff-event.js";
import { createBoundedGroups, OTHER_KEY, type BoundedGroups } from "./bounded-groups.js";
import { addBranchHop, runEnd, type BranchRun } from "./branch-runs.js";
import { createQuantileSketch, RELATIVE_ERROR, type QuantileSketch } from "./quantile-sketch.js";

/** The version of the report's JSON shape (`seam report --format json`). */
export const REPORT_VERSION = 1;

/** Caps on distinct keys; past them, keys share an `(other)` group and `cut` names the group. */
export const GROUP_CAPS = {
  edges: 1000,
  producers: 1000,
  fields: 5000,
  versions: 200,
  graphs: 100,
  statuses: 16,
  hopIndexes: 1024,
  fanOuts: 100_000,
  joins: 1000,
} as const;

/** The longest key (agent id, field, version) kept from a log, in UTF-16 code units. */
const MAX_KEY = 200;

/** Quantiles of a distribution; `null` when it is empty. Within the sketch's relative error, except `max`, which is exact. */
export interface Distribution {
  readonly count: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

/** Counts of each verdict. */
export type VerdictCounts = Record<HandoffVerdict, number>;

/** One edge as the logs name it: producer -> receiver, with the edge kind when known. */
export interface EdgeKey {
  readonly producer: string;
  readonly receiver: string;
  readonly kind: string | null;
}

/** The complete report, as `--format json` prints it. */
export interface HandoffReport {
  readonly report: "seam.report";
  readonly v: typeof REPORT_VERSION;
  /** Handoff events read. */
  readonly handoffs: number;
  /** Earliest and latest `at` among the events (ISO 8601, in UTC whatever offset a log wrote), `null` when there are none. */
  readonly first_at: string | null;
  readonly last_at: string | null;
  readonly verdicts: VerdictCounts;
  /** How the quantiles were computed. */
  readonly quantiles: { readonly method: string; readonly relative_error: number };
  /** Handoff latency in ms over accepted and observed handoffs with a known latency. */
  readonly latency: Distribution & {
    /** Handoffs with a negative latency (clock skew): left out of the quantiles. */
    readonly negative: number;
    /** Accepted or observed handoffs without a latency. */
    readonly unknown: number;
    readonly by_edge: readonly (EdgeKey & Distribution)[];
  };
  /** Envelope size in bytes per hop index, every handoff but duplicates, by hop index. */
  readonly size_per_hop: readonly ({ readonly hop_index: number | typeof OTHER_KEY } & Distribution)[];
  /** Hops per task, per graph (see {@link HopCounts}). */
  readonly hop_counts: readonly HopCounts[];
  readonly rejections: {
    readonly by_producer: readonly ProducerRejections[];
    readonly by_field: readonly FieldRejections[];
  };
  readonly status_per_edge: readonly EdgeStatuses[];
  readonly versions: readonly VersionInFlight[];
  /** Fan-outs: branches per task and fan-out, and how long joins waited (see {@link FanOutReport}). */
  readonly fan_outs: FanOutReport;
  /** Groups that reached their cap (see {@link GROUP_CAPS}); their extra keys are counted under `(other)`. */
  readonly cut: readonly string[];
}

/**
 * How many hops tasks took in one graph: a task's hops are the highest hop index of its own
 * chain, where a fan-out's branches count up to the hop the chain goes on from ({@link runEnd}).
 * Outside fan-outs one owner per task and hop means each (task, hop) is accepted once, so the
 * tasks that reached hop k are the accepted handoffs at hop index k outside a branch, and those
 * that ended at k are those at k minus those at k + 1: no per-task memory needed. Branches of
 * one fan-out own the same hops, so each task fan-out the report follows (see
 * {@link FanOutReport}) counts once instead, as a run of hops from its delegations: one task
 * more ended where the run ends, one fewer at its base, where the task's own hops stopped. A log
 * that starts in the middle of tasks undercounts their early hops; a task whose own chain went
 * on from its base while its branches held the same hops (a join given up on with `otherwise
 * escalate`, a fan-out without a join) counts twice.
 */
export interface HopCounts {
  readonly graph: string;
  /** The graph's hop limit (the latest one seen in the logs). */
  readonly hop_limit: number;
  readonly tasks: number;
  /** Quantiles of hops per task (exact: they are counted, not sketched). */
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
  /** Handoffs refused because the task reached the hop limit (rule `hop-limit-reached`). */
  readonly stopped_at_limit: number;
  /** Tasks by how many hops they took, ascending. */
  readonly distribution: readonly { readonly hops: number; readonly tasks: number }[];
}

/** One producer's handoffs and how many were refused or warned about. */
export interface ProducerRejections {
  readonly producer: string;
  /** Handoffs from this producer, duplicates excepted. */
  readonly handoffs: number;
  readonly rejected: number;
  /** Accepted with warnings on an `observe` edge: would have been rejected. */
  readonly observed: number;
  /** (rejected + observed) / handoffs. */
  readonly rate: number;
}

/** How often one producer broke one rule at one field (grouped as `fieldLabel` says: array indices and invented property names as `*`). */
export interface FieldRejections {
  readonly producer: string;
  readonly field: string;
  readonly rule: string;
  readonly count: number;
}

/** Completion statuses and verdicts on one edge. */
export interface EdgeStatuses extends EdgeKey {
  /** Handoffs on this edge, duplicates excepted. */
  readonly handoffs: number;
  /** By envelope `status` (`(none)` when absent), most frequent first. */
  readonly statuses: readonly { readonly status: string; readonly count: number }[];
  readonly verdicts: VerdictCounts;
}

/**
 * Fan-outs in the logs, from the accepted handoffs in branches (`branch`) and the arrivals that
 * fired a join (`join: "fired"`), grouped by task and fan-out (the part of the branch id before
 * `/`). Up to {@link GROUP_CAPS}.fanOuts task fan-outs are followed; past it, new ones are left
 * out and `cut` says so, of the fan-outs and of the hop counts, which count a task's branch hops
 * from the fan-outs followed (see {@link HopCounts}).
 */
export interface FanOutReport {
  /** Task fan-outs seen (a task that fans out twice through the same fan-out counts once). */
  readonly fan_outs: number;
  /** Distinct branches accepted per task fan-out (exact: counted). */
  readonly branches: { readonly p50: number | null; readonly max: number | null; readonly distribution: readonly { readonly branches: number; readonly fan_outs: number }[] };
  /**
   * Join wait in ms: from the task fan-out's first accepted branch handoff to the arrival that
   * fired its join, over fan-outs whose join fired; by join agent (the firing arrival's receiver).
   */
  readonly join_wait: Distribution & { readonly by_join: readonly ({ readonly join: string } & Distribution)[] };
}

/** One envelope version seen in the logs. */
export interface VersionInFlight {
  /** `(none)` when the envelopes carried none. */
  readonly envelope_version: string;
  readonly handoffs: number;
  readonly first_at: string | null;
  readonly last_at: string | null;
}

/** Builds a {@link HandoffReport} one event at a time. */
export interface ReportBuilder {
  /** Takes in one event as `readEvent` reads it (its `at` a date-time JavaScript reads). */
  add(event: HandoffEvent): void;
  finish(): HandoffReport;
}

interface EdgeGroup {
  key: EdgeKey | undefined;
  latency: QuantileSketch;
  statuses: BoundedGroups<{ count: number }>;
  handoffs: number;
  verdicts: VerdictCounts;
}

interface GraphGroup {
  limit: number;
  /** Accepted handoffs outside a branch, by hop index. */
  reached: BoundedGroups<{ count: number }>;
  stopped: number;
}

/** One task fan-out as the logs show it. */
interface FanOutSeen {
  /** The graph the task's hops are counted in. */
  readonly graph: GraphGroup;
  /** Earliest accepted branch handoff, ms. */
  first: number;
  /** The arrival that fired its join: when (ms) and at which agent; `null` until seen. */
  fired: { at: number; join: string } | null;
  readonly branches: Set<string>;
  /** The hops its branches held, a run per time the task fanned out there. */
  readonly runs: BranchRun[];
}

/** Task fan-outs by where they start and end a run of branch hops (see {@link HopCounts}). */
interface RunCounts {
  /** By the hop index before the run, where the task's own hops stopped. */
  readonly bases: Map<number, number>;
  /** By {@link runEnd}. */
  readonly ends: Map<number, number>;
}

/** The earliest and the latest of some times, ms; `null` before the first. */
interface Period {
  first: number | null;
  last: number | null;
}

/** Widens `period` to take in `ms`. */
function widen(period: Period, ms: number): void {
  if (period.first === null || ms < period.first) period.first = ms;
  if (period.last === null || ms > period.last) period.last = ms;
}

/** A time of a {@link Period} as the report gives it: ISO 8601, UTC (the logs' `at` may have an offset). */
const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const noVerdicts = (): VerdictCounts => ({ accepted: 0, observed: 0, rejected: 0, duplicate: 0 });
const counter = (): { count: number } => ({ count: 0 });
const key = (text: string | null, none: string): string => (text === null ? none : escapeUntrusted(text, MAX_KEY));

function distribution(sketch: QuantileSketch): Distribution {
  const at = (q: number): number | null => {
    const value = sketch.quantile(q);
    return value === undefined ? null : Math.round(value * 1000) / 1000;
  };
  return { count: sketch.count, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sketch.max ?? null };
}

/** The q-quantile (nearest rank) of counted whole numbers, ascending. */
function countedQuantile(counts: readonly { hops: number; tasks: number }[], total: number, q: number): number | null {
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const { hops, tasks } of counts) {
    seen += tasks;
    if (seen >= rank) return hops;
  }
  return null;
}

/** One more at `index` of `counts`. */
function bump(counts: Map<number, number>, index: number): void {
  counts.set(index, (counts.get(index) ?? 0) + 1);
}

/** The {@link HopCounts} of one graph: its accepted handoffs outside branches, and the runs of branch hops of its task fan-outs. */
function hopCounts(graph: string, group: GraphGroup, runs: RunCounts | undefined): HopCounts {
  const reached = new Map<number, number>();
  for (const [index, { count }] of group.reached.entries()) if (index !== OTHER_KEY) reached.set(Number(index), count);
  const bases = runs?.bases ?? new Map<number, number>();
  const ends = runs?.ends ?? new Map<number, number>();
  const at = (counts: ReadonlyMap<number, number>, index: number): number => counts.get(index) ?? 0;
  const indexes = [...new Set([...reached.keys(), ...ends.keys()])].sort((a, b) => a - b);
  const list: { hops: number; tasks: number }[] = [];
  let tasks = 0;
  for (const hops of indexes) {
    // A run of branch hops fills the task's own chain from its base to its end: the task goes on
    // past its base, and from its end. Clamped at 0: a log that starts mid-task can hold more
    // handoffs at k + 1 than at k.
    const ended = Math.max(0, at(reached, hops) - at(reached, hops + 1) + at(ends, hops) - at(bases, hops));
    if (ended === 0) continue;
    list.push({ hops, tasks: ended });
    tasks += ended;
  }
  return {
    graph,
    hop_limit: group.limit,
    tasks,
    p50: countedQuantile(list, tasks, 0.5),
    p95: countedQuantile(list, tasks, 0.95),
    max: list.length > 0 ? (list[list.length - 1] as { hops: number }).hops : null,
    stopped_at_limit: group.stopped,
    distribution: list,
  };
}

/** Creates an empty {@link ReportBuilder}. */
export function createReportBuilder(): ReportBuilder {
  const verdicts = noVerdicts();
  let handoffs = 0;
  const period: Period = { first: null, last: null };
  const latency = createQuantileSketch();
  let negative = 0;
  let unknown = 0;
  const edges = createBoundedGroups<EdgeGroup>(GROUP_CAPS.edges, () => ({
    key: undefined,
    latency: createQuantileSketch(),
    statuses: createBoundedGroups(GROUP_CAPS.statuses, counter),
    handoffs: 0,
    verdicts: noVerdicts(),
  }));
  const sizes = createBoundedGroups(GROUP_CAPS.hopIndexes, createQuantileSketch);
  const graphs = createBoundedGroups<GraphGroup>(GROUP_CAPS.graphs, () => ({
    limit: 0,
    reached: createBoundedGroups(GROUP_CAPS.hopIndexes, counter),
    stopped: 0,
  }));
  const producers = createBoundedGroups(GROUP_CAPS.producers, () => ({ handoffs: 0, rejected: 0, observed: 0 }));
  const fields = createBoundedGroups<{ producer: string; field: string; rule: string; count: number }>(GROUP_CAPS.fields, () => ({
    producer: OTHER_KEY,
    field: OTHER_KEY,
    rule: OTHER_KEY,
    count: 0,
  }));
  const versions = createBoundedGroups(GROUP_CAPS.versions, (): Period & { handoffs: number } => ({ handoffs: 0, first: null, last: null }));
  const fanOuts = new Map<string, FanOutSeen>();
  let fanOutsCut = false;
  let runsCut = false;

  /** Follows an accepted handoff in a branch: its task fan-out's branches, hops, start and firing. */
  function addBranch(event: HandoffEvent, branch: string, at: number, graph: GraphGroup): void {
    const slash = branch.indexOf("/");
    const name = `${key(event.graph, "(unknown)")}\0${key(event.task_id, "(unknown)")}\0${slash < 0 ? branch : branch.slice(0, slash)}`;
    let seen = fanOuts.get(name);
    if (seen === undefined) {
      if (fanOuts.size >= GROUP_CAPS.fanOuts) {
        fanOutsCut = true;
        return;
      }
      seen = { graph, first: at, fired: null, branches: new Set(), runs: [] };
      fanOuts.set(name, seen);
    }
    if (event.hop_index !== null && !addBranchHop(seen.runs, event.hop_index, event.join)) runsCut = true;
    // Merged logs need not be in time order: the earliest handoff starts the wait.
    if (at < seen.first) seen.first = at;
    // A branch id names an edge of the graph; the cap keeps a hostile log's set small.
    if (seen.branches.size < GROUP_CAPS.joins) seen.branches.add(escapeUntrusted(branch, MAX_KEY));
    if (event.join === "fired" && seen.fired === null) seen.fired = { at, join: key(event.receiver, "(unknown)") };
  }

  return {
    add(event) {
      handoffs++;
      verdicts[event.verdict]++;
      const at = parseTime(event.at);
      widen(period, at);
      const producer = key(event.producer, "(unknown)");
      const receiver = key(event.receiver, "(unknown)");
      // NUL cannot occur in an escaped name, so it separates the parts of a key.
      const edge = edges.get(`${producer}\0${receiver}`);
      edge.key ??= { producer, receiver, kind: event.edge === null ? null : escapeUntrusted(event.edge, MAX_KEY) };
      edge.verdicts[event.verdict]++;
      if (event.verdict === "duplicate") return; // a redelivery: counted once, as the original

      edge.handoffs++;
      edge.statuses.get(key(event.status, "(none)")).count++;
      const accepted = event.verdict === "accepted" || event.verdict === "observed";
      if (accepted) {
        if (event.latency_ms === null) unknown++;
        else if (event.latency_ms < 0) negative++;
        else {
          latency.add(event.latency_ms);
          edge.latency.add(event.latency_ms);
        }
      }
      if (event.size_bytes !== null && event.hop_index !== null) sizes.get(String(event.hop_index)).add(event.size_bytes);
      const graph = graphs.get(key(event.graph, "(unknown)"));
      graph.limit = event.hop_limit;
      const branch = event.branch ?? null;
      if (accepted && branch !== null) addBranch(event, branch, at, graph);
      else if (accepted && event.hop_index !== null) graph.reached.get(String(event.hop_index)).count++;
      if (event.reasons.some((r) => r.rule === "hop-limit-reached")) graph.stopped++;

      const mine = producers.get(producer);
      mine.handoffs++;
      if (event.verdict === "rejected") mine.rejected++;
      if (event.verdict === "observed") mine.observed++;
      if (event.verdict === "rejected" || event.verdict === "observed") {
        for (const reason of event.reasons) {
          const field = escapeUntrusted(fieldLabel(reason.path, reason.rule), MAX_KEY);
          const rule = escapeUntrusted(reason.rule, MAX_KEY);
          const group = fields.get(`${producer}\0${field}\0${rule}`);
          if (group.count === 0 && group.producer === OTHER_KEY && !fields.overflowed) Object.assign(group, { producer, field, rule });
          group.count++;
        }
      }
      const version = versions.get(key(event.envelope_version, "(none)"));
      version.handoffs++;
      widen(version, at);
    },

    finish() {
      const edgeList = edges.entries().filter(([, g]) => g.key !== undefined) as [string, EdgeGroup & { key: EdgeKey }][];
      const byName = (a: EdgeKey, b: EdgeKey): number =>
        a.producer === b.producer ? (a.receiver < b.receiver ? -1 : a.receiver > b.receiver ? 1 : 0) : a.producer < b.producer ? -1 : 1;
      edgeList.sort(([, a], [, b]) => byName(a.key, b.key));
      const cut: string[] = (
        [
          ["edges", edges],
          ["producers", producers],
          ["fields", fields],
          ["versions", versions],
          ["graphs", graphs],
          ["hop indexes", sizes],
        ] as const
      )
        .filter(([, groups]) => groups.overflowed)
        .map(([name]) => name);
      if (edgeList.some(([, g]) => g.statuses.overflowed)) cut.push("statuses");
      // A fan-out not followed leaves its task's branch hops uncounted: the task counts twice.
      if (fanOutsCut || runsCut || graphs.entries().some(([, g]) => g.reached.overflowed)) cut.push("hop counts");
      if (fanOutsCut) cut.push("fan-outs");
      const runs = runCounts(fanOuts);
      return {
        report: "seam.report",
        v: REPORT_VERSION,
        handoffs,
        first_at: isoOf(period.first),
        last_at: isoOf(period.last),
        verdicts,
        quantiles: { method: "DDSketch logarithmic buckets", relative_error: RELATIVE_ERROR },
        latency: {
          ...distribution(latency),
          negative,
          unknown,
          by_edge: edgeList.filter(([, g]) => g.latency.count > 0).map(([, g]) => ({ ...g.key, ...distribution(g.latency) })),
        },
        size_per_hop: sizes
          .entries()
          .map(([index, sketch]) => ({ hop_index: index === OTHER_KEY ? OTHER_KEY : Number(index), ...distribution(sketch) }) as const)
          .sort((a, b) => (a.hop_index === OTHER_KEY ? 1 : b.hop_index === OTHER_KEY ? -1 : a.hop_index - b.hop_index)),
        hop_counts: graphs
          .entries()
          .map(([name, group]) => hopCounts(name, group, runs.get(group)))
          .sort((a, b) => (a.graph < b.graph ? -1 : a.graph > b.graph ? 1 : 0)),
        rejections: {
          by_producer: producers
            .entries()
            .map(([producer, p]) => ({ producer, ...p, rate: p.handoffs === 0 ? 0 : (p.rejected + p.observed) / p.handoffs }))
            .sort((a, b) => b.rate - a.rate || (a.producer < b.producer ? -1 : 1)),
          by_field: fields
            .entries()
            .map(([, f]) => ({ ...f }))
            .sort((a, b) => b.count - a.count || (JSON.stringify([a.producer, a.field, a.rule]) < JSON.stringify([b.producer, b.field, b.rule]) ? -1 : 1)),
        },
        status_per_edge: edgeList.map(([, g]) => ({
          ...g.key,
          handoffs: g.handoffs,
          statuses: g.statuses
            .entries()
            .map(([status, { count }]) => ({ status, count }))
            .filter((s) => s.count > 0)
            .sort((a, b) => b.count - a.count || (a.status < b.status ? -1 : 1)),
          verdicts: g.verdicts,
        })),
        versions: versions
          .entries()
          .map(([version, v]) => ({ envelope_version: version, handoffs: v.handoffs, first_at: isoOf(v.first), last_at: isoOf(v.last) }))
          .sort((a, b) => b.handoffs - a.handoffs || (a.envelope_version < b.envelope_version ? -1 : 1)),
        fan_outs: fanOutReport(fanOuts),
        cut,
      };
    },
  };
}

/** Where the runs of branch hops of the task fan-outs followed start and end, by graph. */
function runCounts(fanOuts: ReadonlyMap<string, FanOutSeen>): Map<GraphGroup, RunCounts> {
  const byGraph = new Map<GraphGroup, RunCounts>();
  for (const seen of fanOuts.values()) {
    let counts = byGraph.get(seen.graph);
    if (counts === undefined) byGraph.set(seen.graph, (counts = { bases: new Map(), ends: new Map() }));
    for (const run of seen.runs) {
      bump(counts.bases, run.lo - 1);
      bump(counts.ends, runEnd(run));
    }
  }
  return byGraph;
}

/** The fan-out section from the task fan-outs followed. */
function fanOutReport(fanOuts: ReadonlyMap<string, FanOutSeen>): FanOutReport {
  const byCount = new Map<number, number>();
  const wait = createQuantileSketch();
  const byJoin = new Map<string, QuantileSketch>();
  for (const seen of fanOuts.values()) {
    byCount.set(seen.branches.size, (byCount.get(seen.branches.size) ?? 0) + 1);
    if (seen.fired === null) continue;
    // A clock behind another can put the firing before the first branch: counted as no wait.
    const waited = Math.max(0, seen.fired.at - seen.first);
    wait.add(waited);
    let sketch = byJoin.get(seen.fired.join);
    if (sketch === undefined) {
      if (byJoin.size >= GROUP_CAPS.joins) continue;
      byJoin.set(seen.fired.join, (sketch = createQuantileSketch()));
    }
    sketch.add(waited);
  }
  const distributionOf = [...byCount.entries()].sort((a, b) => a[0] - b[0]).map(([branches, count]) => ({ branches, fan_outs: count }));
  const asHops = distributionOf.map((d) => ({ hops: d.branches, tasks: d.fan_outs }));
  return {
    fan_outs: fanOuts.size,
    branches: {
      p50: countedQuantile(asHops, fanOuts.size, 0.5),
      max: distributionOf.length > 0 ? (distributionOf[distributionOf.length - 1] as { branches: number }).branches : null,
      distribution: distributionOf,
    },
    join_wait: {
      ...distribution(wait),
      by_join: [...byJoin.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([join, sketch]) => ({ join, ...distribution(sketch) })),
    },
  };
}
