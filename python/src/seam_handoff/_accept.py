"""`accept()` and `accept_async()`, a port of `src/runtime/accept.ts`,
`src/runtime/envelope-check.ts` and `src/runtime/reason.ts`: the same checks in the same order,
the same reasons, messages, routes and store claims, so both runtimes answer the same for the
same envelope. A call has four steps: the caller's options (a misuse raises TypeError at once);
the envelope's content (JSON data, the JSON Schema with every error, then every semantic and
graph check whose inputs are well-typed, whatever else is wrong); can_read for each required
artefact; one claim on the store (for every envelope with a str task_id), which alone decides
duplicates, replays, ownership and the task ledger; with a store, an envelope with no str
task_id escalates (untracked-task), since its refusals cannot be counted.
"""

import asyncio
import inspect
import math
import re
import time
from collections.abc import Awaitable, Callable, Set
from typing import Any, Final, NamedTuple, TypeGuard, cast

from ._catalogue import cap_reasons, rule_reason
from ._records import (
    AcceptanceRecord,
    Accepted,
    AcceptResult,
    AgentInfo,
    EdgeInfo,
    GraphInfo,
    Reason,
    Rejected,
    Rejection,
    RejectionRoute,
    Role,
    Route,
    TerminalInfo,
)
from ._stores import (
    AlreadyFinished,
    AsyncSeenStore,
    ClaimBudget,
    Claimed,
    ClaimEdge,
    ClaimRequest,
    Custody,
    CustodyFault,
    Duplicate,
    Finished,
    FinishRequest,
    Noted,
    NotOwner,
    OwnerConflict,
    SeenStore,
    TaskEnd,
    TaskFinished,
)
from ._untrusted import NotJsonDataError, json_data_problems, parse_agent_version, quote_untrusted, version_mismatch
from ._values import INT_LIMIT, SchemaError, js_text

_STATUS_ROUTES: Final[dict[str, Route]] = {
    "ready": "proceed",
    "partial": "proceed",
    "blocked": "human_input",
    "waiting_review": "approval",
    "failed": "failed",
}
_ROLES: Final = frozenset(("supervisor", "worker", "peer"))
_COUNTERS: Final = ("tokens", "wall_clock_ms", "tool_calls", "retries", "cost_micros")
# The one version grammar (agent versions', seam check's): no leading zeros, at most 16 digits a part.
_ENVELOPE_VERSION: Final = re.compile(r"(0|[1-9][0-9]{0,15})\.(?:0|[1-9][0-9]{0,15})\.(?:0|[1-9][0-9]{0,15})\Z", re.ASCII)
_SCHEMA_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\Z", re.ASCII)
_MAX_ID_LENGTH: Final = 256
# Reasons an observe edge never turns into warnings: limits, addressing, data that is not JSON,
# and any fault in the header, which the record, the store and the next hop need.
_STRICT_RULES: Final = frozenset(
    (
        "not-json-data",
        "unpaired-surrogate",
        "not-addressed-to-me",
        "sender-mismatch",
        "id-too-long",
        "hop-limit-reached",
        "budget-exhausted",
        "budget-counter-missing",
        "max-rounds-exceeded",
    )
)
# Rules after which a delivery can neither start nor continue a task: the ledger is not asked.
_STRANGER_RULES: Final = frozenset(
    ("not-json-data", "unpaired-surrogate", "unreadable-envelope", "not-addressed-to-me", "sender-mismatch", "id-too-long")
)
_HEADER: Final = re.compile(r"/(?:envelope_version|handoff_id|task_id|hop|from_agent|to_agent)(?:/|\Z)")
_MAX_SAFE_INTEGER: Final = 9007199254740991
_MAX_TIME_SECONDS: Final = 8.64e12
# Times from 10**11 s (year 5138) on are today's in milliseconds: a clock in ms is a misuse.
_MILLISECONDS_FROM: Final = 1e11
CAN_READ_CONCURRENCY: Final = 16
"""How many can_read calls accept_async keeps in flight at once."""
_ABSENT: Final[Any] = object()
_NO_PATHS: Final[frozenset[str]] = frozenset()
_HAS_UPPER: Final = re.compile("[A-Z]")
_UNTRACKED_REASON: Final = Reason(
    "/task_id",
    "untracked-task",
    "the store counts refusals per task_id, and this envelope has no string task_id: the refusal cannot be counted, "
    "so it goes to a person (escalate) rather than back for a repair that could loop",
)


def _ordinal(n: int) -> str:
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _append_pointer(pointer: str, token: str) -> str:
    return pointer + "/" + token.replace("~", "~0").replace("/", "~1")


def _kebab(keyword: str) -> str:
    return re.sub("[A-Z]", lambda match: "-" + match.group().lower(), keyword)


def schema_error_to_reason(error: SchemaError) -> Reason:
    """Turns a SchemaError into a Reason with the JavaScript runtime's rule id and wording."""
    keyword, params, path = error.keyword, error.params, error.instance_path
    if keyword == "required":
        name = js_text(params.get("missingProperty"))
        return Reason(_append_pointer(path, name), "required", f"missing required field {quote_untrusted(name)}")
    if keyword == "additionalProperties":
        name = js_text(params.get("additionalProperty"))
        return Reason(
            _append_pointer(path, name),
            "additional-property",
            f"unexpected field {quote_untrusted(name)}: the envelope is closed, add no fields of your own",
        )
    rule = _kebab(keyword)
    if keyword == "type":
        return Reason(path, rule, f"must be of type {js_text(params.get('type'))} (values are never coerced)")
    if keyword == "enum":
        allowed = params.get("allowedValues")
        listed = ", ".join(quote_untrusted(value) for value in cast("list[object]", allowed)) if isinstance(allowed, (list, tuple)) else ""
        return Reason(path, rule, f"must be one of {listed}")
    if keyword == "const":
        return Reason(path, rule, f"must be {quote_untrusted(params.get('allowedValue'))}")
    if keyword == "format":
        return Reason(path, rule, f"must be a valid {js_text(params.get('format'))}")
    if keyword == "pattern":
        return Reason(path, rule, f"must match the pattern {js_text(params.get('pattern'))}")
    if keyword in ("minimum", "maximum"):
        bound = "at least" if keyword == "minimum" else "at most"
        return Reason(path, rule, f"must be {bound} {js_text(params.get('limit'))}")
    if keyword in ("minLength", "maxLength"):
        bound = "at least" if keyword == "minLength" else "at most"
        return Reason(path, rule, f"must have {bound} {js_text(params.get('limit'))} characters")
    if keyword == "minItems":
        return Reason(path, rule, f"must have at least {js_text(params.get('limit'))} items")
    return Reason(path, rule, f"fails the JSON Schema keyword {keyword}")


