/**
 * The hop limit: the graph's is the authority (an envelope may claim a lower one, never a
 * higher). Both `hop.index` and the length of `hop.path` witness how far the task has come, so
 * a malformed index does not hide a long path.
 */
import type { GraphInfo } from "../graph-data.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const hopLimitReached = ingestRule("hop-limit-reached", "envelope", "/hop/index");

function wholeNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** @returns whether the task is at or past the limit */
export function createHopLimitCheck(graph: GraphInfo): (index: number | undefined, ownLimit: unknown, path: unknown, reasons: Reason[]) => boolean {
  const action = graph.onHopLimit === "escalate" ? "escalate to a human" : "fail the task";
  const whose = (limit: number): string => (limit === graph.hopLimit ? `the limit of graph ${graph.name}, ${limit}` : `the envelope's own limit of ${limit}`);
  return (index, ownLimit, path, reasons) => {
    const own = wholeNumber(ownLimit);
    const limit = own !== undefined && own >= 1 && own < graph.hopLimit ? own : graph.hopLimit;
    if (index !== undefined && index >= limit) {
      reasons.push(ruleReason("/hop/index", hopLimitReached.id, "index", { index, limit: whose(limit), action }));
      return true;
    }
    if (Array.isArray(path) && path.length - 1 >= limit) {
      reasons.push(ruleReason("/hop/path", hopLimitReached.id, "path", { handoffs: path.length - 1, limit: whose(limit), action }));
      return true;
    }
    return false;
  };
}
