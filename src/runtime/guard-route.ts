/**
 * Routes at ingest: which guarded edge the graph chooses for an envelope (docs/language.md,
 * Guards). The guarded edges out of one agent are its router, tried in declaration order; a
 * route takes an envelope when its guard matches and its confidence floor (if any) holds, and an
 * `otherwise` edge takes what no other route takes. A guard reads what the envelope says:
 * `status`, `allowed_next_step`, and `confidence`, the lowest `decisions[].confidence`.
 * The checks `guard-unmet` and `confidence-below-floor` word what this module finds.
 */
import { GUARD_SUBJECTS } from "../core/vocabulary.js";
import type { EdgeInfo, FloorInfo, GuardConditionInfo, GuardInfo } from "./graph-data.js";

/** An envelope's fields as the checks read them (an object without fields for anything else). */
export type EnvelopeFields = { readonly [field: string]: unknown };

/** The lowest numeric `decisions[].confidence`: its value and the index of the first decision that has it. */
export interface LowestConfidence {
  readonly value: number;
  readonly index: number;
}

/** The lowest confidence among the decisions that state a number; undefined when none does (or `decisions` is no array). */
export function lowestConfidence(decisions: unknown): LowestConfidence | undefined {
  if (!Array.isArray(decisions)) return undefined;
  let lowest: LowestConfidence | undefined;
  for (let i = 0; i < decisions.length; i++) {
    const decision: unknown = decisions[i];
    if (typeof decision !== "object" || decision === null) continue;
    const confidence = (decision as { confidence?: unknown }).confidence;
    if (typeof confidence !== "number" || !Number.isFinite(confidence)) continue;
    if (lowest === undefined || confidence < lowest.value) lowest = { value: confidence, index: i };
  }
  return lowest;
}

/**
 * Whether `condition` holds for the envelope: `undefined` when the field it reads is absent or
 * of the wrong type (the edge's contract requires it, so the schema has said so already).
 */
export function conditionHolds(condition: GuardConditionInfo, fields: EnvelopeFields): boolean | undefined {
  if (condition.subject !== "confidence") {
    const value = fields[condition.subject];
    return typeof value === "string" ? condition.values.includes(value) : undefined;
  }
  const lowest = lowestConfidence(fields["decisions"]);
  if (lowest === undefined) return undefined;
  const x = lowest.value;
  switch (condition.operator) {
    case "<":
      return x < condition.value;
    case "<=":
      return x <= condition.value;
    case ">":
      return x > condition.value;
    case ">=":
      return x >= condition.value;
  }
}

/** Whether every condition of a `when` guard holds (an `otherwise` guard is decided by the router). */
export function guardMatches(guard: GuardInfo, fields: EnvelopeFields): boolean {
  return !guard.otherwise && guard.conditions.every((c) => conditionHolds(c, fields) === true);
}

/** The decisions a floor applies to whose stated confidence is below it, in envelope order. */
export function belowFloor(floor: FloorInfo, decisions: unknown): { readonly index: number; readonly id: unknown; readonly confidence: number }[] {
  const found: { index: number; id: unknown; confidence: number }[] = [];
  if (!Array.isArray(decisions)) return found;
  for (let i = 0; i < decisions.length; i++) {
    const decision: unknown = decisions[i];
    if (typeof decision !== "object" || decision === null) continue;
    const { id, confidence } = decision as { id?: unknown; confidence?: unknown };
    if (typeof confidence !== "number" || !(confidence < floor.value)) continue;
    if (floor.decisions.length > 0 && !(typeof id === "string" && floor.decisions.includes(id))) continue;
    found.push({ index: i, id, confidence });
  }
  return found;
}

/** Whether `edge` takes the envelope: its guard matches (`otherwise`: always) and no decision is below its floor. */
function takes(edge: EdgeInfo, fields: EnvelopeFields): boolean {
  if (edge.guard !== undefined && !edge.guard.otherwise && !guardMatches(edge.guard, fields)) return false;
  return edge.minConfidence === undefined || belowFloor(edge.minConfidence, fields["decisions"]).length === 0;
}

/**
 * The route the graph chooses for the envelope among `router` (the guarded edges out of one
 * agent, in declaration order): the first `when` edge that takes it, else the first `otherwise`
 * edge that does; undefined when none does.
 */
export function chooseRoute(router: readonly EdgeInfo[], fields: EnvelopeFields): EdgeInfo | undefined {
  for (const edge of router) if (edge.guard?.otherwise === false && takes(edge, fields)) return edge;
  for (const edge of router) if (edge.guard?.otherwise === true && takes(edge, fields)) return edge;
  return undefined;
}

/** The `when` edges of `router` tried before `edge`: those declared earlier, or all of them for an `otherwise` edge. */
export function earlierRoutes(router: readonly EdgeInfo[], edge: EdgeInfo): EdgeInfo[] {
  const when = router.filter((e) => e.guard?.otherwise === false);
  return edge.guard?.otherwise === true ? when : when.slice(0, Math.max(0, when.indexOf(edge)));
}

/** The first earlier route that takes the envelope, which `edge` therefore cannot (routes are tried in order). */
export function takenEarlier(router: readonly EdgeInfo[], edge: EdgeInfo, fields: EnvelopeFields): EdgeInfo | undefined {
  return earlierRoutes(router, edge).find((e) => takes(e, fields));
}

/** The JSON Pointer of the field a condition reads (`/decisions/<i>/confidence` for the lowest decision). */
export function conditionPointer(condition: GuardConditionInfo, fields: EnvelopeFields): string {
  if (condition.subject !== "confidence") return GUARD_SUBJECTS[condition.subject].pointer;
  const lowest = lowestConfidence(fields["decisions"]);
  return lowest === undefined ? GUARD_SUBJECTS.confidence.pointer : `/decisions/${lowest.index}/confidence`;
}

/** A guard as the graph writes it: `when status is ready, partial and confidence >= 0.8`, or `otherwise`. */
export function describeGuard(guard: GuardInfo): string {
  if (guard.otherwise) return "otherwise";
  const parts = guard.conditions.map((c) => (c.subject === "confidence" ? `confidence ${c.operator} ${c.value}` : `${c.subject} is ${c.values.join(", ")}`));
  return `when ${parts.join(" and ")}`;
}

/** An edge as the graph writes it, without its guard: `return billing -> triage`. */
export function describeEdge(edge: Pick<EdgeInfo, "kind" | "from" | "to">): string {
  return `${edge.kind} ${edge.from} -> ${edge.to}`;
}

/** An edge with its guard: `return billing -> review otherwise`. */
export function describeRoute(edge: EdgeInfo): string {
  return edge.guard === undefined ? describeEdge(edge) : `${describeEdge(edge)} ${describeGuard(edge.guard)}`;
}
