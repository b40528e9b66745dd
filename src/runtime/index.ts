/**
 * `seam-handoff/runtime`: what emitted validator modules import, and what agent services may use
 * directly (accept, loop signatures, the duplicate/ownership store, the escaper for logs).
 */
export {
  createAcceptors,
  type Accept,
  type AcceptAsync,
  type AcceptAsyncOptions,
  type AcceptOptions,
  type AcceptResult,
  type AcceptSpec,
  type Accepted,
  type AcceptanceRecord,
  type Acceptors,
  type CanRead,
  type CanReadAsync,
  type Refused,
  type Rejection,
  type RejectionRoute,
  type Route,
  type ValidateFunction,
} from "./accept.js";
export type {
  AgentRef,
  Artefact,
  Budget,
  BudgetCounters,
  Decision,
  Envelope,
  EnvelopeRole,
  EnvelopeStatus,
  Goal,
  Hop,
  OpenQuestion,
  ProvenanceEntry,
} from "./envelope.js";
export {
  createEnvelopeBuilder,
  type EnvelopeBuilder,
  type EnvelopeBuilderSpec,
  type FirstHandoff,
  type HandoffContent,
  type NextHandoff,
} from "./envelope-builder.js";
export type { AgentInfo, EdgeInfo, EdgeKind, GraphInfo, HopLimitAction, Outcome, Role, TerminalInfo } from "./graph-data.js";
export { createLoopDetector, type LoopDetector, type LoopObservation } from "./loop-detector.js";
export { createLoopSignature, type LoopSignature } from "./loop-signature.js";
export { SEMANTIC_RULES, schemaErrorToReason, type Reason, type SchemaError, type SemanticRule } from "./reason.js";
export { equal, formats, ucs2length } from "./schema-helpers.js";
export {
  createMemorySeenStore,
  type AsyncSeenStore,
  type ClaimEdge,
  type ClaimHolder,
  type ClaimRequest,
  type ClaimResult,
  type SeenStore,
} from "./seen-store.js";
export { escapeUntrusted, quoteUntrusted, stringifyUntrusted, QUOTE_LIMIT } from "../core/untrusted-text.js";
