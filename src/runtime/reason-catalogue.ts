/**
 * The catalogue of runtime reasons (`reasons.json`, read by the Python runtime too): each rule id
 * with its one-line description and message templates, the per-rule limit of a verdict and the
 * wording of its final "N more" reason. Messages are rendered here and nowhere else in the
 * JavaScript runtime (the model: TypeSpec's `messages.ts`, ESLint's `meta.messages`).
 */
import catalogue from "./reasons.json" with { type: "json" };

/**
 * A rule id of the runtime catalogue (a string: the catalogue is data, shared with Python; an
 * unknown id is an internal error when a message is rendered, and a test holds every id used).
 */
export type CatalogueRule = string;

interface CatalogueEntry {
  readonly description: string;
  readonly messages: { readonly [id: string]: string };
}

const RULES: { readonly [rule: string]: CatalogueEntry } = catalogue.rules;

/** How many reasons of one rule a verdict lists; the rest are counted in one final reason. */
export const PER_RULE_LIMIT: number = catalogue.perRuleLimit;

/** The default size limit of an envelope read by `parseEnvelope`, in bytes of UTF-8 (1 MiB). */
export const MAX_ENVELOPE_BYTES: number = catalogue.maxEnvelopeBytes;

/**
 * The deepest nesting of arrays and objects either runtime takes: `parseEnvelope` refuses a text
 * nested deeper (`invalid-json`, RFC 8259 section 9 lets a parser limit it) and `accept()` a value
 * (`not-json-data`). Far beyond the envelope's own (6 levels), far below a stack overflow, and
 * the same in the Python runtime, which reads it from `reasons.json` too.
 */
export const MAX_DEPTH: number = catalogue.maxDepth;

/** How many tasks the loop detector remembers by default (the least recently observed go first). */
export const LOOP_MAX_TASKS: number = catalogue.loopMaxTasks;

/** How many loop signatures the loop detector keeps per task by default. */
export const LOOP_MAX_SIGNATURES_PER_TASK: number = catalogue.loopMaxSignaturesPerTask;

/** Every runtime rule id with its one-line description. */
export const RUNTIME_RULES: { readonly [rule: string]: string } = Object.freeze(Object.fromEntries(Object.entries(RULES).map(([id, rule]) => [id, rule.description])));

/** A template's parameters: numbers, or text already quoted and bounded by the caller. */
export type MessageParams = { readonly [name: string]: string | number };

const PLACEHOLDER = /\{([a-z]+)\}/g;

function fill(template: string, params: MessageParams, what: string): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`internal: ${what} needs parameter ${name}`);
    return String(value);
  });
}

/**
 * The message `id` of rule `rule`, filled with `params`.
 *
 * @throws Error for an unknown rule, message or missing parameter (a bug in Seam, not bad input)
 */
export function renderMessage(rule: CatalogueRule, id: string, params: MessageParams = {}): string {
  const template = Object.hasOwn(RULES, rule) ? RULES[rule]?.messages[id] : undefined;
  if (template === undefined) throw new Error(`internal: rule ${rule} has no message ${id}`);
  return fill(template, params, `${rule}/${id}`);
}

/** The final reason of a rule past {@link PER_RULE_LIMIT}: how many more were found. */
export function renderMore(rule: string, count: number): string {
  return fill(catalogue.more, { count, rule, limit: PER_RULE_LIMIT }, "more");
}
