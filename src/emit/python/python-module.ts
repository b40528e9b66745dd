/**
 * The Python module `seam compile --target python` writes for one graph: standard library only
 * (Python 3.10 or later), self-contained (the runtime is part of the module, as Ajv standalone
 * code carries its validators), typed for `mypy --strict`, deterministic.
 *
 * It exposes, in Python's idiom, what the JavaScript module exports: `accept(envelope, *, me,
 * can_read=None, seen=None, now=None)`, `loop_signature(envelope)`, `create_loop_detector()`,
 * `create_memory_seen_store()` and the `SeenStore` protocol, `HOP_LIMIT`, the graph as data
 * (`GRAPH`, `AGENTS`, `EDGES`), and the raw validators (`validate_envelope`,
 * `validate_contract_1..N`).
 */
import type { CheckedGraph } from "../../analysis/model.js";
import { envelopeSchemaFor, type JsonSchema } from "../../core/envelope-schema.js";
import { parseFieldPath } from "../../runtime/field-path.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../graph-data.js";
import { addGraphSchemas } from "../schema-compiler.js";
import { joinPython, py, pyString, trustedPython, type PyCode } from "./literal.js";
import { ACCEPT_SOURCE } from "./runtime/accept.js";
import { CANONICAL_SOURCE } from "./runtime/canonical.js";
import { RECORDS_SOURCE } from "./runtime/records.js";
import { STORES_SOURCE } from "./runtime/stores.js";
import { UNTRUSTED_SOURCE } from "./runtime/untrusted.js";
import { VALUES_SOURCE } from "./runtime/values.js";
import { compileFreeTextCheck } from "./free-text-check.js";
import { compileSchemasToPython } from "./schema-to-python.js";

// No `from __future__ import annotations`: dataclasses would then need the module registered in
// sys.modules to read their annotations, and a module loaded by path (importlib) is not always.
const HEADER = `import asyncio
import hashlib
import inspect
import math
import re
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import AbstractSet as Set, Any, Awaitable, Callable, Final, Literal, Mapping, NamedTuple, Optional, Protocol, Union, cast
`;

/** The names the module exports (`__all__`), besides `validate_contract_1..N`. */
const PUBLIC_NAMES = [
  "AGENTS",
  "Accepted",
  "AcceptanceRecord",
  "AcceptResult",
  "AgentInfo",
  "AsyncSeenStore",
  "CanRead",
  "CanReadAsync",
  "ClaimEdge",
  "ClaimHolder",
  "ClaimRequest",
  "ClaimResult",
  "Claimed",
  "Duplicate",
  "EDGES",
  "EdgeInfo",
  "GRAPH",
  "GraphInfo",
  "HOP_LIMIT",
  "LoopDetector",
  "LoopObservation",
  "MemorySeenStore",
  "Noted",
  "OwnerConflict",
  "Reason",
  "Rejected",
  "Rejection",
  "SchemaError",
  "SeenStore",
  "TerminalInfo",
  "accept",
  "accept_async",
  "canonical_json",
  "create_loop_detector",
  "create_memory_seen_store",
  "finish",
  "finish_async",
  "FinishVerdict",
  "EndRecord",
  "Custody",
  "CustodyFault",
  "Finished",
  "TaskEnd",
  "FinishRequest",
  "TaskFinished",
  "NotOwner",
  "AlreadyFinished",
  "loop_signature",
  "schema_error_to_reason",
  "validate_envelope",
];

function tuple(items: readonly PyCode[]): PyCode {
  if (items.length === 0) return trustedPython("()");
  return py`(\n${joinPython(items.map((item) => py`    ${item},\n`), "")})`;
}

/**
 * Emits the Python module of one graph.
 *
 * @param graph - a checked graph without errors
 * @returns the module's source text
 * @throws Error on a bug in Seam (a schema keyword the Python generator lacks, a graph without hop limit)
 */
