/**
 * The Python module `seam compile --target python` writes for one graph: the graph as data, its
 * generated JSON Schema validators (one per edge, named by `../validator-names.ts`) and typed entry
 * points bound to the runtime package `seam-handoff` (python/ in this repository), which it
 * imports, as protobuf's generated code imports its runtime. At import it checks that the
 * installed runtime is one it was generated for (`seam_handoff.codegen.check_runtime_version`);
 * its header names the generator's version and the SHA-256 of the `.seam` source. Typed for
 * `mypy --strict` and pyright strict, deterministic.
 *
 * It exposes, in Python's idiom, what the JavaScript module exports: `accept()` (its signature
 * is written once, in the module's `def accept`), `loop_signature(envelope)`, `create_loop_detector()`,
 * `create_memory_seen_store()`, `HOP_LIMIT`, the graph as data (`GRAPH`, `AGENTS`, `EDGES`), the
 * raw validators (`validate_envelope`, `validate_<kind>__<from>__<to>`), and the runtime's types.
 */
import { createHash } from "node:crypto";
import type { CheckedGraph } from "../../analysis/model.js";
import { packageVersion, pythonRuntimeExports } from "../../core/package-files.js";
import { envelopeSchemaFor, type JsonSchema } from "../../core/envelope-schema.js";
import { parseFieldPath } from "../../runtime/field-path.js";
import type { EdgeInfo } from "../../runtime/graph-data.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../graph-data.js";
import { edgeSchema } from "../edge-schemas.js";
import { addGraphSchemas } from "../schema-compiler.js";
import { joinPython, py, pyString, trustedPython, type PyCode } from "./literal.js";
import { envelopeModuleName, envelopeTypedDicts, helpersUsed } from "./envelope-module.js";
import { compileSchemasToPython } from "./schema-to-python.js";
import { contractValidatorNames, edgeEnvelopeClassName, edgeValidatorName } from "../validator-names.js";

/**
 * The runtime's names each module re-exports, so a service needs one import for its graph:
 * `seam_handoff.__all__` (the one list of them), without `__version__`.
 */
function runtimeExports(): string[] {
  return pythonRuntimeExports().filter((name) => name !== "__version__");
}

/** The names the module defines itself (`__all__`), besides one validator per edge. */
const OWN_NAMES = [
  "AGENTS",
  "EDGES",
  "GRAPH",
  "HOP_LIMIT",
  "accept",
  "accept_async",
  "create_loop_detector",
  "create_memory_seen_store",
  "finish",
  "first_envelope",
  "next_envelope",
  "join_envelope",
  "finish_async",
  "join_state",
  "join_state_async",
  "loop_signature",
  "validate_envelope",
];

/** What the module takes from `seam_handoff.codegen` whatever its graph. */
const CODEGEN_ALWAYS = ["Acceptor", "EnvelopeBuilder", "create_loop_signature"];

/** What a module is generated from, for its header. */
export interface PythonModuleSource {
  /** The text of the `.seam` file; its SHA-256 goes into the header. */
  readonly text: string;
}

/**
 * Names in the order ruff's import sorting (isort's `order-by-type`) wants them: constants, then
 * classes, then the rest, each case-insensitively, so generated imports pass `ruff check`.
 */
