/** The graph has an edge from `from_agent.id` to `to_agent.id`. */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const unknownEdge = ingestRule("unknown-edge", "graph", "/to_agent/id");

/** Reports a missing edge: which of the two agents the graph lacks, or the edge between them. */
export function reportUnknownEdge(graphName: string, from: string, to: string, hasAgent: (id: string) => boolean, reasons: Reason[]): void {
  if (!hasAgent(from)) reasons.push(ruleReason("/from_agent/id", unknownEdge.id, "from", { graph: graphName, agent: quoteUntrusted(from) }));
  else if (!hasAgent(to)) reasons.push(ruleReason("/to_agent/id", unknownEdge.id, "to", { graph: graphName, agent: quoteUntrusted(to) }));
  else reasons.push(ruleReason("/to_agent/id", unknownEdge.id, "edge", { graph: graphName, from, to }));
}