def _field(value: object, key: str) -> Any:
    """value[key] for a dict that has key, else _ABSENT (JSON null is None, absence is not)."""
    return cast("dict[str, Any]", value).get(key, _ABSENT) if isinstance(value, dict) else _ABSENT


def _as_object(value: object) -> dict[str, Any] | None:
    """value as a JSON object, or None when it is not a dict."""
    return cast("dict[str, Any]", value) if isinstance(value, dict) else None


def _string_at(value: object, key: str) -> str | None:
    found = _field(value, key)
    return found if isinstance(found, str) else None


def _whole_number(value: object) -> int | None:
    """A number that is a safe integer (at most 2**53 - 1) and not negative, as an int."""
    if type(value) is int:
        return value if 0 <= value <= _MAX_SAFE_INTEGER else None
    if isinstance(value, float) and value.is_integer() and 0 <= value <= _MAX_SAFE_INTEGER:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_SAFE_INTEGER:
        return int(value)
    return None


def _non_negative_integer(value: object) -> int | float | None:
    """A whole number, 0 or more, of any size a double holds: an index past 2**53 is past every hop limit."""
    if type(value) is int:
        return value if 0 <= value < INT_LIMIT else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return value
    return None


def _all_strings(value: object) -> TypeGuard[list[str]]:
    """Whether value is a list of str only (str.join checks the items in C, far faster than a Python loop)."""
    if not isinstance(value, list):
        return False
    try:
        "".join(cast("list[str]", value))
    except TypeError:
        return False
    return True


def _is_async_function(function: object) -> bool:
    code = getattr(function, "__code__", None)
    # CO_COROUTINE (inspect's own test, without its unwrapping of partials and methods).
    return bool(code.co_flags & inspect.CO_COROUTINE) if code is not None else inspect.iscoroutinefunction(function)


def _civil_from_days(days: int) -> tuple[int, int, int]:
    # Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def _iso_time(ms: int) -> str:
    """Date.prototype.toISOString of a time in milliseconds since the Unix epoch (UTC)."""
    days, rest = divmod(ms, 86400000)
    year, month, day = _civil_from_days(days)
    hour, rest = divmod(rest, 3600000)
    minute, rest = divmod(rest, 60000)
    second, milli = divmod(rest, 1000)
    year_text = f"{year:04d}" if 0 <= year <= 9999 else ("+" if year > 0 else "-") + f"{abs(year):06d}"
    return f"{year_text}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"


CanRead = Callable[[str, str | None], bool]
"""can_read(ref, read_scope): True when this agent can dereference a required artefact."""
CanReadAsync = Callable[[str, str | None], bool | Awaitable[bool]]
"""can_read for accept_async(): may answer with an awaitable."""
Validate = Callable[[object], list[SchemaError]]


class _Pair(NamedTuple):
    edges: tuple[EdgeInfo, ...]
    validators: tuple[Validate, ...]
    max_rounds: int | None


class _Required(NamedTuple):
    position: int
    ref: str
    scope: str | None


class _Content(NamedTuple):
    """What one envelope's content gives; the claim and the verdict are made from it."""

    handoff_id: str | None
    task_id: str | None
    hop_index: int | None
    producer: str | None
    edge: EdgeInfo | None
    path: tuple[str, ...] | None
    reasons: list[Reason]
    required: tuple[_Required, ...]
    lenient: bool
    hop_limit_reached: bool
    consumed: tuple[str, ...]
    constraints: tuple[str, ...]
    route: Route
    budget: ClaimBudget | None = None
    # The delivery could neither start nor continue a task: the ledger is not asked.
    stranger: bool = False
    # from_agent.id is not the authenticated sender.
    forged: bool = False


class EndRecord(NamedTuple):
    """How a task ended: task_id, the agent, its terminal and outcome, ended_at (ISO 8601, UTC)
    and the last accepted hop (None when the store had none)."""

    task_id: str
    agent: str
    terminal: str
    outcome: str
    ended_at: str
    hop_index: int | None

    def to_dict(self) -> dict[str, object]:
        """The record as the JavaScript runtime returns it."""
        return {
            "task_id": self.task_id,
            "agent": self.agent,
            "terminal": self.terminal,
            "outcome": self.outcome,
            "ended_at": self.ended_at,
            "hop_index": self.hop_index,
        }


