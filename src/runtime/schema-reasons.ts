/**
 * The reasons of a validator's JSON Schema errors (stage 1 of `accept()`): each (rule, path) once,
 * the first {@link PER_RULE_LIMIT} of a rule with their messages, the rest only counted. An
 * envelope within the 1 MiB limit can make a validator report 1.7 * 10^6 errors (a `decisions`
 * array of empty objects, five missing fields each); building a reason and a message for each
 * cost seconds and hundreds of MB per envelope, where Ajv's own pass costs a fifth of that. So a
 * rule past its limit gets one {@link CountedReasons} in the list, at the place of its first
 * left-out reason, which `capReasons` turns into the "and N more" reason the full list would give.
 */
import { EACH_ITEM, parseFieldPath } from "./field-path.js";
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

const ARTEFACT = /^\/artefacts\/(\d+)(?:\/ref)?$/;

/** The index i of a pointer `/artefacts/i` or `/artefacts/i/ref`, else -1. */
function artefactOf(instancePath: string): number {
  if (!instancePath.startsWith("/artefacts/")) return -1;
  const match = ARTEFACT.exec(instancePath);
  return match === null ? -1 : Number(match[1]);
}

/** The property a `required` or `additionalProperties` error names, else undefined. */
function nameOf(error: SchemaError): string | undefined {
  const { keyword, params } = error;
  const name = keyword === "required" ? params["missingProperty"] : keyword === "additionalProperties" ? params["additionalProperty"] : undefined;
  return name === undefined ? undefined : String(name);
}

/** A place of {@link RestatedLocations}: the named fields below it. */
export interface RestatedNode {
  readonly fields: ReadonlyMap<string, RestatedNode>;
}

/** Where a pointer segment is compared: the field names in a list, walked without an iterator. */
interface Node extends RestatedNode {
  readonly fields: Map<string, Node>;
  readonly names: string[];
  readonly children: Node[];
}

/** The places where a validator can report a fault twice ({@link restatedLocations}). */
export interface RestatedLocations {
  /** The place of the value at `instancePath` (a JSON Pointer), or undefined where nothing is restated. */
  nodeAt(instancePath: string): RestatedNode | undefined;
}

/** A validator that restates nothing: the envelope's alone. */
export const NOTHING_RESTATED: RestatedLocations = { nodeAt: () => undefined };

const newNode = (): Node => ({ fields: new Map(), names: [], children: [] });

/** The child named `name` of `node`, made when missing. */
function fieldOf(node: Node, name: string): Node {
  let child = node.fields.get(name);
  if (child === undefined) {
    child = newNode();
    node.fields.set(name, child);
    node.names.push(name);
    node.children.push(child);
  }
  return child;
}

/**
 * The places where a contract's validator can report a fault that its envelope's `$ref` reports
 * too. A contract's schema (`contractOverlaySchema` in src/emit/edge-schemas.ts) states only
 * what the envelope's does not, at the root, at `hop` and along its required paths; but one
 * value has a cap in both (`hop.limit`), and the places outside arrays are few, so all of them
 * are kept, as a guard. Inside an array's items the contract states nothing the envelope does,
 * and the envelope's schemas have no combinator (`anyOf`, `allOf`...), so a fault there comes
 * once and is not remembered: a set of every fault of an envelope with 10^6 of them cost more
 * than the validator's whole pass.
 *
 * @param require - the contract's required field paths (`decisions[].rationale`)
 */
export function restatedLocations(require: readonly string[]): RestatedLocations {
  const root = newNode();
  const hop = fieldOf(root, "hop");
  fieldOf(hop, "path");
  fieldOf(hop, "limit");
  for (const path of require) {
    let node = root;
    for (const segment of parseFieldPath(path) ?? []) {
      if (segment === EACH_ITEM) break;
      node = fieldOf(node, segment);
    }
  }
  return {
    nodeAt(instancePath) {
      let node: Node | undefined = root;
      // Steps along the pointer without cutting it: field names are plain (no `~`, no `/`).
      for (let at = 1; instancePath !== "" && node !== undefined; ) {
        let end = instancePath.indexOf("/", at);
        if (end < 0) end = instancePath.length;
        node = childAt(node, instancePath, at, end);
        if (end === instancePath.length) break;
        at = end + 1;
      }
      return node;
    },
  };
}

/** The child of `node` that the pointer segment `text[start, end)` names. */
function childAt(node: Node, text: string, start: number, end: number): Node | undefined {
  for (let i = 0; i < node.names.length; i++) {
    const field = node.names[i] as string;
    if (field.length === end - start && text.startsWith(field, start)) return node.children[i];
  }
  return undefined;
}

/** The header: the fields every hop relies on, whatever the edge's contract. */
const HEADER = /^\/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:\/|$)/;

/** Whether a JSON Pointer lies in the envelope's header (`/hop/index`, `/to_agent`...): no observe edge warns there. */
export function isHeaderPath(path: string): boolean {
  return HEADER.test(path);
}

/**
 * Turns a validator's errors into reasons. A contract restates the types it needs beside the
 * envelope's `$ref`, so one fault can come twice: it is reported once, where it first comes.
 *
 * @param errors - a validate function's `errors` (Ajv, `allErrors`, `messages: false`)
 * @param restated - where the validator can report a fault twice ({@link restatedLocations})
 */
export function schemaReasons(errors: readonly SchemaError[], restated: RestatedLocations): SchemaReasons {
  const reasons: Reason[] = [];
  // Only a fault where the contract restates the envelope can come twice: only those are remembered.
  const reported = new Set<string>();
  const listed = new Map<string, number>();
  const counted = new Map<string, { path: string; rule: string; message: string; count: number }>();
  let headerFaultCounted = false;
  let faultyRefs: Set<number> | undefined;
  // The errors of one value come together: its place is found once, not once per error.
  let lastInstancePath: string | undefined;
  let node: RestatedNode | undefined;
  let artefact = -1;
  for (const error of errors) {
    const { instancePath } = error;
    if (instancePath !== lastInstancePath) {
      lastInstancePath = instancePath;
      node = restated.nodeAt(instancePath);
      artefact = artefactOf(instancePath);
    }
    const rule = schemaRuleOf(error.keyword);
    const name = nameOf(error);
    if (node !== undefined && (name === undefined || node.fields.has(name))) {
      // Rule and name hold no NUL (a restated place has plain field names): the key is unambiguous.
      const key = `${rule}\u0000${name ?? ""}\u0000${instancePath}`;
      if (reported.has(key)) continue;
      reported.add(key);
    }
    // A fault at /artefacts/i/ref, or ref missing from /artefacts/i.
    if (artefact >= 0 && (name === undefined ? instancePath.endsWith("/ref") : name === "ref" && !instancePath.endsWith("/ref"))) (faultyRefs ??= new Set()).add(artefact);
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
