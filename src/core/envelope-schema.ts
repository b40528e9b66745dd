/**
 * The handoff envelope, version 1.4, as a JSON Schema draft 2020-12 document.
 *
 * The 1.2.0 envelope (typed, versioned, pointers not payloads) plus four optional fields for
 * completion and resumption: `status`, `allowed_next_step`, `safe_resume` and `blocked_on`. Every object is
 * closed (`additionalProperties: false`) so an invented field is an error at the boundary,
 * not silent data loss. A 1.2.0 envelope is a valid 1.3 envelope: the new fields are optional and
 * no 1.2.0 constraint is tightened (so `hop.path` entries and agent ids may still be empty strings
 * here; the graph's own checks refuse ids it does not know).
 *
 * 1.4 adds two optional fields: `approval`, the record an approval gate writes (who approved,
 * when, and which pending handoff the approval answers), and `hop.branch`, the branch of a
 * fan-out a handoff travels in (one owner per task, hop and branch). Every 1.3 envelope is a 1.4
 * envelope, and the 1.3 schema (`envelopeSchemaFor({ major: 1, minor: 3 })`) is the 1.4 schema
 * without them, byte for byte what it was before 1.4 existed.
 */

/** The newest envelope version, the one {@link envelopeSchema} describes. */
export const ENVELOPE_VERSION = { major: 1, minor: 4 } as const;

/**
 * The envelope version of a graph that writes no `envelope` line. It stays 1.3, so that adding
 * a newer minor changes no existing graph's schemas; a graph that needs 1.4's fields (approval
 * gates) says `envelope 1.4`.
 */
export const DEFAULT_ENVELOPE_VERSION = { major: 1, minor: 3 } as const;

/**
 * The namespace of every `$id` Seam writes. A URN (RFC 8141) names a schema without locating it:
 * an `https:` id on a domain the project does not hold would point at whoever holds it, and tools
 * that fetch `$id`s would ask that site for Seam's schemas.
 */
export const SCHEMA_ID_PREFIX = "urn:seam-handoff:schema:";

