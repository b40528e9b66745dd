"""The graph as data (frozen dataclasses) and what `accept()` returns
(reasons, the acceptance record, the rejection: named tuples, immutable and cheap to build on
the ingest path), each with `to_dict()` giving the JavaScript runtime's JSON shape.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple, TypeAlias, TypeVar, cast

Role = Literal["supervisor", "worker", "peer"]
EdgeKind = Literal["delegate", "return", "transfer"]
Outcome = Literal["complete", "failed", "escalate"]
HopLimitAction = Literal["escalate", "failed"]
Route = Literal["proceed", "human_input", "approval", "failed", "held"]
"""Where an accepted task goes next, from the envelope's status."""
RejectionRoute = Literal["repair", "escalate", "failed", "discard", "retry"]
"""Where a refused envelope goes: repair; escalate once the producer's repairs in the task's round
are used up (attempt past the edge's repairs), when the task ended, when a decision is below the
edge's floor and no other route of the sender takes the envelope (confidence-below-floor), or
when a store is given and task_id is not a str (untracked-task); escalate or failed at the hop
limit; discard a duplicate."""
RecordOutcome = Literal["recorded", "duplicate", "owner-conflict"]


_Fields = TypeVar("_Fields", bound=tuple[object, ...])
# Looked up once: reading tuple.__new__ is an attribute lookup on the type.
_TUPLE_NEW: Final = cast("Callable[[type[Any], tuple[object, ...]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]


def make_tuple(cls: type[_Fields], fields: tuple[object, ...]) -> _Fields:
    """cls(*fields) for a NamedTuple class, given every field in order (defaults are not filled
    in): tuple.__new__ itself, since the class's own __new__ is interpreted code (written by
    collections.namedtuple), which costs a compiled accept() more than reading every field."""
    made: _Fields = _TUPLE_NEW(cls, fields)
    return made


@dataclass(frozen=True, slots=True)
class GraphInfo:
    """A graph's settings: name, envelope version (major, minor), entry agents, the hop limit
    producers put in hop.limit, where a task goes at the limit, the loop-signature field paths."""

    name: str
    envelope: tuple[int, int]
    entries: tuple[str, ...]
    hop_limit: int
    on_hop_limit: HopLimitAction
    loop_signature: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TerminalInfo:
    """A terminal action of an agent."""

    id: str
    outcome: Outcome
    description: str | None = None


@dataclass(frozen=True, slots=True)
class AgentInfo:
    """An agent of the graph; version is None when the graph declares none. gate: an approval
    gate (what leaves it carries an approval record and is not waiting_review)."""

    id: str
    role: Role
    version: str | None
    terminals: tuple[TerminalInfo, ...]
    gate: bool = False
    join: "JoinInfo | None" = None
    """join ...: the agent waits for branches of a fan-out; None when it is no join."""


@dataclass(frozen=True, slots=True)
class JoinInfo:
    """What a join agent waits for: the inputs (agents, in source order), how many of their
    branches must arrive (need: all of them, 1 for any, or k), within (seconds; None without a
    deadline) and otherwise ("escalate", or a terminal of the join agent)."""

    inputs: tuple[str, ...]
    need: int
    within: int | None
    otherwise: str


GuardSubject = Literal["status", "allowed_next_step", "confidence"]
"""What a guard tests: the envelope's status, its allowed_next_step, or confidence (the lowest
decisions[].confidence)."""


@dataclass(frozen=True, slots=True)
class GuardCondition:
    """One test of a guard (docs/language.md, Guards): status or allowed_next_step is one of
    values; or confidence compared (operator "<", "<=", ">" or ">=") with value, from 0 to 1."""

    subject: GuardSubject
    values: tuple[str, ...] = ()
    operator: Literal["<", "<=", ">", ">="] | None = None
    value: float | None = None


@dataclass(frozen=True, slots=True)
class GuardInfo:
    """An edge's guard: every condition holds (when ... and ...), or otherwise (no other guard of
    the agent's router matches). The guarded edges out of one agent are tried in declaration order."""

    otherwise: bool
    conditions: tuple[GuardCondition, ...]


@dataclass(frozen=True, slots=True)
class FloorInfo:
    """min_confidence: the lowest decision confidence an edge takes (0 to 1), for every decision
    (decisions empty) or the decision ids named."""

    value: float
    decisions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EdgeInfo:
    """An edge: kind, endpoints, observe (warn instead of refuse), max_rounds (None: unbounded),
    the contract's required field paths (sorted) and the index of its contract validator."""

    kind: EdgeKind
    from_agent: str
    to_agent: str
    observe: bool
    max_rounds: int | None
    require: tuple[str, ...]
    contract: int
    repairs: int | None = None
    """Refusals of one hop that go back for repair before the next escalates (None: 1)."""
    guard: GuardInfo | None = None
    """when ... or otherwise; None for an edge the producer may take in any state."""
    min_confidence: FloorInfo | None = None
    """The edge's confidence floor; None when it has none."""
    gate: bool = False
    """gate on the edge itself: an approval gate (the agent it leaves may still be one)."""
    fan_out: str | None = None
    """fan_out NAME on a delegate edge: the edge is branch NAME/to_agent of that fan-out (every
    envelope over it carries hop.branch so); None when it is no branch."""


class Reason(NamedTuple):
    """One violated rule: path is a JSON Pointer (RFC 6901) into the envelope, rule a stable
    kebab-case id (a schema keyword or an ingest rule), message one sentence for people."""

    path: str
    rule: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """{"path", "rule", "message"}, as the JavaScript runtime returns it."""
        return {"path": self.path, "rule": self.rule, "message": self.message}


class Lease(NamedTuple):
    """A claim's lease: the token this claim attempt holds it under, and when it runs out
    (expires_at, ISO 8601, UTC): process the handoff, then commit() (or release()) it before."""

    token: str
    expires_at: str


class AcceptanceRecord(NamedTuple):
    """What the receiver took on: the handoff, its producer, the receiver, accepted_at (ISO 8601,
    UTC, milliseconds), the artefacts consumed (refs not superseded, in envelope order), the
    route, the constraints carried forward, on an observe edge the would-be reasons, and with a
    store that leases claims the claim's lease (None: committed already)."""

    handoff_id: str
    task_id: str
    hop_index: int
    producer: str
    receiver: str
    accepted_at: str
    artefacts_consumed: tuple[str, ...]
    route: Route
    constraints: tuple[str, ...]
    warnings: tuple[Reason, ...]
    lease: Lease | None = None
    branch: str | None = None
    """The fan-out branch the handoff travels in (hop.branch); None outside one."""
    join: "dict[str, object] | None" = None
    """An arrival at a join: the join's state after it ({agent, arrived, waiting, fired, hop,
    consumed}, as the JavaScript record's join); None for any other handoff."""

    def to_dict(self) -> dict[str, object]:
        """The record as the JavaScript runtime returns it."""
        extra: dict[str, object] = {}
        if self.branch is not None:
            extra["branch"] = self.branch
        if self.join is not None:
            extra["join"] = self.join
        return {
            "handoff_id": self.handoff_id,
            "task_id": self.task_id,
            "hop_index": self.hop_index,
            "producer": self.producer,
            "receiver": self.receiver,
            "accepted_at": self.accepted_at,
            "artefacts_consumed": list(self.artefacts_consumed),
            "route": self.route,
            "constraints": list(self.constraints),
            "warnings": [warning.to_dict() for warning in self.warnings],
            "lease": None if self.lease is None else {"token": self.lease.token, "expires_at": self.lease.expires_at},
            **extra,
        }


class Rejection(NamedTuple):
    """Which handoff (None without a string handoff_id), at which hop (None without an integer
    hop.index), from whom (None without from_agent.id), where it goes, and every reason."""

    handoff_id: str | None
    hop_index: int | None
    producer: str | None
    route: RejectionRoute
    reasons: tuple[Reason, ...]
    attempt: int | None = None
    """Which refusal this is of its producer in the task's round (the hop the task awaits), as the
    store counted it (None: not counted: no store, a duplicate, an ended task, no str task_id)."""
    repairs: int = 1
    """Refusals per producer and round that go back for repair (the edge's repairs)."""
    join: dict[str, object] | None = None
    """A refusal because the task's join was given up on (join-expired, join-failed): agent,
    state, policy, acts (this verdict acted on the policy), missing, ended, deadline (ISO 8601);
    None otherwise."""

    def to_dict(self) -> dict[str, object]:
        """The rejection as the JavaScript runtime returns it."""
        return {
            "handoff_id": self.handoff_id,
            "hop_index": self.hop_index,
            "producer": self.producer,
            "attempt": self.attempt,
            "repairs": self.repairs,
            "route": self.route,
            "reasons": [reason.to_dict() for reason in self.reasons],
            **({} if self.join is None else {"join": self.join}),
        }


class Accepted(NamedTuple):
    """accept()'s verdict for an envelope taken on (ok is True, duplicate False)."""

    record: AcceptanceRecord
    ok: Literal[True] = True
    duplicate: Literal[False] = False

    def to_dict(self) -> dict[str, object]:
        """{"ok": true, "duplicate": false, "record": ...}, as the JavaScript runtime returns it."""
        return {"ok": True, "duplicate": False, "record": self.record.to_dict()}


class Rejected(NamedTuple):
    """accept()'s verdict for a refused envelope; duplicate is True only for a repeated handoff_id."""

    rejection: Rejection
    duplicate: bool = False
    ok: Literal[False] = False

    def to_dict(self) -> dict[str, object]:
        """{"ok": false, "duplicate": ..., "rejection": ...}, as the JavaScript runtime returns it."""
        return {"ok": False, "duplicate": self.duplicate, "rejection": self.rejection.to_dict()}


AcceptResult: TypeAlias = Accepted | Rejected
