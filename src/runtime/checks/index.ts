/**
 * Every ingest rule of the runtime, in pipeline order: schema and JSON data, the envelope's own
 * semantics, the graph, the artefacts, the task ledger. A reason's `rule` is one of these ids
 * (or a JSON Schema keyword); each id has its module here, its catalogue entry (`reasons.json`)
 * and its row in the reasons table of `docs/runtime-js.md` (held to the catalogue by a test); the
 * ingest rules that route by the graph (guards, floors, gates) have a `docs/rules/<id>.md` page too.
 */
import { agentVersion } from "./agent-version.js";
import { approvalPending } from "./approval-pending.js";
import { artefactUnreadable } from "./artefact-unreadable.js";
import { badHopPath } from "./bad-hop-path.js";
import { blockingQuestion } from "./blocking-question.js";
import { branchLate } from "./branch-late.js";
import { joinExpired } from "./join-expired.js";
import { joinFailed } from "./join-failed.js";
import { branchMismatch } from "./branch-mismatch.js";
import { branchOpen } from "./branch-open.js";
import { branchUnknown } from "./branch-unknown.js";
import { budgetConsumedDecreased } from "./budget-consumed-decreased.js";
import { budgetCounterMissing } from "./budget-counter-missing.js";
import { budgetExhausted } from "./budget-exhausted.js";
import { budgetLimitRaised } from "./budget-limit-raised.js";
import { budgetOvercommitted } from "./budget-overcommitted.js";
import { confidenceBelowFloor } from "./confidence-below-floor.js";
import { duplicate } from "./duplicate.js";
import { guardUnmet } from "./guard-unmet.js";
import { hopLimitReached } from "./hop-limit-reached.js";
import { hopReset } from "./hop-reset.js";
import { hopSkipped } from "./hop-skipped.js";
import { idTooLong } from "./id-too-long.js";
import { leaseHeld } from "./lease-held.js";
import type { IngestRule } from "./ingest-rule.js";
import { maxRoundsExceeded } from "./max-rounds-exceeded.js";
import { notAddressedToMe } from "./not-addressed-to-me.js";
import { notJsonData } from "./not-json-data.js";
import { notOwner } from "./not-owner.js";
import { ownerConflict } from "./owner-conflict.js";
import { pathDisagrees } from "./path-disagrees.js";
import { roleMismatch } from "./role-mismatch.js";
import { senderMismatch } from "./sender-mismatch.js";
import { taskFinished } from "./task-finished.js";
import { unknownEdge } from "./unknown-edge.js";
import { unpairedSurrogate } from "./unpaired-surrogate.js";
import { unreadableEnvelope } from "./unreadable-envelope.js";
import { untrackedTask } from "./untracked-task.js";
import { versionMajor } from "./version-major.js";

export type { IngestRule, IngestStage } from "./ingest-rule.js";

/** The ingest rules, in the order the pipeline runs them. */
export const INGEST_RULES: readonly IngestRule[] = [
  unreadableEnvelope,
  notJsonData,
  unpairedSurrogate,
  versionMajor,
  senderMismatch,
  notAddressedToMe,
  idTooLong,
  hopLimitReached,
  budgetExhausted,
  budgetCounterMissing,
  blockingQuestion,
  unknownEdge,
  roleMismatch,
  agentVersion,
  badHopPath,
  maxRoundsExceeded,
  branchMismatch,
  guardUnmet,
  confidenceBelowFloor,
  artefactUnreadable,
  untrackedTask,
  duplicate,
  leaseHeld,
  ownerConflict,
  branchUnknown,
  branchOpen,
  branchLate,
  joinExpired,
  joinFailed,
  notOwner,
  pathDisagrees,
  hopSkipped,
  hopReset,
  budgetLimitRaised,
  budgetConsumedDecreased,
  budgetOvercommitted,
  approvalPending,
  taskFinished,
];
