/**
 * Why an envelope was refused (or, on an `observe` edge, warned about): `{ path, rule, message }`
 * with `path` a JSON Pointer (RFC 6901) into the envelope and `rule` a stable kebab-case id: a
 * structured rejection that names every violated field, so a producer can repair them all at once.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import { appendPointer } from "./json-pointer.js";
import { PER_RULE_LIMIT, renderMessage, renderMore, RUNTIME_RULES, type CatalogueRule, type MessageParams } from "./reason-catalogue.js";

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
 * The rule ids of the checks beyond the JSON Schema, with what each means (from the runtime
 * catalogue, `reasons.json`). Schema errors use the JSON Schema keyword in kebab-case instead
 * (`type`, `required`, `additional-property`, `enum`, `const`, `format`, `pattern`, `minimum`,
 * `maximum`, `min-length`, `max-length`, `min-items`).
 */
export const SEMANTIC_RULES = RUNTIME_RULES;

/** A rule id of a check beyond the JSON Schema. */
export type SemanticRule = CatalogueRule;

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

/** Makes the {@link Reason} of catalogue rule `rule` with its message `id`, filled with `params`. */
export function ruleReason(path: string, rule: CatalogueRule, id: string, params?: MessageParams): Reason {
  return { path, rule, message: renderMessage(rule, id, params) };
}

/**
 * Reasons of one rule past {@link PER_RULE_LIMIT} that were counted where they were found instead
 * of being listed (a validator can report 10^6 errors for one envelope): `count` of them, the
 * first at `path`. Only {@link capReasons} reads it; it never reaches a verdict.
 */
export interface CountedReasons extends Reason {
  readonly count: number;
}

/**
 * `reasons` with at most {@link PER_RULE_LIMIT} of each rule, in their order; past the limit, one
 * final reason per rule at the first left-out reason's path says how many more there were. So a
 * verdict's size is bounded by the number of rules, whatever the envelope holds. A
 * {@link CountedReasons} counts as its `count` reasons of its rule, all of them left out.
 */
export function capReasons(reasons: Reason[]): Reason[] {
  // A CountedReasons comes after PER_RULE_LIMIT listed reasons of its rule: a short list has none.
  if (reasons.length <= PER_RULE_LIMIT) return reasons;
  const counts = new Map<string, number>();
  const kept: Reason[] = [];
  const over = new Map<string, { path: string; count: number }>();
  for (const found of reasons) {
    const counted = (found as Partial<CountedReasons>).count;
    const seen = (counts.get(found.rule) ?? 0) + (counted ?? 1);
    counts.set(found.rule, seen);
    if (counted === undefined && seen <= PER_RULE_LIMIT) kept.push(found);
    else {
      const more = over.get(found.rule);
      if (more === undefined) over.set(found.rule, { path: found.path, count: counted ?? 1 });
      else more.count += counted ?? 1;
    }
  }
  if (over.size === 0) return reasons;
  for (const [rule, { path, count }] of over) kept.push({ path, rule, message: renderMore(rule, count) });
  return kept;
}

function quote(value: unknown): string {
  return quoteUntrusted(value);
}

/** `1 item`, `2 items`: a schema limit with its noun in the number it takes. */
function counted(limit: unknown, noun: string): string {
  return `${String(limit)} ${limit === 1 ? noun : `${noun}s`}`;
}

const schemaRules = new Map<string, string>();

/** The rule id of a JSON Schema keyword: kebab-case, `additional-property` for `additionalProperties`. */
export function schemaRuleOf(keyword: string): string {
  let rule = schemaRules.get(keyword);
  if (rule === undefined) {
    // `additional-property` names what is wrong (one property) rather than the keyword.
    rule = keyword === "additionalProperties" ? "additional-property" : keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    schemaRules.set(keyword, rule);
  }
  return rule;
}

/**
 * Turns one Ajv error (compiled with `messages: false`) into a {@link Reason}, with Seam's own
 * wording so that emitted modules and the in-memory validators say exactly the same thing.
 *
 * @param error - an entry of a validate function's `errors`
 */
export function schemaErrorToReason(error: SchemaError): Reason {
  const { keyword, params, instancePath } = error;
  const rule = schemaRuleOf(keyword);
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
        message: `must have ${keyword === "minLength" ? "at least" : "at most"} ${counted(params["limit"], "character")}`,
      };
    case "minItems":
      return { path: instancePath, rule, message: `must have at least ${counted(params["limit"], "item")}` };
    default:
      return { path: instancePath, rule, message: `fails the JSON Schema keyword ${keyword}` };
  }
}
