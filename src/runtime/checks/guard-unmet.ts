/**
 * An envelope takes an edge whose guard it meets, and no earlier route of the same agent takes it
 * (routes are tried in declaration order; an `otherwise` edge gets only what no other route
 * takes). Each unmet condition is reported at the field it reads, with its value and where the
 * graph routes the envelope instead; a field the guard cannot read (absent, the wrong type) is
 * left to the schema, which the edge's contract makes require it.
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import type { EdgeInfo } from "../graph-data.js";
import {
  chooseRoute,
  conditionHolds,
  conditionPointer,
  describeEdge,
  describeGuard,
  describeRoute,
  lowestConfidence,
  takenEarlier,
  type EnvelopeFields,
} from "../guard-route.js";
import { renderMessage } from "../reason-catalogue.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const guardUnmet = ingestRule("guard-unmet", "graph", "/status");

/** The value a condition read, for the message: quoted text, or the lowest confidence. */
function shownValue(subject: string, fields: EnvelopeFields): string {
  if (subject === "confidence") return String(lowestConfidence(fields["decisions"])?.value);
  return quoteUntrusted(fields[subject]);
}

/** Where the graph sends the envelope instead, in words. */
export function routeText(router: readonly EdgeInfo[], from: string, fields: EnvelopeFields): string {
  const chosen = chooseRoute(router, fields);
  return chosen === undefined ? renderMessage(guardUnmet.id, "none", { agent: from }) : renderMessage(guardUnmet.id, "routes", { route: describeRoute(chosen) });
}

/**
 * Checks the guard of `edge` (one of `router`, the guarded edges out of `edge.from` in
 * declaration order) against the envelope's fields.
 */
export function checkGuard(edge: EdgeInfo, router: readonly EdgeInfo[], fields: EnvelopeFields, reasons: Reason[]): void {
  const guard = edge.guard;
  if (guard === undefined) return;
  const name = describeEdge(edge);
  if (!guard.otherwise) {
    let unmet = false;
    for (const condition of guard.conditions) {
      if (conditionHolds(condition, fields) !== false) continue;
      unmet = true;
      const id = condition.subject === "confidence" ? "lowest" : "unmet";
      reasons.push(
        ruleReason(conditionPointer(condition, fields), guardUnmet.id, id, {
          value: shownValue(condition.subject, fields),
          edge: name,
          guard: describeGuard(guard),
          route: routeText(router, edge.from, fields),
        }),
      );
    }
    if (unmet) return;
  }
  const earlier = takenEarlier(router, edge, fields);
  if (earlier === undefined || earlier.guard === undefined) return;
  const first = earlier.guard.conditions[0];
  if (first === undefined) return;
  reasons.push(
    ruleReason(conditionPointer(first, fields), guardUnmet.id, guard.otherwise ? "otherwise" : "earlier", {
      value: shownValue(first.subject, fields),
      route: describeEdge(earlier),
      guard: describeGuard(earlier.guard),
      edge: describeRoute(edge),
      agent: edge.from,
    }),
  );
}
