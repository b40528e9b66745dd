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
  DEFAULT_REPAIRS,
  type Refused,
  type Rejection,
  type RejectionRoute,
  type Route,
  type ValidateFunction,
} from "./accept.js";
export type {
  AgentRef,
  Approval,
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
  type JoinHandoff,
  type NextHandoff,
} from "./envelope-builder.js";
export type { AgentInfo, EdgeInfo, EdgeKind, FloorInfo, GraphInfo, GuardConditionInfo, GuardInfo, HopLimitAction, JoinInfo, Outcome, Role, TerminalInfo } from "./graph-data.js";
export { inheritsEnumerable } from "./json-data.js";
export { createLoopDetector, type LoopDetector, type LoopDetectorOptions, type LoopObservation } from "./loop-detector.js";
export { MAX_ENVELOPE_BYTES, parseEnvelope, type ParsedEnvelope, type ParseEnvelopeOptions } from "./parse-envelope.js";
export { createLoopSignature, type LoopSignature } from "./loop-signature.js";
export { PER_RULE_LIMIT } from "./reason-catalogue.js";
export { INGEST_RULES, type IngestRule, type IngestStage } from "./checks/index.js";
export { MAX_ID_LENGTH } from "./checks/id-too-long.js";
export { SEMANTIC_RULES, schemaErrorToReason, type Reason, type SchemaError, type SemanticRule } from "./reason.js";
export { equal, formats, ucs2length } from "./schema-helpers.js";
export type { EndRecord, Finish, FinishAsync, FinishAsyncOptions, FinishOptions, FinishVerdict } from "./finish.js";
export type { JoinReport, JoinStateAsyncOptions, JoinStateOptions } from "./join-state.js";
export type { JoinRefusal } from "./join-refusal.js";
export { commit, commitAsync, release, releaseAsync, type SettleAsyncOptions, type SettleOptions } from "./lease.js";
export {
  createMemorySeenStore,
  DEFAULT_TASK_TTL_MS,
  type AsyncSeenStore,
  type ClaimEdge,
  type ClaimHolder,
  type ClaimBranch,
  type ClaimApproval,
  type ClaimBudget,
  type ClaimJoin,
  type ClaimRequest,
  type ClaimResult,
  type CustodyFault,
  type FinishRequest,
  type FinishResult,
  type MemorySeenStoreOptions,
  type SeenStore,
  type SettleRequest,
  type SettleResult,
  type JoinState,
  type JoinClosed,
  type JoinStateRequest,
  type JoinStateResult,
  type TaskEnd,
} from "./seen-store.js";
export { escapeUntrusted, quoteUntrusted, stringifyUntrusted, QUOTE_LIMIT } from "../core/untrusted-text.js";
export { createEventLog, type EventLog, type EventSink } from "./event-log.js";
export {
  HANDOFF_EVENT_VERSION,
  MAX_EVENT_REASONS,
  MAX_EVENT_TEXT,
  createHandoffDescriber,
  type DescribedGraph,
  type EventReason,
  type HandoffDescriber,
  type HandoffEvent,
  type HandoffObservation,
  type HandoffVerdict,
} from "./handoff-event.js";
export {
  observeAccept,
  observeAcceptAsync,
  type Delivery,
  type HandoffObserver,
  type IngestTiming,
  type ObserveAcceptOptions,
  type ObservedAccept,
  type ObservedAcceptAsync,
} from "./observe-accept.js";
export { fieldLabel, fieldOf } from "./field-label.js";
export {
  INSTRUMENTATION_SCOPE,
  SEMCONV_VERSION,
  createTelemetry,
  loadTelemetry,
  type Attributes,
  type OtelApiLike,
  type SpanLike,
  type TelemetryGraph,
} from "./telemetry.js";
export {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TTL_SECONDS,
  LEDGER_SCRIPT,
  MAX_RAW_ID,
  StoreUnavailableError,
  createRedisSeenStore,
  redisKey,
  seamRedisScripts,
  type RedisSeenStore,
  type RedisSeenStoreOptions,
  type ScriptParser,
  type SeamRedisClient,
} from "./redis-store.js";
