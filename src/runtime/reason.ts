/**
 * Why an envelope was refused (or, on an `observe` edge, warned about): `{ path, rule, message }`
 * with `path` a JSON Pointer (RFC 6901) into the envelope and `rule` a stable kebab-case id: a
 * structured rejection that names every violated field, so a producer can repair them all at once.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import { appendPointer } from "./json-pointer.js";

/** One violated rule. */
export interface Reason {
  /**
   * JSON Pointer (RFC 6901) of the offending field: for an unexpected property the pointer to
   * that property (`/payload`), for a missing required property the pointer it should have had
   * (`/status`), `""` for the envelope as a whole.
   */
  readonly path: string;
  /** A rule id from {@link SEMANTIC_RULES}, or a schema keyword in kebab-case (`type`, `required`, `additional-property`...). */
  readonly rule: string;
  /** One sentence for people. */
  readonly message: string;
}

/**
 * The rule ids of the checks beyond the JSON Schema, with what each means. Schema errors use the
 * JSON Schema keyword in kebab-case instead (`type`, `required`, `additional-property`, `enum`,
 * `const`, `format`, `pattern`, `minimum`, `maximum`, `min-length`, `max-length`, `min-items`).
 */
export const SEMANTIC_RULES = {
  "unreadable-envelope": "reading the envelope threw (a getter, a proxy): it is not plain JSON data",
  "not-json-data": "a value JSON cannot hold: an inherited property or class instance, undefined, NaN, a function, a hole, a cycle or shared part, nesting past 64 levels",
  "unpaired-surrogate": "a string or property name holds an unpaired UTF-16 surrogate: it is not Unicode text",
  "version-major": "envelope_version has a major version this graph does not speak",
  "not-addressed-to-me": "to_agent.id is not the receiving agent",
  "hop-limit-reached": "hop.index (or the length of hop.path) is at or past the graph's hop limit, or the envelope's own lower hop.limit: route by on_hop_limit, do not forward",
  "budget-exhausted": "a budget.consumed counter is at or over its budget.limit",
  "artefact-unreadable": "canRead refused (or threw for) a required artefact",
  "blocking-question": "an open question is marked blocking",
  "unknown-edge": "the graph has no edge from from_agent.id to to_agent.id",
  "role-mismatch": "from_agent.role or to_agent.role is not the role the graph gives that agent",
  "agent-version": "from_agent.version or to_agent.version names another major than the agent's declared version, a newer minor, or no version at all",
  "bad-hop-path": "hop.path is not a walk of the graph from an entry that ends in from -> to with hop.index + 1 entries",
  "max-rounds-exceeded": "hop.path takes an edge more often than its max_rounds",
  duplicate: "this handoff_id was accepted before (a redelivery), or this task's hop was accepted by this receiver under another handoff_id (a replay): not processed twice",
  "owner-conflict": "another agent already accepted this task_id at this hop.index (one owner at a time)",
  "not-owner": "from_agent.id is not the task's owner, the agent that accepted its last hop: only the owner hands it on",
  "path-disagrees": "a hop.path entry differs from the agent the task ledger recorded at that step",
  "hop-skipped": "hop.index is past the task's next hop (its last accepted hop + 1, or 1 for a task with no accepted hop): a hop no one accepted",
  "hop-reset": "hop.index is below the task's next hop and is no replay: a counter gone backwards",
  "task-finished": "the task ended at a terminal (finish); it takes no further handoff",
  "untracked-task": "with a store, task_id is not a string: the refusal cannot be counted per task, so it escalates instead of going back for repair",
} as const;

/** A rule id of a check beyond the JSON Schema. */
export type SemanticRule = keyof typeof SEMANTIC_RULES;

/** The part of an Ajv error object that reasons are made from (`messages: false` output). */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: { readonly [name: string]: unknown };
}

/** Makes a {@link Reason}. */
export function reason(path: string, rule: string, message: string): Reason {
  return { path, rule, message };
}

function quote(value: unknown): string {
  return quoteUntrusted(value);
}

/**
 * Turns one Ajv error (compiled with `messages: false`) into a {@link Reason}, with Seam's own
 * wording so that emitted modules and the in-memory validators say exactly the same thing.
 *
 * @param error - an entry of a validate function's `errors`
 */
export function schemaErrorToReason(error: SchemaError): Reason {
  const { keyword, params, instancePath } = error;
  // `additional-property` names what is wrong (one property) rather than the keyword.
  const rule = keyword === "additionalProperties" ? "additional-property" : keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  switch (keyword) {
    case "required": {
      const name = String(params["missingProperty"]);
      return { path: appendPointer(instancePath, name), rule, message: `missing required field ${quote(name)}` };
    }
    case "additionalProperties": {
      const name = String(params["additionalProperty"]);
      return {
        path: appendPointer(instancePath, name),
        rule,
        message: `unexpected field ${quote(name)}: the envelope is closed, add no fields of your own`,
      };
    }
    case "type":
      return { path: instancePath, rule, message: `must be of type ${String(params["type"])} (values are never coerced)` };
    case "enum": {
      const allowed = params["allowedValues"];
      const list = Array.isArray(allowed) ? allowed.map(quote).join(", ") : "";
      return { path: instancePath, rule, message: `must be one of ${list}` };
    }
    case "const":
      return { path: instancePath, rule, message: `must be ${quote(params["allowedValue"])}` };
    case "format":
      return { path: instancePath, rule, message: `must be a valid ${String(params["format"])}` };
    case "pattern":
      return { path: instancePath, rule, message: `must match the pattern ${String(params["pattern"])}` };
    case "minimum":
    case "maximum":
      return {
        path: instancePath,
        rule,
        message: `must be ${keyword === "minimum" ? "at least" : "at most"} ${String(params["limit"])}`,
      };
    case "minLength":
    case "maxLength":
      return {
        path: instancePath,
        rule,
        message: `must have ${keyword === "minLength" ? "at least" : "at most"} ${String(params["limit"])} characters`,
      };
    case "minItems":
      return { path: instancePath, rule, message: `must have at least ${String(params["limit"])} items` };
    default:
      return { path: instancePath, rule, message: `fails the JSON Schema keyword ${keyword}` };
  }
}
