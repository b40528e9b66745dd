/**
 * The handoff envelope, version 1.3, as a JSON Schema draft 2020-12 document.
 *
 * The 1.2.0 envelope (typed, versioned, pointers not payloads) plus four optional fields for
 * completion and resumption: `status`, `allowed_next_step`, `safe_resume` and `blocked_on`. Every object is
 * closed (`additionalProperties: false`) so an invented field is an error at the boundary,
 * not silent data loss. A 1.2.0 envelope is a valid 1.3 envelope: the new fields are optional and
 * no 1.2.0 constraint is tightened (so `hop.path` entries and agent ids may still be empty strings
 * here; the graph's own checks refuse ids it does not know).
 */

/** The envelope version this schema describes. */
export const ENVELOPE_VERSION = { major: 1, minor: 3 } as const;

/**
 * The namespace of every `$id` Seam writes. A URN (RFC 8141) names a schema without locating it:
 * an `https:` id on a domain the project does not hold would point at whoever holds it, and tools
 * that fetch `$id`s would ask that site for Seam's schemas.
 */
export const SCHEMA_ID_PREFIX = "urn:seam-handoff:schema:";

/** The `$id` of the envelope schema. */
export const ENVELOPE_SCHEMA_ID = `${SCHEMA_ID_PREFIX}handoff-envelope:1.3`;

/** Values of the optional `status` field (the completion signal). */
export const ENVELOPE_STATUSES = ["ready", "partial", "blocked", "waiting_review", "failed"] as const;

/** A JSON Schema node as plain data (the subset this project writes). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * Upper bound of every integer field: `Number.MAX_SAFE_INTEGER` (2^53 - 1). JSON Schema's
 * `integer` accepts any number with a zero fraction, so `1e308` or `99999999999999999999999`
 * would pass and then be compared as imprecise doubles (a hop index of 1e308 is "an integer"
 * and only reached the hop-limit check). Past 2^53 - 1 a JavaScript number no longer counts
 * exactly, so larger values are refused as out of range (rule `maximum`). No real counter
 * comes near it: 1.2.0 envelopes stay valid.
 */
export const MAX_ENVELOPE_INTEGER = Number.MAX_SAFE_INTEGER;

const nonNegativeInteger = { type: "integer", minimum: 0, maximum: MAX_ENVELOPE_INTEGER } as const;

/**
 * The envelope schema. Treat as read-only data; emitters clone it before adding per-edge
 * constraints.
 */
export const envelopeSchema: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: ENVELOPE_SCHEMA_ID,
  title: "Seam handoff envelope 1.3",
  type: "object",
  additionalProperties: false,
  required: ["envelope_version", "handoff_id", "task_id", "hop", "from_agent", "to_agent", "goal", "budget", "provenance"],
  properties: {
    envelope_version: { type: "string", pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$" },
    handoff_id: { type: "string", format: "uuid" },
    task_id: { type: "string", minLength: 1 },
    hop: {
      type: "object",
      additionalProperties: false,
      required: ["index", "limit"],
      properties: {
        index: nonNegativeInteger,
        limit: { type: "integer", minimum: 1, maximum: MAX_ENVELOPE_INTEGER },
        path: { type: "array", items: { type: "string" } },
      },
    },
    from_agent: { $ref: "#/$defs/agent_ref" },
    to_agent: { $ref: "#/$defs/agent_ref" },
    goal: {
      type: "object",
      additionalProperties: false,
      required: ["statement", "acceptance_criteria"],
      properties: {
        statement: { type: "string", minLength: 1, maxLength: 2000 },
        acceptance_criteria: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
        out_of_scope: { type: "array", items: { type: "string" } },
      },
    },
    decisions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "statement", "rationale", "confidence", "reversible"],
        properties: {
          id: { type: "string" },
          statement: { type: "string" },
          rationale: { type: "string" },
          confidence: { type: "number", minimum: 0, maximum: 1 },
          reversible: { type: "boolean" },
          evidence: { type: "array", items: { type: "string" } },
        },
      },
    },
    artefacts: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["ref", "media_type", "role"],
        properties: {
          ref: { type: "string", format: "uri" },
          media_type: { type: "string" },
          role: { enum: ["required", "supporting", "superseded"] },
          digest: { type: "string", pattern: "^sha256:[a-f0-9]{64}$" },
          byte_size: nonNegativeInteger,
          summary: { type: "string", maxLength: 500 },
          read_scope: { type: "string" },
        },
      },
    },
    constraints: { type: "array", items: { type: "string" } },
    budget: {
      type: "object",
      additionalProperties: false,
      required: ["consumed", "limit"],
      properties: {
        consumed: { $ref: "#/$defs/budget_counters" },
        limit: { $ref: "#/$defs/budget_counters" },
      },
    },
    open_questions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["question", "blocking"],
        properties: {
          question: { type: "string" },
          blocking: { type: "boolean" },
          owner_hint: { type: "string" },
        },
      },
    },
    provenance: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["agent", "action", "at", "status"],
        properties: {
          agent: { type: "string" },
          action: { type: "string" },
          at: { type: "string", format: "date-time" },
          status: { enum: ["verified", "asserted", "unverified"] },
          note: { type: "string" },
        },
      },
    },
    status: { enum: ENVELOPE_STATUSES },
    allowed_next_step: { type: "string", minLength: 1 },
    safe_resume: { type: "string", minLength: 1 },
    blocked_on: { type: "string", minLength: 1 },
  },
  $defs: {
    agent_ref: {
      type: "object",
      additionalProperties: false,
      required: ["id", "role"],
      properties: {
        id: { type: "string" },
        role: { enum: ["supervisor", "worker", "peer"] },
        version: { type: "string" },
      },
    },
    budget_counters: {
      type: "object",
      additionalProperties: false,
      properties: {
        tokens: nonNegativeInteger,
        wall_clock_ms: nonNegativeInteger,
        tool_calls: nonNegativeInteger,
        retries: nonNegativeInteger,
        cost_micros: nonNegativeInteger,
      },
    },
  },
};