/** The `$id` of the envelope schema. */
export const ENVELOPE_SCHEMA_ID = `${SCHEMA_ID_PREFIX}handoff-envelope:1.4`;

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
  title: "Seam handoff envelope 1.4",
  type: "object",
  additionalProperties: false,
  required: ["envelope_version", "handoff_id", "task_id", "hop", "from_agent", "to_agent", "goal", "budget", "provenance"],
  properties: {
    envelope_version: { description: "Version of the envelope format the producer wrote, as major.minor.patch (1.3.0).", type: "string", pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$" },
    handoff_id: { description: "Unique id of this one handoff (a UUID); ingest uses it to refuse a replayed envelope.", type: "string", format: "uuid" },
    task_id: { description: "Id of the task the handoff belongs to; every hop of one task carries the same id.", type: "string", minLength: 1 },
    hop: {
      description: "Where the task is on its way through the graph: how many handoffs it has taken and how many it may take.",
      type: "object",
      additionalProperties: false,
      required: ["index", "limit"],
      properties: {
        index: { ...nonNegativeInteger, description: "Handoffs the task has taken so far, this one included." },
        limit: { description: "The graph's hop limit: ingest refuses the envelope when index reaches it.", type: "integer", minimum: 1, maximum: MAX_ENVELOPE_INTEGER },
        path: { description: "Ids of the agents the task has passed through, in order.", type: "array", items: { type: "string" } },
        branch: {
          description: "The branch of a fan-out this handoff travels in, as FAN_OUT/AGENT: the fan-out's name and the agent its branch edge delegates to (research/sanctions). Absent outside a fan-out.",
          type: "string",
          minLength: 3,
          maxLength: 256,
        },
      },
    },
    from_agent: { description: "The agent handing the task over.", $ref: "#/$defs/agent_ref" },
    to_agent: { description: "The agent receiving the task.", $ref: "#/$defs/agent_ref" },
    goal: {
      description: "What the task must achieve.",
      type: "object",
      additionalProperties: false,
      required: ["statement", "acceptance_criteria"],
      properties: {
        statement: { description: "The goal in one or two sentences.", type: "string", minLength: 1, maxLength: 2000 },
        acceptance_criteria: { description: "Checks that tell the receiver when the goal is met; at least one.", type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
        out_of_scope: { description: "What the receiver must not do for this task.", type: "array", items: { type: "string" } },
      },
    },
    decisions: {
      description: "Decisions already taken on the task, so the receiver does not reopen them.",
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "statement", "rationale", "confidence", "reversible"],
        properties: {
          id: { description: "Id of the decision, unique within the task.", type: "string" },
          statement: { description: "What was decided.", type: "string" },
          rationale: { description: "Why it was decided, so a later agent can judge whether it still holds.", type: "string" },
          confidence: { description: "How sure the deciding agent was, from 0 to 1.", type: "number", minimum: 0, maximum: 1 },
          reversible: { description: "Whether the decision can still be undone.", type: "boolean" },
          evidence: { description: "References to what supports the decision.", type: "array", items: { type: "string" } },
        },
      },
    },
    artefacts: {
      description: "Pointers to the work products handed over (references, not payloads).",
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["ref", "media_type", "role"],
        properties: {
          ref: { description: "Where the artefact is, as a URI.", type: "string", format: "uri" },
          media_type: { description: "The artefact's media type, such as text/markdown.", type: "string" },
          role: { description: "How the receiver should treat the artefact: required, supporting or superseded.", enum: ["required", "supporting", "superseded"] },
          digest: { description: "SHA-256 digest of the content, as sha256:<64 hex digits>.", type: "string", pattern: "^sha256:[a-f0-9]{64}$" },
          byte_size: { ...nonNegativeInteger, description: "Size of the content in bytes." },
          summary: { description: "A short summary of the content (at most 500 characters).", type: "string", maxLength: 500 },
          read_scope: { description: "What part of the artefact the receiver needs to read.", type: "string" },
        },
      },
    },
    constraints: { description: "Rules the receiver must keep to while working on the task.", type: "array", items: { type: "string" } },
    budget: {
      description: "What the task has used and may use.",
      type: "object",
      additionalProperties: false,
      required: ["consumed", "limit"],
      properties: {
        consumed: { description: "What the task has used so far.", $ref: "#/$defs/budget_counters" },
        limit: { description: "The most the task may use.", $ref: "#/$defs/budget_counters" },
      },
    },
    open_questions: {
      description: "Questions still open on the task.",
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["question", "blocking"],
        properties: {
          question: { description: "The question.", type: "string" },
          blocking: { description: "Whether work cannot go on until it is answered.", type: "boolean" },
          owner_hint: { description: "Who could answer it.", type: "string" },
        },
      },
    },
    provenance: {
      description: "Who did what to the task so far, with how well it was checked; at least one entry.",
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["agent", "action", "at", "status"],
        properties: {
          agent: { description: "Id of the agent that acted.", type: "string" },
          action: { description: "What it did.", type: "string" },
          at: { description: "When, as an RFC 3339 date-time.", type: "string", format: "date-time" },
          status: { description: "How well the action was checked: verified, asserted or unverified.", enum: ["verified", "asserted", "unverified"] },
          note: { description: "Anything else worth knowing about the action.", type: "string" },
        },
      },
    },
    status: { description: "How far the sender got: ready, partial, blocked, waiting_review or failed.", enum: ENVELOPE_STATUSES },
    allowed_next_step: { description: "The one step the receiver may take next.", type: "string", minLength: 1 },
    safe_resume: { description: "Where work can safely pick up again after an interruption.", type: "string", minLength: 1 },
    blocked_on: { description: "What the task is waiting for.", type: "string", minLength: 1 },
    approval: {
      description: "The approval an approval gate gave: who approved, when, and which pending handoff it answers.",
      type: "object",
      additionalProperties: false,
      required: ["approver", "approved_at", "pending_handoff_id"],
      properties: {
        approver: { description: "Who approved: a person's or a reviewing service's id.", type: "string", minLength: 1 },
        approved_at: { description: "When, as an RFC 3339 date-time.", type: "string", format: "date-time" },
        pending_handoff_id: { description: "The handoff_id of the handoff that waited for this approval (status waiting_review).", type: "string", format: "uuid" },
        note: { description: "What the approver said, if anything.", type: "string" },
      },
    },
  },
  $defs: {
    agent_ref: {
      description: "An agent of the graph: its id, role and version.",
      type: "object",
      additionalProperties: false,
      required: ["id", "role"],
      properties: {
        id: { description: "The agent's id in the graph.", type: "string" },
        role: { description: "The agent's role: supervisor, worker or peer.", enum: ["supervisor", "worker", "peer"] },
        version: { description: "The agent's version.", type: "string" },
      },
    },
    budget_counters: {
      description: "Counters of what a task uses.",
      type: "object",
      additionalProperties: false,
      properties: {
        tokens: { ...nonNegativeInteger, description: "Model tokens." },
        wall_clock_ms: { ...nonNegativeInteger, description: "Elapsed time in milliseconds." },
        tool_calls: { ...nonNegativeInteger, description: "Tool calls made." },
        retries: { ...nonNegativeInteger, description: "Retries made." },
        cost_micros: { ...nonNegativeInteger, description: "Cost in millionths of the billing currency unit." },
      },
    },
  },
};