function importOrder(names: readonly string[]): string[] {
  const kind = (name: string) => (/^[A-Z0-9_]+$/.test(name) ? 0 : /^[A-Z]/.test(name) ? 1 : 2);
  return [...names].sort((a, b) => kind(a) - kind(b) || (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
}

function tuple(items: readonly PyCode[]): PyCode {
  if (items.length === 0) return trustedPython("()");
  return py`(\n${joinPython(items.map((item) => py`    ${item},\n`), "")})`;
}

/** The keyword arguments of an edge's guard, floor and gate (none for an edge without them). */
function edgeRouteCode(edge: EdgeInfo): PyCode {
  const parts: PyCode[] = [];
  if (edge.guard !== undefined) {
    const conditions = tuple(
      edge.guard.conditions.map((c) =>
        c.subject === "confidence" ? py`GuardCondition("confidence", operator=${c.operator}, value=${c.value})` : py`GuardCondition(${c.subject}, ${c.values})`,
      ),
    );
    parts.push(py`, guard=GuardInfo(${edge.guard.otherwise}, ${conditions})`);
  }
  if (edge.minConfidence !== undefined) parts.push(py`, min_confidence=FloorInfo(${edge.minConfidence.value}, ${edge.minConfidence.decisions})`);
  if (edge.gate === true) parts.push(py`, gate=True`);
  if (edge.fanOut !== undefined) parts.push(py`, fan_out=${edge.fanOut}`);
  return joinPython(parts, "");
}

/**
 * Emits the Python module of one graph.
 *
 * @param graph - a checked graph without errors
 * @param source - the `.seam` text the graph was checked from (hashed into the header)
 * @returns the module's source text
 * @throws Error on a bug in Seam (a schema keyword the Python generator lacks, a graph without hop limit)
 */
export function emitPythonModule(graph: CheckedGraph, source: PythonModuleSource): string {
  const schemas = addGraphSchemas(graph);
  const info = toGraphInfo(graph);
  const agents = toAgentInfos(graph);
  const edges = toEdgeInfos(graph, schemas.edgeContracts);
  // Each distinct contract is named after the first edge that uses it; the other edges alias it.
  const contractNames = contractValidatorNames(graph.edges, schemas.edgeContracts);
  const aliases = graph.edges
    .map((edge, e) => [edgeValidatorName(edge), contractNames[schemas.edgeContracts[e] as number] as string] as const)
    .filter(([name, target]) => name !== target);
  const edgeNames = graph.edges.map(edgeValidatorName);
  if (new Set(edgeNames).size !== edgeNames.length) throw new Error(`internal: two edges of graph ${graph.name} share a validator name`);
  // The envelope's own validator is the runtime's (seam_handoff.envelopes): the contracts call it.
  const validators = compileSchemasToPython(
    [envelopeSchemaFor(graph.envelope), ...schemas.contracts.map((contract) => contract.schema as JsonSchema)],
    schemas.contracts.map((contract, i) => ({ name: contractNames[i] as string, id: contract.id })),
    new Map([[schemas.envelopeId, "_envelope_into"]]),
  );
  const generatedCode = validators.code;
  const codegenBindings = [...CODEGEN_ALWAYS, ...helpersUsed(generatedCode)].map((name) => `_${name}: Final = _codegen.${name}`);
  const envelopeModule = envelopeModuleName(graph.envelope);
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
        )}${agent.gate === true ? py`, gate=True` : py``}${
          agent.join === undefined ? py`` : py`, join=JoinInfo(${agent.join.inputs}, ${agent.join.need}, ${agent.join.within ?? null}, ${agent.join.otherwise})`
        })`,
    ),
  );
  const edgeCode = tuple(
    edges.map(
      (edge) =>
        py`EdgeInfo(${edge.kind}, ${edge.from}, ${edge.to}, ${edge.observe}, ${edge.maxRounds ?? null}, ${edge.require}, ${edge.contract}, ${edge.repairs ?? null}${edgeRouteCode(edge)})`,
    ),
  );
  const contracts = trustedPython(`(${contractNames.join(", ")}${contractNames.length === 1 ? "," : ""})`);
  const aliasCode = trustedPython(aliases.map(([name, target]) => `${name} = ${target}\n`).join(""));
  // The envelope's classes are the runtime's too; the module defines its edges' own.
  const typed = envelopeTypedDicts(graph.envelope);
  const envelopeClasses = new Set(typed.classNames());
  const classNames = graph.edges.map((edge) => {
    const name = edgeEnvelopeClassName(edge);
    typed.add(edgeSchema(graph, edge, name), name, edgeValidatorName(edge).slice("validate".length));
    return name;
  });
  const exports = runtimeExports();
  const allNames = [...exports, ...OWN_NAMES, "AgentId", ...envelopeClasses, ...classNames, ...edgeNames].sort();
  // The builders' keyword arguments: the envelope's optional fields a producer chooses.
  const envelopeFields = typed.fields("Envelope");
  const typeOf = (key: string) => envelopeFields.find((field) => field.key === key)?.type;
  const optional = ["decisions", "artefacts", "constraints", "open_questions", "status", "allowed_next_step", "safe_resume", "blocked_on", "approval"].filter(
    (key) => typeOf(key) !== undefined,
  );
  const builderParams = trustedPython(optional.map((key) => `    ${key}: ${typeOf(key)} | None = None,\n`).join(""));
  const builderFields = trustedPython(optional.map((key) => `${pyString(key)}: ${key}`).join(", "));
  const goalType = trustedPython(typeOf("goal") ?? "dict[str, object]");
  const budgetType = trustedPython(typeOf("budget") ?? "dict[str, object]");
  const version = packageVersion();
  const hash = createHash("sha256").update(source.text).digest("hex");
  const runtimeImports = trustedPython(importOrder(exports).map((name) => `    ${name},\n`).join(""));
  const edgeClassCode = typed.code(envelopeClasses);
  // Every envelope class, re-exported: producers type their goal, budget and artefacts with them.
  const envelopeImports = importOrder([...envelopeClasses, "validate_envelope"]);
  const envelopeImportCode = trustedPython(envelopeImports.map((name) => `    ${name},\n`).join(""));

  const module = py`# Generated by seam ${trustedPython(version)} (seam compile --target python) from graph ${trustedPython(pyString(graph.name).slice(1, -1))},
