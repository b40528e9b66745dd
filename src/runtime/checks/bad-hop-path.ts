/**
 * `hop.path` is a walk of the graph: it starts at an entry, has `hop.index + 1` entries, ends in
 * this handoff, and each step is an edge (taken at most `max_rounds` times, `max-rounds-exceeded`).
 * Only the first `hopLimit + 1` entries are walked: a longer path is past the hop limit
 * (`hop-limit-reached`), and the work stays bounded by the graph, not by the envelope.
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";
import { checkRounds } from "./max-rounds-exceeded.js";

export const badHopPath = ingestRule("bad-hop-path", "graph", "/hop/path/<i>");

/** An ordered pair of agents with an edge: its rounds (undefined when unbounded) and counter slot. */
export interface PathPair {
  readonly maxRounds: number | undefined;
  readonly slot: number;
}

/** What the walk needs of the graph. */
export interface PathGraph<P extends PathPair> {
  readonly name: string;
  readonly hopLimit: number;
  readonly entries: ReadonlySet<string>;
  readonly entryList: string;
  readonly pair: (from: string, to: string) => P | undefined;
  /** Scratch counters, one per bounded pair (reused: the walk never calls out). */
  readonly counts: Uint32Array;
}

export function checkHopPath<P extends PathPair>(
  graph: PathGraph<P>,
  path: readonly string[],
  index: number | undefined,
  from: string,
  to: string,
  handoff: P,
  reasons: Reason[],
): void {
  const n = path.length;
  if (index !== undefined && n !== index + 1) reasons.push(ruleReason("/hop/path", badHopPath.id, "length", { length: n, index, needed: index + 1 }));
  if (n > 0 && !graph.entries.has(path[0] as string)) {
    reasons.push(ruleReason("/hop/path/0", badHopPath.id, "start", { agent: quoteUntrusted(path[0]), graph: graph.name, entries: graph.entryList }));
  }
  if (n < 2 || path[n - 2] !== from || path[n - 1] !== to) reasons.push(ruleReason(`/hop/path/${Math.max(n - 1, 0)}`, badHopPath.id, "end", { from, to }));
  const { counts } = graph;
  // A loop, not fill(): the usual handful of slots costs less than the call.
  for (let slot = 0; slot < counts.length; slot++) counts[slot] = 0;
  const walked = Math.min(n, graph.hopLimit + 1);
  for (let i = 1; i < walked; i++) {
    const a = path[i - 1] as string;
    const b = path[i] as string;
    const pair = i === n - 1 && a === from && b === to ? handoff : graph.pair(a, b);
    if (pair === undefined) {
      reasons.push(ruleReason(`/hop/path/${i}`, badHopPath.id, "step", { from: quoteUntrusted(a), to: quoteUntrusted(b), graph: graph.name }));
    } else if (pair.maxRounds !== undefined) {
      const taken = (counts[pair.slot] as number) + 1;
      counts[pair.slot] = taken;
      checkRounds(i, a, b, taken, pair.maxRounds, reasons);
    }
  }
}