/**
 * What each supported minor version of envelope 1 holds, oldest first: the fields it adds to the
 * one before. 1.2 is the published 1.2.0 envelope (closed objects, typed, versioned, pointers
 * rather than payloads); no field set older than 1.2.0 was ever published, so 1.0 and 1.1 name
 * the same fields as 1.2 (they add nothing). 1.3 adds the four optional completion fields, 1.4
 * the approval record and `hop.branch` (a nested field, named by its dotted path).
 * Minor versions only ever add optional fields, so an envelope valid for 1.N is valid for 1.M,
 * M >= N (semantic versioning, https://semver.org).
 */
export const ENVELOPE_MINOR_VERSIONS: readonly { readonly minor: number; readonly adds: readonly string[] }[] = [
  { minor: 0, adds: [] },
  { minor: 1, adds: [] },
  { minor: 2, adds: [] },
  { minor: 3, adds: ["status", "allowed_next_step", "safe_resume", "blocked_on"] },
  { minor: 4, adds: ["approval", "hop.branch"] },
];

/** The minor version that added top-level field `name`, or `undefined` for a field of every version. */
export function envelopeFieldSince(name: string): number | undefined {
  return ENVELOPE_MINOR_VERSIONS.find((v) => v.adds.includes(name))?.minor;
}

/**
 * The `$id` of the envelope schema of one version: {@link ENVELOPE_SCHEMA_ID} with its version
 * part replaced.
 */
export function envelopeSchemaIdFor(version: { readonly major: number; readonly minor: number }): string {
  const current = `${ENVELOPE_VERSION.major}.${ENVELOPE_VERSION.minor}`;
  const at = ENVELOPE_SCHEMA_ID.lastIndexOf(current);
  return `${ENVELOPE_SCHEMA_ID.slice(0, at)}${version.major}.${version.minor}${ENVELOPE_SCHEMA_ID.slice(at + current.length)}`;
}

const schemaByMinor = new Map<number, JsonSchema>();

/** `node` (the property `name`) without the nested fields `later` names as `name.field`; the same object when it loses none. */
function withoutNested(node: JsonSchema, name: string, later: readonly string[]): JsonSchema {
  const gone = later.filter((field) => field.startsWith(`${name}.`)).map((field) => field.slice(name.length + 1));
  if (gone.length === 0) return node;
  const kept = Object.entries(node["properties"] as Record<string, unknown>).filter(([field]) => !gone.includes(field));
  return { ...node, properties: Object.fromEntries(kept) };
}

/**
 * The envelope schema of version `1.minor` (0 to {@link ENVELOPE_VERSION}.minor): the newest
 * schema without the fields added after that version, under its own `$id` and title. Built once
 * per version and shared: treat as read-only.
 *
 * @throws Error for a version this Seam does not know (the checker's `unsupported-envelope`
 *   rule refuses such graphs first)
 */
export function envelopeSchemaFor(version: { readonly major: number; readonly minor: number }): JsonSchema {
  if (version.major !== ENVELOPE_VERSION.major || version.minor < 0 || version.minor > ENVELOPE_VERSION.minor) {
    throw new Error(`internal: no envelope schema for version ${version.major}.${version.minor}`);
  }
  if (version.minor === ENVELOPE_VERSION.minor) return envelopeSchema;
  const cached = schemaByMinor.get(version.minor);
  if (cached !== undefined) return cached;
  const later = ENVELOPE_MINOR_VERSIONS.filter((v) => v.minor > version.minor).flatMap((v) => v.adds);
  const properties = Object.fromEntries(
    Object.entries(envelopeSchema["properties"] as Record<string, JsonSchema>)
      .filter(([name]) => !later.includes(name))
      .map(([name, node]) => [name, withoutNested(node, name, later)]),
  );
  const schema: JsonSchema = {
    ...envelopeSchema,
    $id: envelopeSchemaIdFor(version),
    title: `Seam handoff envelope ${version.major}.${version.minor}`,
    properties,
  };
  schemaByMinor.set(version.minor, schema);
  return schema;
}
