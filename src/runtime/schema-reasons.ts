/**
 * The reasons of a validator's JSON Schema errors (stage 1 of `accept()`): each (rule, path) once,
 * the first {@link PER_RULE_LIMIT} of a rule with their messages, the rest only counted. An
 * envelope within the 1 MiB limit can make a validator report 1.7 * 10^6 errors (a `decisions`
 * array of empty objects, five missing fields each); building a reason and a message for each
 * cost seconds and hundreds of MB per envelope, where Ajv's own pass costs a fifth of that. So a
 * rule past its limit gets one {@link CountedReasons} in the list, at the place of its first
 * left-out reason, which `capReasons` turns into the "and N more" reason the full list would give.
 */
import { appendPointer } from "./json-pointer.js";
import { PER_RULE_LIMIT } from "./reason-catalogue.js";
import { schemaErrorToReason, schemaRuleOf, type CountedReasons, type Reason, type SchemaError } from "./reason.js";

/** What {@link schemaReasons} gives. */
export interface SchemaReasons {
  /** In the validator's order: the first {@link PER_RULE_LIMIT} of each rule, then its {@link CountedReasons}. */
  readonly reasons: Reason[];
  /** Some reason left out (counted) lies in the header ({@link isHeaderPath}). */
  readonly headerFaultCounted: boolean;
  /** The indexes of the artefacts whose `ref` has a fault, listed or counted (undefined for none): readArtefacts skips them. */
  readonly faultyRefs: ReadonlySet<number> | undefined;
}

/** The pointer of a fault: its value's, or with the property it names appended. */
function pointerOf(instancePath: string, name: string | undefined): string {
  return name === undefined ? instancePath : appendPointer(instancePath, name);
}

const ARTEFACT = /^\/artefacts\/(\d+)(\/ref)?$/;

/** The property a `required` or `additionalProperties` error names, else undefined. */
function nameOf(error: SchemaError): string | undefined {
  const { keyword, params } = error;
  const name = keyword === "required" ? params["missingProperty"] : keyword === "additionalProperties" ? params["additionalProperty"] : undefined;
  return name === undefined ? undefined : String(name);
}

/**
 * The one value a contract's validator and its envelope's `$ref` both state (type and cap), so
 * the one place a fault can come twice: a contract's schema states only what the envelope's does
 * not (`contractOverlaySchema` in src/emit/edge-schemas.ts), and the envelope's schemas have no
 * combinator (`anyOf`, `allOf`...), so each states a fault at most once. Remembering every fault
 * of an envelope with 10^6 of them, to report each once, cost more than the validator's pass.
 */
export const STATED_TWICE = "/hop/limit";

/** The header: the fields every hop relies on, whatever the edge's contract. */
const HEADER = /^\/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:\/|$)/;

/** Whether a JSON Pointer lies in the envelope's header (`/hop/index`, `/to_agent`...): no observe edge warns there. */
export function isHeaderPath(path: string): boolean {
  return HEADER.test(path);
}

/**
 * Turns a validator's errors into reasons, each (rule, path) once: a contract's validator can
 * report a fault at {@link STATED_TWICE} twice, and the first is kept.
 *
 * @param errors - a validate function's `errors` (Ajv, `allErrors`, `messages: false`), in its order
 */
export function schemaReasons(errors: readonly SchemaError[]): SchemaReasons {
  const reasons: Reason[] = [];
  const reported = new Set<string>();
  const listed = new Map<string, number>();
  const counted = new Map<string, { path: string; rule: string; message: string; count: number }>();
  let headerFaultCounted = false;
  let faultyRefs: Set<number> | undefined;
  // The errors of one value come together: its pointer is read once, not once per error.
  let lastInstancePath: string | undefined;
  let itemAt = -1; // i for /artefacts/i
  let refAt = -1; // i for /artefacts/i/ref
  for (const error of errors) {
    const { instancePath } = error;
    if (instancePath !== lastInstancePath) {
      lastInstancePath = instancePath;
      const artefact = instancePath.startsWith("/artefacts/") ? ARTEFACT.exec(instancePath) : null;
      itemAt = artefact === null || artefact[2] !== undefined ? -1 : Number(artefact[1]);
      refAt = artefact === null || artefact[2] === undefined ? -1 : Number(artefact[1]);
    }
    const rule = schemaRuleOf(error.keyword);
    const name = nameOf(error);
    if (instancePath === STATED_TWICE) {
      const key = `${rule}\u0000${name ?? ""}`;
      if (reported.has(key)) continue;
      reported.add(key);
    }
    // A fault at /artefacts/i/ref, or ref missing from /artefacts/i.
    const ref = name === undefined ? refAt : name === "ref" ? itemAt : -1;
    if (ref >= 0) (faultyRefs ??= new Set()).add(ref);
    const count = (listed.get(rule) ?? 0) + 1;
    if (count <= PER_RULE_LIMIT) {
      listed.set(rule, count);
      reasons.push(schemaErrorToReason(error));
      continue;
    }
    const more = counted.get(rule);
    // A counted fault's pointer is made only where it is needed: most are only counted.
    const path = more === undefined || (!headerFaultCounted && instancePath === "") ? pointerOf(instancePath, name) : "";
    if (more === undefined) {
      const first = { path, rule, message: "", count: 1 };
      counted.set(rule, first);
      reasons.push(first satisfies CountedReasons);
    } else more.count++;
    // Below the root a pointer lies where its value's does; at the root it names a field.
    if (!headerFaultCounted) headerFaultCounted = isHeaderPath(instancePath === "" ? path : instancePath);
  }
  return { reasons, headerFaultCounted, faultyRefs };
}