export function emitPythonModule(graph: CheckedGraph): string {
  const schemas = addGraphSchemas(graph);
  const info = toGraphInfo(graph);
  const agents = toAgentInfos(graph);
  const edges = toEdgeInfos(graph, schemas.edgeContracts);
  const contractNames = schemas.contracts.map((_, i) => `validate_contract_${i + 1}`);
  const validators = compileSchemasToPython(
    [envelopeSchemaFor(graph.envelope), ...schemas.contracts.map((contract) => contract.schema as JsonSchema)],
    [
      { name: "validate_envelope", id: schemas.envelopeId },
      ...schemas.contracts.map((contract, i) => ({ name: contractNames[i] as string, id: contract.id })),
    ],
  );
  const signaturePaths = info.loopSignature.map((path) => {
    const segments = parseFieldPath(path);
    if (segments === undefined) throw new Error(`internal: ${JSON.stringify(path)} is not a field path`);
    return [path, segments];
  });
  const agentCode = tuple(
    agents.map(
      (agent) =>
        py`AgentInfo(${agent.id}, ${agent.role}, ${agent.version ?? null}, ${tuple(
          agent.terminals.map((t) => py`TerminalInfo(${t.id}, ${t.outcome}, ${t.description ?? null})`),
        )})`,
    ),
  );
  const edgeCode = tuple(
    edges.map(
      (edge) =>
        py`EdgeInfo(${edge.kind}, ${edge.from}, ${edge.to}, ${edge.observe}, ${edge.maxRounds ?? null}, ${edge.require}, ${edge.contract}, ${edge.repairs ?? null})`,
    ),
  );
  const contracts = trustedPython(`(${contractNames.join(", ")}${contractNames.length === 1 ? "," : ""})`);
  const allNames = [...PUBLIC_NAMES, ...contractNames].sort();

  const module = py`# Generated by seam compile --target python. Do not edit: change the .seam file and recompile.
${trustedPython(`"""Seam validators for graph ${pyString(graph.name).slice(1, -1).replace(/"/g, "'")}: the ingest check of every agent service.

Standard library only (Python 3.10+). accept(envelope, *, me, can_read=None, seen=None, now=None)
returns Accepted(record) or Rejected(rejection, duplicate) and never raises on a bad envelope;
loop_signature(envelope) is "sha256:<hex>" over RFC 8785 JSON, byte-identical to the JavaScript
runtime's. Generated: edit the .seam file and recompile instead.
"""`)}
${trustedPython(HEADER)}
__all__ = ${allNames}

${trustedPython(VALUES_SOURCE.trim())}


${trustedPython(CANONICAL_SOURCE.trim())}


${trustedPython(RECORDS_SOURCE.trim())}


${trustedPython(UNTRUSTED_SOURCE.trim())}


${trustedPython(STORES_SOURCE.trim())}


${trustedPython(ACCEPT_SOURCE.trim())}


# JSON Schema draft 2020-12 validators: the envelope, then one per distinct contract.
${trustedPython(validators.code.trim())}


${trustedPython(compileFreeTextCheck(envelopeSchemaFor(graph.envelope), "_free_text_ok").trim())}


GRAPH: Final = GraphInfo(
    ${info.name},
    (${info.envelope.major}, ${info.envelope.minor}),
    ${info.entries},
    ${info.hopLimit},
    ${info.onHopLimit},
    ${info.loopSignature},
)
"""The graph's settings."""

HOP_LIMIT: Final = ${info.hopLimit}
"""The value producers put in hop.limit."""

AGENTS: Final[tuple[AgentInfo, ...]] = ${agentCode}
"""The agents, in declaration order."""

EDGES: Final[tuple[EdgeInfo, ...]] = ${edgeCode}
"""The edges, in declaration order; contract indexes validate_contract_1..N from 0."""

_ACCEPT: Final = _Accept(GRAPH, AGENTS, EDGES, validate_envelope, ${contracts})
_LOOP_SIGNATURE: Final = _create_loop_signature(${signaturePaths})


def accept(
    envelope: object,
    *,
    me: str,
    can_read: CanRead | None = None,
    seen: SeenStore | None = None,
    now: Callable[[], float] | None = None,
) -> AcceptResult:
    """The ingest check: the envelope's content (JSON data; the JSON Schema, every error; every
    semantic and graph check whose inputs are well-typed), then can_read for each required
    artefact, then one claim on the store, which decides duplicates, replays and ownership.

    envelope: the parsed JSON envelope (dicts, lists, str, int, float, bool, None).
    me: the receiving agent's id, an agent of GRAPH. can_read(ref, read_scope) -> bool: True when
    this agent can read a required artefact (None: artefacts are not checked). seen: the duplicate
    and ownership memory, a SeenStore (None: neither is checked). now: the clock, in seconds since
    the Unix epoch (default time.time).

    Returns Accepted(record) or Rejected(rejection, duplicate); every reason has a JSON Pointer
    path, a rule id and a message. Never raises on a bad envelope (deep nesting, huge numbers, NaN,
    lone surrogates, odd keys, mappings that raise). Raises TypeError for caller misuse (me not an
    agent of the graph, can_read or now not callable, an async can_read or store: use
    accept_async), ValueError when now() is outside the times an ISO 8601 record can hold, and
    whatever can_read or seen.claim raise (an unavailable store is not bad input: retry).
    """
    return _ACCEPT.accept(envelope, me, can_read, seen, now)


async def accept_async(
    envelope: object,
    *,
    me: str,
    can_read: CanReadAsync | None = None,
    seen: AsyncSeenStore | None = None,
    now: Callable[[], float] | None = None,
) -> AcceptResult:
    """accept() for asyncio services: can_read may return an awaitable (the required artefacts
    are asked together) and seen.claim may be a coroutine (Redis, SQL). Same verdicts, same errors."""
    return await _ACCEPT.accept_async(envelope, me, can_read, seen, now)


def loop_signature(envelope: object) -> str:
    """"sha256:<64 hex digits>" over the RFC 8785 JSON of the fields GRAPH.loop_signature names
    (a path through [] hashes the set of values found), byte-identical to the JavaScript runtime.

    Raises ValueError or TypeError for values with no RFC 8785 form (NaN, lone surrogates,
    cycles, non-JSON objects); call it on accepted envelopes.
    """
    return _LOOP_SIGNATURE(envelope)


def create_loop_detector() -> LoopDetector:
    """A loop detector (per task, the signatures each receiving agent has seen) over loop_signature."""
    return LoopDetector(_LOOP_SIGNATURE)


def finish(task_id: str, *, me: str, terminal: str, outcome: str, seen: SeenStore, now: Callable[[], float] | None = None) -> FinishVerdict:
    """Records that agent me ended task_id at one of its terminals (with that outcome); afterwards
    accept() refuses every handoff of the task (task-finished). Only the task's owner ends it (with
    a graph-wide store, a task with no accepted hop only an entry agent). Returns FinishVerdict: ok
    with the end record, or refused (rule "not-owner" or "task-finished"). Raises TypeError
    ("finish(): ...") for a missing (None) me, terminal or outcome, a terminal me does not
    declare, another outcome, a store without finish(), or an async store."""
    return _ACCEPT.finish(task_id, me, terminal, outcome, seen, now)


async def finish_async(task_id: str, *, me: str, terminal: str, outcome: str, seen: AsyncSeenStore, now: Callable[[], float] | None = None) -> FinishVerdict:
    """finish() over an asynchronous store."""
    return await _ACCEPT.finish_async(task_id, me, terminal, outcome, seen, now)


def create_memory_seen_store(ttl_ms: int = DEFAULT_TASK_TTL_MS, scope: str = "graph") -> MemorySeenStore:
    """A SeenStore with the task ledger in this process's memory; a task is forgotten ttl_ms
    after its last write (default one day). scope: "graph" (shared by every service of the graph)
    or "receiver" (one service's own store)."""
    return MemorySeenStore(ttl_ms, scope)
`;
  return module.code;
}
