/**
 * `min_confidence`: every decision the floor applies to (all, or the ids it names) is at least
 * that sure. Each decision below it is reported at its confidence, with the route the graph
 * chooses for the envelope instead (the router of the sending agent: the first route whose guard
 * matches and whose floor holds, else its `otherwise`); with no such route, the refusal goes to a
 * person (`escalate`), as "below the floor, escalate" asks.
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import type { EdgeInfo } from "../graph-data.js";
import { belowFloor, chooseRoute, describeEdge, describeRoute, type EnvelopeFields } from "../guard-route.js";
import { renderMessage } from "../reason-catalogue.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const confidenceBelowFloor = ingestRule("confidence-below-floor", "graph", "/decisions/<i>/confidence");

/**
 * Checks the floor of `edge` (`router`: the guarded edges out of `edge.from`, in declaration
 * order). Returns true when a decision is below it and no other route takes the envelope.
 */
export function checkFloor(edge: EdgeInfo, router: readonly EdgeInfo[], fields: EnvelopeFields, reasons: Reason[]): boolean {
  const floor = edge.minConfidence;
  if (floor === undefined) return false;
  const below = belowFloor(floor, fields["decisions"]);
  if (below.length === 0) return false;
  const chosen = chooseRoute(router, fields);
  const elsewhere = chosen !== undefined && chosen !== edge;
  const route = elsewhere ? renderMessage(confidenceBelowFloor.id, "route", { route: describeRoute(chosen) }) : renderMessage(confidenceBelowFloor.id, "escalate", { agent: edge.from });
  for (const decision of below) {
    reasons.push(
      ruleReason(`/decisions/${decision.index}/confidence`, confidenceBelowFloor.id, "below", {
        decision: typeof decision.id === "string" ? quoteUntrusted(decision.id) : "(no id)",
        confidence: decision.confidence,
        floor: floor.value,
        edge: describeEdge(edge),
        route,
      }),
    );
  }
  return !elsewhere;
}