class FinishVerdict(NamedTuple):
    """finish()'s answer: ok with the end record, or refused with rule "not-owner" (owner accepted
    the task's last hop; None when no hop was accepted and me is no entry agent) or
    "task-finished" (record: the earlier end) and a message."""

    ok: bool
    record: EndRecord | None
    rule: str | None = None
    message: str | None = None
    owner: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The verdict as the JavaScript runtime returns it: {"ok": true, "record"}, or {"ok": false,
        "rule", "message"} with "owner" (not-owner) or "record" (task-finished)."""
        if self.ok and self.record is not None:
            return {"ok": True, "record": self.record.to_dict()}
        if self.rule == "not-owner":
            return {"ok": False, "rule": self.rule, "message": self.message, "owner": self.owner}
        return {"ok": False, "rule": self.rule, "message": self.message, "record": None if self.record is None else self.record.to_dict()}


class Acceptor:
    """The ingest check of one graph; lookups are built once, a call allocates little more than its result."""

    def __init__(
        self,
        graph: GraphInfo,
        agents: tuple[AgentInfo, ...],
        edges: tuple[EdgeInfo, ...],
        validate_envelope: Validate,
        contracts: tuple[Validate, ...],
        free_text_ok: Callable[[Any], bool],
    ) -> None:
        self._graph = graph
        self._agents: dict[str, tuple[Role, tuple[int, int, int, str] | None]] = {}
        for agent in agents:
            version = None if agent.version is None else parse_agent_version(agent.version)
            if agent.version is not None and version is None:
                raise TypeError(f"agent {agent.id} declares version {quote_untrusted(agent.version)}, which is not MAJOR.MINOR.PATCH")
            self._agents[agent.id] = (agent.role, version)
        self._terminals: dict[str, tuple[TerminalInfo, ...]] = {agent.id: agent.terminals for agent in agents}
        self._entries = frozenset(graph.entries)
        self._entry_list = ", ".join(graph.entries)
        self._on_limit = "escalate to a human" if graph.on_hop_limit == "escalate" else "fail the task"
        self._validate_envelope = validate_envelope
        self._free_text_ok = free_text_ok
        grouped: dict[tuple[str, str], list[EdgeInfo]] = {}
        for edge in edges:
            grouped.setdefault((edge.from_agent, edge.to_agent), []).append(edge)
        self._pairs: dict[tuple[str, str], _Pair] = {}
        for key, group in grouped.items():
            bounded = all(edge.max_rounds is not None for edge in group)
            self._pairs[key] = _Pair(
                tuple(group),
                tuple(contracts[edge.contract] for edge in group),
                sum(edge.max_rounds or 0 for edge in group) if bounded else None,
            )
        # accepted_at: formatting costs more than the rest of a call, and at high rates many calls
        # fall in the same millisecond. One tuple, replaced whole, so threads never see half of it.
        self._last_time: tuple[int, str] = (-1, "")
        # Made once: a claim names its edge without allocating (keyed by identity: edges may be equal).
        self._claim_edges = {id(edge): ClaimEdge(edge.kind, edge.from_agent, edge.to_agent) for edge in edges}
        self._versions: dict[tuple[str, str], str | None] = {}

    # -- content ------------------------------------------------------------------------------

    def _check_hop_path(self, path: list[str], index: int | None, sender: str, receiver: str, reasons: list[Reason]) -> None:
        name = self._graph.name
        n = len(path)
        if index is not None and n != index + 1:
            reasons.append(
                Reason(
                    "/hop/path",
                    "bad-hop-path",
                    f"has {n} entries, but hop.index {index} needs {index + 1}: the first agent, then one per handoff",
                )
            )
        if n > 0 and path[0] not in self._entries:
            reasons.append(
                Reason(
                    "/hop/path/0",
                    "bad-hop-path",
                    f"starts at {quote_untrusted(path[0])}, which is not an entry of graph {name} ({self._entry_list})",
                )
            )
        if n < 2 or path[n - 2] != sender or path[n - 1] != receiver:
            reasons.append(Reason(f"/hop/path/{max(n - 1, 0)}", "bad-hop-path", f"does not end in this handoff, {sender} -> {receiver}"))
        counts: dict[tuple[str, str], int] = {}
        # Only as far as the hop limit: a longer path is past it (hop-limit-reached).
        for i in range(1, min(n, self._graph.hop_limit + 1)):
            step = (path[i - 1], path[i])
            pair = self._pairs.get(step)
            if pair is None:
                reasons.append(
                    Reason(
                        f"/hop/path/{i}",
                        "bad-hop-path",
                        f"steps {quote_untrusted(step[0])} -> {quote_untrusted(step[1])}, which is not an edge of graph {name}",
                    )
                )
            elif pair.max_rounds is not None:
                taken = counts.get(step, 0) + 1
                counts[step] = taken
                if taken == pair.max_rounds + 1:
                    reasons.append(
                        Reason(
                            f"/hop/path/{i}",
                            "max-rounds-exceeded",
                            f"takes {step[0]} -> {step[1]} for the {_ordinal(taken)} time, but max_rounds allows {pair.max_rounds}",
                        )
                    )

    def _check_hop_limit(self, hop: object, reasons: list[Reason]) -> bool:
        # The graph's limit is the authority: an envelope may claim a lower one, never a higher.
        # hop.index and the length of hop.path both witness how far the task has come.
        graph = self._graph
        if not isinstance(hop, dict):
            return False
        fields = cast("dict[str, Any]", hop)
        index = _non_negative_integer(fields.get("index"))
        own = _whole_number(fields.get("limit"))
        limit = own if own is not None and 1 <= own < graph.hop_limit else graph.hop_limit
        whose = f"the limit of graph {graph.name}, {limit}" if limit == graph.hop_limit else f"the envelope's own limit of {limit}"
        if index is not None and index >= limit:
            reasons.append(
                Reason("/hop/index", "hop-limit-reached", f"hop {js_text(index)} is at or past {whose}: {self._on_limit}, do not forward")
            )
            return True
        path = fields.get("path")
        handoffs = len(cast("list[object]", path)) - 1 if isinstance(path, list) else -1
        if handoffs >= limit:
            reasons.append(
                Reason("/hop/path", "hop-limit-reached", f"{handoffs} handoffs are at or past {whose}: {self._on_limit}, do not forward")
            )
            return True
        return False

    def _semantic_checks(
        self, envelope: dict[str, Any], me: str, reasons: list[Reason], schema_paths: Set[str]
    ) -> tuple[bool, tuple[_Required, ...]]:
        graph = self._graph
        get = envelope.get
        version = get("envelope_version")
        matched = _ENVELOPE_VERSION.match(version) if isinstance(version, str) else None
        if isinstance(version, str) and matched is None and _SCHEMA_VERSION.match(version):
            reasons.append(rule_reason("/envelope_version", "version-major", "malformed", version=quote_untrusted(version)))
        if matched is not None:
            major = float(matched.group(1))
            if major != graph.envelope[0]:
                reasons.append(
                    Reason(
                        "/envelope_version",
                        "version-major",
                        f"major version {js_text(major)} is not supported: graph {graph.name} speaks {graph.envelope[0]}.x",
                    )
                )
        to = _string_at(get("to_agent"), "id")
        if to is not None and to != me:
            reasons.append(
                Reason("/to_agent/id", "not-addressed-to-me", f"addressed to {quote_untrusted(to)}, not to {quote_untrusted(me)}")
            )
        reached = self._check_hop_limit(get("hop"), reasons)
        budget = get("budget")
        consumed = _field(budget, "consumed")
        caps = _field(budget, "limit")
        if isinstance(consumed, dict) and isinstance(caps, dict):
            for counter in _COUNTERS:
                spent = cast("dict[str, Any]", consumed).get(counter)
                cap = cast("dict[str, Any]", caps).get(counter)
                if spent is None or cap is None:
                    continue
                spent, cap = _whole_number(spent), _whole_number(cap)
                if spent is None or cap is None or spent < cap:
                    continue
                reasons.append(
                    Reason(f"/budget/consumed/{counter}", "budget-exhausted", f"{counter}: {spent} consumed of a limit of {cap}")
                )
            for counter in _COUNTERS:
                cap = _whole_number(cast("dict[str, Any]", caps).get(counter))
                if cap is not None and counter not in cast("dict[str, Any]", consumed):
                    reasons.append(
                        rule_reason(f"/budget/consumed/{counter}", "budget-counter-missing", "missing", counter=counter, limit=cap)
                    )
        required: list[_Required] = []
        asked: set[tuple[str, str | None]] = set()
        artefacts = get("artefacts")
        if isinstance(artefacts, list):
            for i, artefact in enumerate(cast("list[object]", artefacts)):
                ref = _string_at(artefact, "ref")
                scope = _field(artefact, "read_scope")
                if _field(artefact, "role") != "required" or ref is None or (scope is not _ABSENT and not isinstance(scope, str)):
                    continue
                # can_read is given references that passed the schema (absolute URIs) only.
                if f"/artefacts/{i}/ref" in schema_paths:
                    continue
                # One question per distinct (ref, read_scope).
                key = (ref, None if scope is _ABSENT else scope)
                if key in asked:
                    continue
                asked.add(key)
                required.append(_Required(i, ref, key[1]))
        questions = get("open_questions")
        # A blocked or waiting hand-back carries the questions it waits on.
        if isinstance(questions, list) and get("status") not in ("blocked", "waiting_review"):
            for i, question in enumerate(cast("list[object]", questions)):
                if _field(question, "blocking") is True:
                    text = _field(question, "question")
                    shown = quote_untrusted(text) if isinstance(text, str) else "(no question text)"
                    reasons.append(Reason(f"/open_questions/{i}/blocking", "blocking-question", f"unresolved: {shown}"))
        return reached, tuple(required)

    def _check_agent(self, side: str, agent_id: str, ref: object, reasons: list[Reason]) -> None:
        known = self._agents.get(agent_id)
        if known is None:
            return
        role, version = known
        if not isinstance(ref, dict):
            return
        fields = cast("dict[str, Any]", ref)
        claimed_role = fields.get("role")
        if isinstance(claimed_role, str) and claimed_role in _ROLES and claimed_role != role:
            reasons.append(
                Reason(f"/{side}/role", "role-mismatch", f"{agent_id} is a {role} in graph {self._graph.name}, not a {claimed_role}")
            )
        claimed = fields.get("version")
        if version is not None and isinstance(claimed, str):
            # Producers repeat the same few versions: remember the answers (a bounded cache).
            key = (agent_id, claimed)
            mismatch = self._versions.get(key, _ABSENT)
            if mismatch is _ABSENT:
                mismatch = version_mismatch(version, claimed)
                if len(self._versions) >= 1024:
                    self._versions.clear()
                self._versions[key] = mismatch
            if mismatch is not None:
                reasons.append(Reason(f"/{side}/version", "agent-version", f"{agent_id} version {quote_untrusted(claimed)} {mismatch}"))

    def _graph_checks(
        self, envelope: dict[str, Any], sender: str, receiver: str, pair: _Pair | None, index: int | None, reasons: list[Reason]
    ) -> None:
        name = self._graph.name
        if pair is None:
            if sender not in self._agents:
                reasons.append(Reason("/from_agent/id", "unknown-edge", f"graph {name} has no agent {quote_untrusted(sender)}"))
            elif receiver not in self._agents:
                reasons.append(Reason("/to_agent/id", "unknown-edge", f"graph {name} has no agent {quote_untrusted(receiver)}"))
            else:
                reasons.append(Reason("/to_agent/id", "unknown-edge", f"graph {name} has no edge {sender} -> {receiver}"))
        self._check_agent("from_agent", sender, envelope.get("from_agent"), reasons)
        self._check_agent("to_agent", receiver, envelope.get("to_agent"), reasons)
        path = _field(envelope.get("hop"), "path")
        if pair is not None and _all_strings(path):
            self._check_hop_path(path, index, sender, receiver, reasons)

    def _schema_check(self, value: object, pair: _Pair | None) -> tuple[EdgeInfo | None, list[Reason]]:
        edge: EdgeInfo | None = None
        if pair is None:
            errors = self._validate_envelope(value)
        else:
            errors = pair.validators[0](value)
            edge = pair.edges[0]
            # The first edge's errors are the ones reported when no contract passes.
            if errors:
                for other, validate in zip(pair.edges[1:], pair.validators[1:], strict=False):
                    if not validate(value):
                        edge = other
                        errors = []
                        break
        reasons: list[Reason] = []
        if errors:
            reported: set[tuple[str, str]] = set()
            for error in errors:
                reason = schema_error_to_reason(error)
                # A contract restates the types it needs beside the envelope's $ref: report each fault once.
                if (reason.path, reason.rule) not in reported:
                    reported.add((reason.path, reason.rule))
                    reasons.append(reason)
        return edge, reasons

    def _evaluate(self, value: object, me: str, claimed_sender: str | None) -> _Content:
        envelope = _as_object(value)
        if envelope is not None:
            sender = _string_at(envelope.get("from_agent"), "id")
            receiver = _string_at(envelope.get("to_agent"), "id")
            hop_index = _whole_number(_field(envelope.get("hop"), "index"))
        else:
            sender = receiver = None
            hop_index = None
        pair = self._pairs.get((sender, receiver)) if sender is not None and receiver is not None else None
        edge, schema_reasons = self._schema_check(value, pair)
        # A schema-valid envelope types every value, so only its free text needs a look (the hot
        # path); anything else gets the full walk, which names every place that is not JSON data.
        reasons = [] if not schema_reasons and self._free_text_ok(value) else json_data_problems(value)
        reasons.extend(schema_reasons)
        handoff_id = _string_at(envelope, "handoff_id")
        task_id = _string_at(envelope, "task_id")
        forged = claimed_sender is not None and sender != claimed_sender
        if forged:
            shown = "(no from_agent.id)" if sender is None else quote_untrusted(sender)
            reasons.append(
                rule_reason("/from_agent/id", "sender-mismatch", "claimed", claimed=shown, sender=quote_untrusted(claimed_sender))
            )
        for id_path, id_value in (("/task_id", task_id), ("/from_agent/id", sender), ("/to_agent/id", receiver)):
            if id_value is not None and len(id_value.encode("utf-16-le", "surrogatepass")) // 2 > _MAX_ID_LENGTH:
                length = len(id_value.encode("utf-16-le", "surrogatepass")) // 2
                reasons.append(rule_reason(id_path, "id-too-long", "long", length=length, limit=_MAX_ID_LENGTH))
        reached = False
        required: tuple[_Required, ...] = ()
        if envelope is not None:
            schema_paths = {reason.path for reason in schema_reasons} if schema_reasons else _NO_PATHS
            reached, required = self._semantic_checks(envelope, me, reasons, schema_paths)
            if sender is not None and receiver is not None:
                self._graph_checks(envelope, sender, receiver, pair, hop_index, reasons)
        lenient = (
            edge is not None
            and edge.observe
            and handoff_id is not None
            and task_id is not None
            and hop_index is not None
            and receiver == me
            and not any(reason.rule in _STRICT_RULES or _HEADER.match(reason.path) for reason in reasons)
        )
        consumed: list[str] = []
        constraints: tuple[str, ...] = ()
        route: Route = "proceed"
        if envelope is not None and (not reasons or lenient):
            artefacts = _field(envelope, "artefacts")
            if isinstance(artefacts, list):
                for artefact in cast("list[object]", artefacts):
                    ref = _string_at(artefact, "ref")
                    if ref is not None and _field(artefact, "role") != "superseded":
                        consumed.append(ref)
            listed = _field(envelope, "constraints")
            if isinstance(listed, list):
                # Without reasons the schema passed: every constraint is a string.
                items = cast("list[object]", listed)
                constraints = tuple(cast("list[str]", items)) if not reasons else tuple(item for item in items if isinstance(item, str))
            status = _field(envelope, "status")
            route = _STATUS_ROUTES.get(status, "proceed") if isinstance(status, str) else "proceed"
        hop_path = _field(envelope.get("hop") if envelope is not None else None, "path")
        # The ledger never needs more of the path than a walk within the hop limit holds.
        path = tuple(hop_path[: self._graph.hop_limit + 1]) if _all_strings(hop_path) else None
        budget = _budget_of(_field(envelope, "budget")) if envelope is not None else None
        stranger = forged or pair is None or any(reason.rule in _STRANGER_RULES for reason in reasons)
        return _Content(
            handoff_id,
            task_id,
            hop_index,
            sender,
            edge,
            path,
            reasons,
            required,
            lenient,
            reached,
            tuple(consumed),
            constraints,
            route,
            budget,
            stranger,
            forged,
        )

    def _content(self, value: object, me: str, sender: str | None = None) -> _Content:
        try:
            return self._evaluate(value, me, sender)
        except NotJsonDataError:
            raise
        except Exception as error:  # a mapping or str subclass that raises while read: not plain JSON data
            reason = Reason("", "unreadable-envelope", f"reading the envelope threw: {quote_untrusted(str(error))}")
            return _Content(None, None, None, None, None, None, [reason], (), False, False, (), (), "proceed", None, True, False)

    def _content_for(self, call: str, value: object, me: str, sender: str | None = None) -> _Content:
        try:
            return self._content(value, me, sender)
        except NotJsonDataError as error:
            raise TypeError(f"{call}(): {error}") from None

    # -- options, clock, store ------------------------------------------------------------------

    def _check_options(self, call: str, me: object, can_read: object, seen: object, now: object) -> str:
        if not isinstance(me, str) or me == "":
            raise TypeError(f"{call}(): me must be the receiving agent's id, a non-empty str")
        if me not in self._agents:
            known = ", ".join(list(self._agents)[:20])
            raise TypeError(f"{call}(): me {quote_untrusted(me)} is no agent of graph {self._graph.name}; use one of {known}")
        if can_read is not None and not callable(can_read):
            raise TypeError(f"{call}(): can_read must be a function (ref, read_scope) -> bool, or None")
        if seen is not None and not callable(getattr(seen, "claim", None)):
            raise TypeError(f"{call}(): seen must be a store with a claim(request) method, such as create_memory_seen_store()")
        if now is not None and not callable(now):
            raise TypeError(f"{call}(): now must be a function returning seconds since the Unix epoch, or None")
        return me

    def _clock(self, call: str, now: Callable[[], float] | None) -> int:
        # Checked as any value: callers need not be type-checked.
        seconds = cast(object, time.time() if now is None else now())
        if type(seconds) is float and 0.0 <= seconds < _MILLISECONDS_FROM:
            # The 1 microsecond nudge undoes float error in seconds * 1000 for times given to the millisecond.
            return int(seconds * 1000 + 0.001)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"{call}(): now() must return seconds since the Unix epoch as a number, not {type(seconds).__name__}")
        if _MILLISECONDS_FROM <= seconds <= _MAX_TIME_SECONDS:
            raise TypeError(
                f"{call}(): now() returned {seconds!r}, which is milliseconds since the Unix epoch: it must return seconds (time.time())"
            )
        if not abs(seconds) <= _MAX_TIME_SECONDS:
            raise ValueError(f"{call}(): now() returned {seconds!r}, outside the times an ISO 8601 record can hold")
        ms = seconds * 1000
        # Truncated toward zero, as ECMAScript's TimeClip does.
        return math.floor(ms + 0.001) if ms >= 0 else -math.floor(0.001 - ms)

    def _accepted_at(self, ms: int) -> str:
        last = self._last_time
        if last[0] == ms:
            return last[1]
        text = _iso_time(ms)
        self._last_time = (ms, text)
        return text

    def _claim_request(self, content: _Content, me: str, at: int, reasons: list[Reason]) -> ClaimRequest | None:
        # A delivery that can neither start nor continue a task writes nothing in its ledger.
        if content.task_id is None or content.stranger:
            return None
        edge = content.edge
        handoff_id = content.handoff_id
        return ClaimRequest(
            # A UUID's hex digits are case-insensitive (RFC 9562 section 4): one handoff, one key.
            handoff_id.lower() if handoff_id is not None and _HAS_UPPER.search(handoff_id) else handoff_id,
            content.task_id,
            content.hop_index,
            content.producer,
            me,
            None if edge is None else self._claim_edges[id(edge)],
            "accepted" if not reasons or content.lenient else "rejected",
            at,
            content.path,
            content.budget,
        )

    def _refuse(
        self, content: _Content, reasons: list[Reason], duplicate: bool, claimed: object = None, untracked: bool = False
    ) -> Rejected:
        attempt = (claimed.attempt or 1) if isinstance(claimed, (Noted, OwnerConflict, Custody)) else None
        repairs = 1 if content.edge is None or content.edge.repairs is None else content.edge.repairs
        route: RejectionRoute = "repair"
        if duplicate:
            route = "discard"
        elif content.forged:
            route = "escalate"
        elif content.hop_limit_reached:
            route = self._graph.on_hop_limit
        elif untracked or isinstance(claimed, Finished) or (attempt is not None and attempt > repairs):
            route = "escalate"
        return Rejected(
            Rejection(content.handoff_id, content.hop_index, content.producer, route, tuple(cap_reasons(reasons)), attempt, repairs),
            duplicate,
        )

    def _custody_reasons(self, content: _Content, claimed: Custody) -> list[Reason]:
        task = quote_untrusted(content.task_id)
        last_hop = claimed.last_hop
        index = content.hop_index
        if claimed.owner is None or last_hop is None:
            return [self._unstarted_reason(fault, task, index) for fault in claimed.faults]
        owner = quote_untrusted(claimed.owner)
        last = f"hop {last_hop} was accepted last, by {owner}, so the next hop is {last_hop + 1}"
        out: list[Reason] = []
        for fault in claimed.faults:
            if fault.kind == "reset":
                out.append(
                    Reason(
                        "/hop/index",
                        "hop-reset",
                        f"hop {index} of task {task} goes back: {last} (a counter that is reset disables the hop limit)",
                    )
                )
            elif fault.kind == "skip":
                assert index is not None
                missing = f"hop {last_hop + 1}" if index - 1 == last_hop + 1 else f"hops {last_hop + 1} to {index - 1}"
                out.append(
                    Reason("/hop/index", "hop-skipped", f"hop {index} of task {task} skips {missing}, which no one accepted: {last}")
                )
            elif fault.kind == "producer":
                out.append(
                    Reason(
                        "/from_agent/id",
                        "not-owner",
                        f"{'a producer with no from_agent.id' if content.producer is None else quote_untrusted(content.producer)} does not own task {task}: {owner} accepted its last hop ({last_hop}), so only {owner} may hand it on",
                    )
                )
            elif fault.kind == "path":
                said = (
                    content.path[fault.position]
                    if content.path is not None and fault.position is not None and fault.position < len(content.path)
                    else None
                )
                out.append(
                    Reason(
                        f"/hop/path/{fault.position}",
                        "path-disagrees",
                        f"says {quote_untrusted(said)}, but the ledger of task {task} records {quote_untrusted(fault.expected)} at this step ({last})",
                    )
                )
            elif fault.kind in ("budget-limit", "budget-consumed"):
                out.append(_budget_reason(content, fault))
            else:
                raise TypeError(f"seen.claim returned an unknown custody fault {quote_untrusted(fault.kind)}")
        return out

    @staticmethod
    def _unstarted_reason(fault: CustodyFault, task: str, index: int | None) -> Reason:
        """A fault of a task with no accepted hop (graph scope): it starts at hop 1."""
        if fault.kind == "reset":
            return Reason(
                "/hop/index",
                "hop-reset",
                f"hop {index} of task {task} goes back: no hop of the task is recorded, so its first hop is 1 (a counter that is reset disables the hop limit)",
            )
        if fault.kind == "skip":
            return Reason(
                "/hop/index",
                "hop-skipped",
                f"hop {index} of task {task} cannot be its first: no earlier hop of the task is recorded, and a task starts at hop 1 "
                "(a task forgotten after its idle TTL cannot continue either)",
            )
        raise TypeError(f"seen.claim returned an unknown custody fault {quote_untrusted(fault.kind)}")

    def _ended_reason(self, content: _Content, ended: TaskEnd) -> Reason:
        hop = "" if ended.hop_index is None else f" after hop {ended.hop_index}"
        return Reason(
            "/task_id",
            "task-finished",
            f"task {quote_untrusted(content.task_id)} ended at {self._accepted_at(ended.at)}{hop}: {quote_untrusted(ended.agent)} took terminal "
            f"{quote_untrusted(ended.terminal)} ({quote_untrusted(ended.outcome)}); a finished task takes no further handoff",
        )

    def _settle(self, content: _Content, me: str, at: int, reasons: list[Reason], claimed: object, untracked: bool) -> AcceptResult:
        """The verdict from the content, the artefact reasons and the store's answer (if asked);
        untracked: a store was given but could not be asked (no str task_id)."""
        if claimed is not None:
            if isinstance(claimed, Duplicate):
                if claimed.of == "handoff":
                    path = "/handoff_id"
                    message = f"handoff {quote_untrusted(content.handoff_id)} was accepted before; it is not processed twice"
                else:
                    path = "/hop/index"
                    message = (
                        f"hop {content.hop_index} of task {quote_untrusted(content.task_id)} was accepted by "
                        f"{quote_untrusted(claimed.holder.receiver)} before, as handoff {quote_untrusted(claimed.holder.handoff_id)}: "
                        "a replay is not processed twice; a resumed task continues at the next hop"
                    )
                return self._refuse(content, [Reason(path, "duplicate", message), *reasons], True)
            if isinstance(claimed, OwnerConflict):
                reasons.append(
                    Reason(
                        "/to_agent/id",
                        "owner-conflict",
                        f"{quote_untrusted(claimed.owner)} already owns hop {content.hop_index} of task {quote_untrusted(content.task_id)}: one owner at a time",
                    )
                )
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, Custody):
                reasons.extend(self._custody_reasons(content, claimed))
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, Finished):
                return self._refuse(content, [self._ended_reason(content, claimed.ended), *reasons], False, claimed)
            if isinstance(claimed, Noted):
                return self._refuse(content, reasons, False, claimed)
            if not isinstance(claimed, Claimed):
                raise TypeError(
                    f"seen.claim returned {type(claimed).__name__}, not Claimed, Noted, Duplicate, OwnerConflict, Custody or Finished"
                )
        if untracked:
            # A refusal the store cannot count could go back for repair forever: a person decides.
            if content.task_id is None:
                reasons.append(_UNTRACKED_REASON)
            return self._refuse(content, reasons, False, None, True)
        if reasons and not content.lenient:
            return self._refuse(content, reasons, False)
        # lenient or no reason at all: the header is usable (the schema or lenient saw to that).
        assert (
            content.handoff_id is not None
            and content.task_id is not None
            and content.hop_index is not None
            and content.producer is not None
        )
        record = AcceptanceRecord(
            content.handoff_id,
            content.task_id,
            content.hop_index,
            content.producer,
            me,
            self._accepted_at(at),
            content.consumed,
            content.route,
            content.constraints,
            tuple(cap_reasons(reasons)),
        )
        return Accepted(record)

    def _claim(
        self, call: str, content: _Content, me: str, reasons: list[Reason], seen: AsyncSeenStore | None, now: Callable[[], float] | None
    ) -> tuple[int, object]:
        """The time of the delivery, and the store's answer to its claim: None without a store or
        without a usable header, else what claim() returned (an awaitable from an async store)."""
        at = self._clock(call, now)
        request = None if seen is None else self._claim_request(content, me, at, reasons)
        if seen is None or request is None:
            return at, None
        # Typed as any value: a custom store need not be type-checked, and a None would read as
        # "no store asked" and accept everything.
        answer = cast(object, seen.claim(request))
        if answer is None:
            raise TypeError(f"{call}(): seen.claim returned None, not a claim result such as Claimed()")
        return at, answer

    @staticmethod
    def _unreadable(me: str, artefact: _Required) -> Reason:
        return Reason(
            f"/artefacts/{artefact.position}/ref",
            "artefact-unreadable",
            f"{me} cannot read required artefact {quote_untrusted(artefact.ref)}",
        )

    def accept(
        self,
        value: object,
        me: str,
        can_read: CanRead | None,
        seen: SeenStore | None,
        now: Callable[[], float] | None,
        sender: str | None = None,
    ) -> AcceptResult:
        """See the module's accept(); sender: the producer the transport authenticated (None: from_agent is a claim)."""
        me = self._check_options("accept", me, can_read, seen, now)
        _check_sender("accept", sender)
        if can_read is not None and _is_async_function(can_read):
            raise TypeError("accept(): can_read is an async function: use accept_async, which awaits it")
        content = self._content_for("accept", value, me, sender)
        reasons = content.reasons
        if can_read is not None:
            for artefact in content.required:
                answer: object = can_read(artefact.ref, artefact.scope)
                if answer is not True and inspect.isawaitable(answer):
                    if inspect.iscoroutine(answer):
                        answer.close()
                    raise TypeError("accept(): can_read returned an awaitable: use accept_async, which awaits it")
                if answer is not True:
                    reasons.append(self._unreadable(me, artefact))
        at, claimed = self._claim("accept", content, me, reasons, seen, now)
        if inspect.isawaitable(claimed):
            if inspect.iscoroutine(claimed):
                claimed.close()
            raise TypeError("accept(): seen.claim returned an awaitable: use accept_async with an asynchronous store")
        return self._settle(content, me, at, reasons, claimed, seen is not None and (content.task_id is None or content.stranger))

    async def accept_async(
        self,
        value: object,
        me: str,
        can_read: CanReadAsync | None,
        seen: AsyncSeenStore | None,
        now: Callable[[], float] | None,
        sender: str | None = None,
    ) -> AcceptResult:
        """See the module's accept_async()."""
        me = self._check_options("accept_async", me, can_read, seen, now)
        _check_sender("accept_async", sender)
        content = self._content_for("accept_async", value, me, sender)
        reasons = content.reasons
        if can_read is not None and content.required:
            # Asked a few at a time: an envelope listing 10**5 artefacts does not start 10**5 requests at once.
            answers: list[object] = [None] * len(content.required)
            queue = iter(range(len(content.required)))
            ask = can_read

            async def worker() -> None:
                for i in queue:
                    artefact = content.required[i]
                    answer: object = ask(artefact.ref, artefact.scope)
                    answers[i] = await cast(Awaitable[object], answer) if inspect.isawaitable(answer) else answer

            await asyncio.gather(*(worker() for _ in range(min(CAN_READ_CONCURRENCY, len(content.required)))))
            for artefact, answer in zip(content.required, answers, strict=False):
                if answer is not True:
                    reasons.append(self._unreadable(me, artefact))
        at, claimed = self._claim("accept_async", content, me, reasons, seen, now)
        if inspect.isawaitable(claimed):
            claimed = await claimed
        return self._settle(content, me, at, reasons, claimed, seen is not None and (content.task_id is None or content.stranger))

    # -- terminal actions -----------------------------------------------------------------------

    def _finish_request(
        self, call: str, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object
    ) -> FinishRequest:
        if not isinstance(task_id, str) or task_id == "":
            raise TypeError(f"{call}(): task_id must be the task_id of the task that ends, a non-empty str")
        if me is None:
            raise TypeError(f"{call}(): me is missing: name the agent taking the terminal action")
        agent = self._terminals.get(me) if isinstance(me, str) else None
        if agent is None:
            raise TypeError(f"{call}(): me {quote_untrusted(me)} is no agent of graph {self._graph.name}")
        known = ", ".join(t.id for t in agent)
        if terminal is None:
            declares = f"agent {me} declares no terminal, so it cannot end a task" if not known else f"agent {me} declares {known}"
            raise TypeError(f"{call}(): terminal is missing: {declares}")
        declared = next((t for t in agent if t.id == terminal), None)
        if declared is None:
            tail = "; it declares none, so it cannot end a task" if not known else f"; its terminals are {known}"
            raise TypeError(f"{call}(): agent {me} declares no terminal {quote_untrusted(terminal)}{tail}")
        if outcome is None:
            raise TypeError(f"{call}(): outcome is missing: terminal {declared.id} of {me} has the outcome {declared.outcome}")
        if outcome != declared.outcome:
            raise TypeError(f"{call}(): terminal {declared.id} of {me} has the outcome {declared.outcome}, not {quote_untrusted(outcome)}")
        if not callable(getattr(seen, "finish", None)):
            raise TypeError(
                f"{call}(): seen must be the store accept() claims on, with a finish(request) method, such as create_memory_seen_store()"
            )
        if now is not None and not callable(now):
            raise TypeError(f"{call}(): now must be a function returning seconds since the Unix epoch, or None")
        at = self._clock(call, cast(Callable[[], float] | None, now))
        return FinishRequest(task_id, cast(str, me), declared.id, declared.outcome, at, me in self._entries)

    def _finish_verdict(self, call: str, request: FinishRequest, result: object) -> FinishVerdict:
        task = quote_untrusted(request.task_id)
        if isinstance(result, TaskFinished):
            return FinishVerdict(True, self._end_record(request.task_id, result.ended))
        if isinstance(result, NotOwner):
            if result.owner is None:
                why = f"no hop of it was accepted, so it is still with the entry agent that took it in: only an entry agent ({self._entry_list}) may end it"
            else:
                why = f"{quote_untrusted(result.owner)} accepted its last hop ({result.last_hop}), so only it may end the task"
            message = f"{quote_untrusted(request.agent)} does not own task {task}: {why}"
            return FinishVerdict(False, None, "not-owner", message, result.owner)
        if isinstance(result, AlreadyFinished):
            record = self._end_record(request.task_id, result.ended)
            message = f"task {task} ended before, at {record.ended_at}: {quote_untrusted(record.agent)} took terminal {quote_untrusted(record.terminal)} ({record.outcome})"
            return FinishVerdict(False, record, "task-finished", message)
        raise TypeError(f"{call}(): seen.finish returned {type(result).__name__}, not TaskFinished, NotOwner or AlreadyFinished")

    def _end_record(self, task_id: str, ended: TaskEnd) -> EndRecord:
        return EndRecord(task_id, ended.agent, ended.terminal, ended.outcome, self._accepted_at(ended.at), ended.hop_index)

    def finish(self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object) -> FinishVerdict:
        """See the module's finish()."""
        request = self._finish_request("finish", task_id, me, terminal, outcome, seen, now)
        answer = cast(Any, seen).finish(request)
        if inspect.isawaitable(answer):
            if inspect.iscoroutine(answer):
                answer.close()
            raise TypeError("finish(): seen.finish returned an awaitable: use finish_async with an asynchronous store")
        return self._finish_verdict("finish", request, answer)

    async def finish_async(
        self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object
    ) -> FinishVerdict:
        """See the module's finish_async()."""
        request = self._finish_request("finish_async", task_id, me, terminal, outcome, seen, now)
        answer = cast(Any, seen).finish(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return self._finish_verdict("finish_async", request, answer)


def _counters(value: object) -> dict[str, int] | None:
    if not isinstance(value, dict):
        return None
    fields = cast("dict[str, Any]", value)
    found = {counter: count for counter in _COUNTERS if (count := _whole_number(fields.get(counter))) is not None}
    return found or None


def _budget_of(budget: object) -> ClaimBudget | None:
    """The envelope's whole-number budget counters for the ledger (None without a budget object)."""
    if not isinstance(budget, dict):
        return None
    fields = cast("dict[str, Any]", budget)
    return ClaimBudget(_counters(fields.get("limit")), _counters(fields.get("consumed")))


def _budget_reason(content: _Content, fault: CustodyFault) -> Reason:
    """A budget-limit or budget-consumed custody fault, worded as the JavaScript runtime does."""
    budget = content.budget
    counter = cast(str, fault.counter)
    if fault.kind == "budget-limit":
        limit = None if budget is None or budget.limit is None else budget.limit.get(counter)
        path = f"/budget/limit/{counter}"
        if limit is None:
            return rule_reason(path, "budget-limit-raised", "dropped", counter=counter, before=fault.before, hop=fault.hop)
        return rule_reason(path, "budget-limit-raised", "raised", counter=counter, limit=limit, before=fault.before, hop=fault.hop)
    spent = None if budget is None or budget.consumed is None else budget.consumed.get(counter)
    path = f"/budget/consumed/{counter}"
    if spent is None:
        return rule_reason(path, "budget-consumed-decreased", "hidden", counter=counter, before=fault.before, hop=fault.hop)
    return rule_reason(path, "budget-consumed-decreased", "decreased", counter=counter, spent=spent, before=fault.before, hop=fault.hop)


def _check_sender(call: str, sender: object) -> None:
    if sender is not None and (not isinstance(sender, str) or sender == ""):
        raise TypeError(f"{call}(): sender must be the producer's agent id as the transport authenticated it, a non-empty str, or None")