# source sha256:${trustedPython(hash)}. Do not edit: change the .seam file and recompile.
# The runtime's version is checked before the imports that need it (E402); the layout is the
# generator's, which a formatter's would only trade for another at the next compile.
# ruff: noqa: E402
# fmt: off
${trustedPython(`"""Seam validators for graph ${pyString(graph.name).slice(1, -1).replace(/"/g, "'")}: the ingest check of every agent service.

Imports the runtime package seam-handoff ${version} (pip install the python/ folder of a Seam
checkout, as Seam's docs/python.md says). accept() returns Accepted(record) or
Rejected(rejection, duplicate) and never raises on a bad envelope (help(accept) gives its
parameters); loop_signature(envelope) is "sha256:<hex>" over RFC 8785 JSON, byte-identical to
the JavaScript runtime's. Generated: edit the .seam file and recompile instead.
"""`)}

${trustedPython(/\bre\.compile\(/.test(generatedCode) ? "import re\n" : "")}from collections.abc import Callable, Sequence
from typing import ${trustedPython(generatedCode.includes("TYPE_CHECKING") ? "TYPE_CHECKING, " : "")}Any, Final, Literal, TypeAlias, TypedDict, cast

from seam_handoff import codegen as _codegen

_codegen.check_runtime_version(${version}, __name__)

from seam_handoff import (
${runtimeImports})
from seam_handoff.envelopes import ${trustedPython(envelopeModule)} as _envelope
from seam_handoff.envelopes.${trustedPython(envelopeModule)} import (
${envelopeImportCode})

${trustedPython(codegenBindings.join("\n"))}
_envelope_into: Final = _envelope.validate_into
_free_text_ok: Final = _envelope.free_text_ok

__all__ = ${allNames}

# JSON Schema draft 2020-12 validators, one per edge (edges with the same required fields share
# one); each checks the envelope first (validate_envelope, the runtime's).
${trustedPython(validators.code.trim())}


${aliasCode}


GRAPH: Final = GraphInfo(
    ${info.name},
    (${info.envelope.major}, ${info.envelope.minor}),
    ${info.entries},
    ${info.hopLimit},
    ${info.onHopLimit},
    ${info.loopSignature},
)
"""The graph's settings."""

AgentId: TypeAlias = Literal[${trustedPython(agents.map((agent) => pyString(agent.id)).join(", "))}]
"""The id of an agent of the graph: a misspelt me is a type error."""

${trustedPython(edgeClassCode)}


HOP_LIMIT: Final = ${info.hopLimit}
"""The value producers put in hop.limit."""

AGENTS: Final[tuple[AgentInfo, ...]] = ${agentCode}
"""The agents, in declaration order."""

EDGES: Final[tuple[EdgeInfo, ...]] = ${edgeCode}
"""The edges, in declaration order."""

_BUILDER: Final = _EnvelopeBuilder(GRAPH, AGENTS, EDGES)
_ACCEPT: Final = _Acceptor(GRAPH, AGENTS, EDGES, validate_envelope, ${contracts}, _free_text_ok)
_LOOP_SIGNATURE: Final = _create_loop_signature(${signaturePaths})


def accept(
    envelope: object,
    *,
    me: AgentId,
    can_read: CanRead | None = None,
    seen: SeenStore | None = None,
    now: Callable[[], float] | None = None,
    sender: str | None = None,
    claim_token: str | None = None,
) -> AcceptResult:
    """The ingest check: the envelope's content (JSON data; the JSON Schema, every error; every
    semantic and graph check whose inputs are well-typed), then can_read for each required
    artefact, then one claim on the store, which decides duplicates, replays and ownership.

    envelope: the parsed JSON envelope (dicts, lists, str, int, float, bool, None).
    me: the receiving agent's id, an agent of GRAPH. can_read(ref, read_scope) -> bool: True when
    this agent can read a required artefact (None: artefacts are not checked). seen: the duplicate
    and ownership memory, a SeenStore (None: neither is checked). now: the clock, in seconds since
    the Unix epoch (default time.time). sender: the producer the transport authenticated (an mTLS
    subject, a signed token's subject, a queue's producer id); a different from_agent.id is
    refused (sender-mismatch) without asking the store. None: from_agent is only the envelope's claim.
    claim_token: with a store that leases claims, this delivery attempt's token (the queue's
    receipt handle; None: a random UUID); record.lease names it, and commit(record, seen=...) ends
    the lease. Until then a redelivery is refused with route "retry" (lease-held).

    Returns Accepted(record) or Rejected(rejection, duplicate); every reason has a JSON Pointer
    path, a rule id and a message. Never raises on a bad envelope (deep nesting, huge numbers, NaN,
    lone surrogates, odd keys, mappings that raise). Raises TypeError for caller misuse (me not an
    agent of the graph, can_read or now not callable, an async can_read or store: use
    accept_async), ValueError when now() is outside the times an ISO 8601 record can hold, and
    whatever can_read or seen.claim raise (an unavailable store is not bad input: retry).
    """
    return _ACCEPT.accept(envelope, me, can_read, seen, now, sender, claim_token)


async def accept_async(
    envelope: object,
    *,
    me: AgentId,
    can_read: CanReadAsync | None = None,
    seen: AsyncSeenStore | None = None,
    now: Callable[[], float] | None = None,
    sender: str | None = None,
    claim_token: str | None = None,
) -> AcceptResult:
    """accept() for asyncio services: can_read may return an awaitable (the required artefacts
    are asked together) and seen.claim may be a coroutine (Redis, SQL). Same verdicts, same errors."""
    return await _ACCEPT.accept_async(envelope, me, can_read, seen, now, sender, claim_token)


def loop_signature(envelope: object) -> str:
    """"sha256:<64 hex digits>" over the RFC 8785 JSON of the fields GRAPH.loop_signature names
    (a path through [] hashes the set of values found), byte-identical to the JavaScript runtime.

    Raises ValueError or TypeError for values with no RFC 8785 form (NaN, lone surrogates,
    cycles, non-JSON objects); call it on accepted envelopes.
    """
    return _LOOP_SIGNATURE(envelope)


def create_loop_detector(*, max_tasks: int | None = None, max_signatures_per_task: int | None = None) -> LoopDetector:
    """A loop detector (per task, the signatures each receiving agent has seen) over loop_signature,
    bounded as the JavaScript runtime's: max_tasks tasks remembered (the least recently observed
    forgotten first; None: 10,000), max_signatures_per_task signatures kept per task (None: 1,024)."""
    return LoopDetector(_LOOP_SIGNATURE, max_tasks, max_signatures_per_task)


def finish(task_id: str, *, me: AgentId, terminal: str, outcome: str, seen: SeenStore, now: Callable[[], float] | None = None) -> FinishVerdict:
    """Records that agent me ended task_id at one of its terminals (with that outcome); afterwards
    accept() refuses every handoff of the task (task-finished). Only the task's owner ends it (with
    a graph-wide store, a task with no accepted hop only an entry agent). Returns FinishVerdict: ok
    with the end record, or refused (rule "not-owner" or "task-finished"). Raises TypeError
    ("finish(): ...") for a missing (None) me, terminal or outcome, a terminal me does not
    declare, another outcome, a store without finish(), or an async store."""
    return _ACCEPT.finish(task_id, me, terminal, outcome, seen, now)


async def finish_async(task_id: str, *, me: AgentId, terminal: str, outcome: str, seen: AsyncSeenStore, now: Callable[[], float] | None = None) -> FinishVerdict:
    """finish() over an asynchronous store."""
    return await _ACCEPT.finish_async(task_id, me, terminal, outcome, seen, now)


def join_state(task_id: str, *, seen: SeenStore, now: Callable[[], float] | None = None) -> JoinReport:
    """The task's join: "waiting", "fired", "expired" or "failed" (its deadline passed, or too few
    branches can still arrive), or "none"; acts on its otherwise policy once, when this call is
    the first to find it given up on (acts True for that one answer). Raises TypeError
    ("join_state(): ...") for a store without join_state(), or an async store."""
    return _ACCEPT.join_state(task_id, seen, now)


async def join_state_async(task_id: str, *, seen: AsyncSeenStore, now: Callable[[], float] | None = None) -> JoinReport:
    """join_state() over an asynchronous store."""
    return await _ACCEPT.join_state_async(task_id, seen, now)


def create_memory_seen_store(ttl_ms: int = DEFAULT_TASK_TTL_MS, scope: str = "graph", lease_ms: int = 0) -> MemorySeenStore:
    """A SeenStore with the task ledger in this process's memory; a task is forgotten ttl_ms
    after its last write (default one day). scope: "graph" (shared by every service of the graph)
    or "receiver" (one service's own store). lease_ms: how long a claim is leased before it must
    be committed (default 0: a claim is committed when it is made)."""
    return MemorySeenStore(ttl_ms, scope, lease_ms)


def first_envelope(
    *,
    me: AgentId,
    to: AgentId,
    task_id: str,
    goal: ${goalType},
    budget: ${budgetType},
    action: str,
${builderParams}    provenance_status: Literal["verified", "asserted", "unverified"] = "asserted",
    note: str | None = None,
    now: Callable[[], float] | None = None,
    handoff_id: str | None = None,
) -> Envelope:
    """The first envelope of a new task, from entry agent me to to: hop 1 of GRAPH.hop_limit,
    path [me, to], roles and versions from AGENTS, a provenance entry (action, at now() in seconds
    since the Unix epoch, default time.time); the fields given are deep-copied. Raises TypeError
    when me, to, task_id, action or provenance_status is not a str, goal or budget not a mapping,
    note, status or handoff_id given but not a str, now given but not callable, me is no entry or
    the graph has no edge me -> to."""
    fields = {${builderFields}}
    built = _BUILDER.first(
        me=me,
        to=to,
        task_id=task_id,
        goal=goal,
        budget=budget,
        action=action,
        fields={key: value for key, value in fields.items() if value is not None},
        provenance_status=provenance_status,
        note=note,
        now=now,
        handoff_id=handoff_id,
    )
    return cast(Envelope, built)


def next_envelope(
    received: Envelope,
    *,
    me: AgentId,
    to: AgentId,
    action: str,
    goal: ${goalType} | None = None,
    budget: ${budgetType} | None = None,
${builderParams}    provenance_status: Literal["verified", "asserted", "unverified"] = "asserted",
    note: str | None = None,
    now: Callable[[], float] | None = None,
    handoff_id: str | None = None,
) -> Envelope:
    """The envelope that hands a received, accepted task on from me to to: same task_id, fresh
    handoff_id, hop.index + 1, the path extended by to, the received provenance plus this
    agent's entry; goal, budget and carried fields default to the received ones (deep-copied).
    Raises TypeError when me, to, action or provenance_status is not a str, goal or budget given
    but not a mapping, note, status or handoff_id given but not a str, now given but not
    callable, received was not addressed to me or the graph has no edge me -> to, ValueError at
    the hop limit (escalate or fail the
    task instead, as GRAPH.on_hop_limit says)."""
    fields = {${builderFields}}
    built = _BUILDER.next(
        cast("dict[str, Any]", received),
        me=me,
        to=to,
        action=action,
        fields={key: value for key, value in fields.items() if value is not None},
        goal=cast("dict[str, Any] | None", goal),
        budget=cast("dict[str, Any] | None", budget),
        provenance_status=provenance_status,
        note=note,
        now=now,
        handoff_id=handoff_id,
    )
    return cast(Envelope, built)


def join_envelope(
    arrivals: Sequence[Envelope],
    *,
    me: AgentId,
    to: AgentId,
    action: str,
    parent: Envelope | None = None,
    goal: ${goalType} | None = None,
    budget: ${budgetType} | None = None,
${builderParams}    provenance_status: Literal["verified", "asserted", "unverified"] = "asserted",
    note: str | None = None,
    now: Callable[[], float] | None = None,
    handoff_id: str | None = None,
) -> Envelope:
    """The envelope a join agent hands the task on with once its join fired: the hop after the
    longest arrival, along its path, out of every branch, with the arrivals' decisions,
    artefacts, open questions and provenance, and their spend added to parent's (the envelope
    the supervisor received before it fanned out). Raises TypeError when me, to, action or
    provenance_status is not a str, goal, budget or parent given but not a mapping, note, status
    or handoff_id given but not a str, now given but not callable, an arrival is not addressed to
    me or carries no hop.branch or budget, two come from one branch, ValueError at the hop limit."""
    fields = {${builderFields}}
    built = _BUILDER.join(
        cast("Sequence[dict[str, Any]]", arrivals),
        me=me,
        to=to,
        action=action,
        fields={key: value for key, value in fields.items() if value is not None},
        parent=cast("dict[str, Any] | None", parent),
        goal=cast("dict[str, Any] | None", goal),
        budget=cast("dict[str, Any] | None", budget),
        provenance_status=provenance_status,
        note=note,
        now=now,
        handoff_id=handoff_id,
    )
    return cast(Envelope, built)
`;
  return module.code;
}
