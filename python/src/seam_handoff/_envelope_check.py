"""The content half of accept() (the port of src/runtime/envelope-check.ts): what one envelope
says, judged against one graph, with no I/O. Every check whose inputs are well-typed runs,
whatever else is wrong, so a rejection lists every reason at once:
1. the JSON Schema of the edge's contract (every error), and JSON data;
2. the envelope's semantics: the authenticated sender, bounded ids, major version, addressee,
   hop limit (the graph's, whatever the envelope claims), budget counters, blocking questions;
3. the graph's own: the edge exists, roles and agent versions match the graph, hop.path is a
   walk of the graph within max_rounds; the edge's guard is met and no earlier route takes the
   envelope, its confidence floor holds, and nothing waiting for review leaves a gate.
Each check is a module of `checks/`, named after its rule id; this module is the pipeline.
Required artefacts are listed for can_read, which the caller asks (synchronously or not).
"""

from collections.abc import Callable, Set
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from ._fan_outs import fan_out_map
from ._fields import ABSENT, BUDGET_COUNTERS, MAX_SAFE_INTEGER, all_strings, field, string_at, whole_number
from ._guard_route import describe_edge
from ._records import AgentInfo, EdgeInfo, GraphInfo, Reason, Role, Route, make_tuple
from ._schema_reasons import SchemaReasons, is_header_path, schema_reasons
from ._stores import ClaimApproval, ClaimBranch, ClaimBudget
from ._untrusted import NotJsonDataError, json_data_problems, parse_agent_version, quote_untrusted
from ._values import SchemaError
from .checks.agent_version import check_agent_version
from .checks.approval_pending import check_gate_status
from .checks.bad_hop_path import PathGraph, check_hop_path
from .checks.blocking_question import check_blocking_questions
from .checks.branch_mismatch import check_branch
from .checks.budget_counter_missing import check_counters_reported
from .checks.budget_exhausted import check_counters
from .checks.confidence_below_floor import check_floor
from .checks.guard_unmet import check_guard
from .checks.hop_limit_reached import check_hop_limit
from .checks.id_too_long import check_id_lengths
from .checks.not_addressed_to_me import check_addressee
from .checks.role_mismatch import check_role
from .checks.sender_mismatch import check_sender
from .checks.unknown_edge import report_unknown_edge
from .checks.unreadable_envelope import unreadable_reason
from .checks.version_major import check_version

Validate = Callable[[object], list[SchemaError]]
"""A generated JSON Schema validator: every error of a value (an empty list when it is valid)."""

_STATUS_ROUTES: Final[dict[str, Route]] = {
    "ready": "proceed",
    "partial": "proceed",
    "blocked": "human_input",
    "waiting_review": "approval",
    "failed": "failed",
}
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
_NO_REFS: Final[frozenset[int]] = frozenset()
_APPROVAL_SINCE: Final = 4
"""The first envelope minor version with the approval record."""


class Pair(NamedTuple):
    """The edges between one ordered pair of agents (usually one; a supervisor pair may have a
    delegate and a return), their validators, and the rounds they allow together (None: unbounded)."""

    edges: tuple[EdgeInfo, ...]
    validators: tuple[Validate, ...]
    max_rounds: int | None


class RequiredArtefact(NamedTuple):
    """A required artefact to ask can_read about: its index in artefacts, ref and read_scope."""

    position: int
    ref: str
    scope: str | None


class Content:
    """What one envelope's content gives; the claim and the verdict are made from it. A class
    with slots, not a NamedTuple: the compiled build makes and reads it natively, where a
    NamedTuple is made through an interpreted __new__ and read through descriptors."""

    __slots__ = (
        "handoff_id",
        "task_id",
        "hop_index",
        "producer",
        "edge",
        "path",
        "reasons",
        "required",
        "lenient",
        "hop_limit_reached",
        "consumed",
        "constraints",
        "route",
        "budget",
        "stranger",
        "forged",
        "floor_escalates",
        "approval",
        "branch",
        "counted",
    )

    def __init__(
        self,
        handoff_id: str | None,
        task_id: str | None,
        hop_index: int | None,
        producer: str | None,
        edge: EdgeInfo | None,
        path: tuple[str, ...] | None,
        reasons: list[Reason],
        required: tuple[RequiredArtefact, ...],
        lenient: bool,
        hop_limit_reached: bool,
        consumed: tuple[str, ...],
        constraints: tuple[str, ...],
        route: Route,
        budget: ClaimBudget | None = None,
        stranger: bool = False,
        forged: bool = False,
        floor_escalates: bool = False,
        approval: ClaimApproval | None = None,
        branch: ClaimBranch | None = None,
        counted: dict[str, int] | None = None,
    ) -> None:
        self.handoff_id = handoff_id
        self.task_id = task_id
        self.hop_index = hop_index
        self.producer = producer
        self.edge = edge
        # hop.path when all str, at most its first hop_limit + 1 entries (no more can be a walk within the limit).
        self.path = path
        self.reasons = reasons
        self.required = required
        # The reasons may become warnings: an observe edge, a usable header, addressed to me, no limit crossed.
        self.lenient = lenient
        self.hop_limit_reached = hop_limit_reached
        self.consumed = consumed
        self.constraints = constraints
        self.route = route
        self.budget = budget
        # The delivery could neither start nor continue a task: the ledger is not asked.
        self.stranger = stranger
        # from_agent.id is not the authenticated sender.
        self.forged = forged
        # A decision is below the edge's floor and no other route takes the envelope: a person decides.
        self.floor_escalates = floor_escalates
        # What the ledger needs to hold approvals (graphs of envelope 1.4 and later; None before).
        self.approval = approval
        # The fan-out branch the delivery travels in (hop.branch, checked against the graph); None outside one.
        self.branch = branch
        # For a schema rule past PER_RULE_LIMIT, how many reasons its last entry stands for (cap_reasons).
        self.counted = counted


_NO_FIELDS: Final[dict[str, Any]] = {}


def _walk_for_misuse(value: object) -> None:
    """Raises NotJsonDataError when value holds what json.loads never returns; else nothing,
    whatever else reading it raises (that is the envelope's fault, not the caller's)."""
    try:
        json_data_problems(value)
    except NotJsonDataError:
        raise
    except Exception:
        return


def _fields_of(value: object) -> dict[str, Any]:
    """value when it is a dict, else a dict without fields: fields_of(x).get(name) reads a field of anything."""
    if isinstance(value, dict):
        if TYPE_CHECKING:
            value = cast("dict[str, Any]", value)
        return value
    return _NO_FIELDS


def _counters(fields: dict[str, Any]) -> dict[str, int] | None:
    if not fields:
        return None
    found: dict[str, int] | None = None
    for counter in BUDGET_COUNTERS:
        # `in` first: most counters are absent, and a lookup costs more.
        if counter not in fields:
            continue
        value = fields[counter]
        if value is None:
            continue
        # An int in range is the common case; the rest (a float such as 3.0) goes through whole_number.
        count = value if type(value) is int and 0 <= value <= MAX_SAFE_INTEGER else whole_number(value)
        if count is not None:
            if found is None:
                found = {}
            found[counter] = count
    return found


def _consumed(artefacts: list[object]) -> list[str]:
    """The references an accepted envelope hands over: every artefact's ref but the superseded ones'."""
    refs: list[str] = []
    for artefact in artefacts:
        ref = string_at(artefact, "ref")
        if ref is not None and field(artefact, "role") != "superseded":
            refs.append(ref)
    return refs


class EnvelopeCheck:
    """The content check of one graph; its lookups are built once.

    Raises TypeError when an agent declares a version that is not MAJOR.MINOR.PATCH (seam check
    refuses that; a hand-made spec may not)."""

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
        self.agents: dict[str, tuple[Role, tuple[int, int, int, str] | None]] = {}
        """Each agent's role and parsed declared version (None: any)."""
        for agent in agents:
            version = None if agent.version is None else parse_agent_version(agent.version)
            if agent.version is not None and version is None:
                raise TypeError(f"agent {agent.id} declares version {quote_untrusted(agent.version)}, which is not MAJOR.MINOR.PATCH")
            self.agents[agent.id] = (agent.role, version)
        self._validate_envelope = validate_envelope
        self._free_text_ok = free_text_ok
        grouped: dict[tuple[str, str], list[EdgeInfo]] = {}
        for edge in edges:
            grouped.setdefault((edge.from_agent, edge.to_agent), []).append(edge)
        self._pairs: dict[tuple[str, str], Pair] = {}
        for key, group in grouped.items():
            bounded = all(edge.max_rounds is not None for edge in group)
            self._pairs[key] = Pair(
                tuple(group),
                tuple(contracts[edge.contract] for edge in group),
                sum(edge.max_rounds or 0 for edge in group) if bounded else None,
            )
        # Each agent's router: its guarded edges, in declaration order; and the gate agents.
        self._routers: dict[str, list[EdgeInfo]] = {}
        for edge in edges:
            if edge.guard is not None:
                self._routers.setdefault(edge.from_agent, []).append(edge)
        self._gates = frozenset(agent.id for agent in agents if agent.gate)
        self._approvals = graph.envelope[0] == 1 and graph.envelope[1] >= _APPROVAL_SINCE
        # hop.branch exists from envelope 1.4 on: an older graph's fan-outs are checked as delegations.
        self._branches_checked = self._approvals
        self._fan_outs = fan_out_map(agents, edges if self._branches_checked else ())
        self._path_graph = PathGraph(graph.name, graph.hop_limit, frozenset(graph.entries), ", ".join(graph.entries), self._pairs)
        self._versions: dict[tuple[str, str], str | None] = {}

    def _semantic_checks(
        self, envelope: dict[str, Any], hop: object, to: str | None, me: str, reasons: list[Reason], faulty_refs: Set[int]
    ) -> tuple[bool, tuple[RequiredArtefact, ...], ClaimBudget | None]:
        """Stage 2, the envelope's own semantics; returns whether the hop limit is reached, the
        required artefacts, and the whole-number budget counters for the ledger (None without a
        budget object)."""
        get = envelope.get
        check_version(self._graph, get("envelope_version"), reasons)
        check_addressee(to, me, reasons)
        reached = check_hop_limit(self._graph, hop, reasons)
        budget = _fields_of(get("budget"))
        claim_budget: ClaimBudget | None = None
        # _NO_FIELDS stands for a value that is no dict (an envelope's own {} is another object).
        if budget is not _NO_FIELDS:
            consumed = _fields_of(budget.get("consumed"))
            caps = _fields_of(budget.get("limit"))
            # The whole-number counters, read once: the two budget checks and the ledger take them.
            limit = _counters(caps)
            spent = _counters(consumed)
            if consumed is not _NO_FIELDS and limit is not None:
                check_counters(spent, limit, reasons)
                check_counters_reported(consumed, limit, reasons)
            claim_budget = make_tuple(ClaimBudget, (limit, spent))
        artefacts = get("artefacts")
        required = self._required_artefacts(artefacts, faulty_refs) if artefacts else ()
        check_blocking_questions(get("open_questions"), get("status"), reasons)
        return reached, required, claim_budget

    @staticmethod
    def _required_artefacts(artefacts: object, faulty_refs: Set[int]) -> tuple[RequiredArtefact, ...]:
        """The required artefacts to ask can_read about: references that passed the schema
        (absolute URIs) only, each distinct (ref, read_scope) once."""
        if not isinstance(artefacts, list):
            return ()
        required: list[RequiredArtefact] = []
        asked: set[tuple[str, str | None]] = set()
        for i, artefact in enumerate(cast("list[object]", artefacts)):
            ref = string_at(artefact, "ref")
            scope = field(artefact, "read_scope")
            if field(artefact, "role") != "required" or ref is None or (scope is not ABSENT and not isinstance(scope, str)):
                continue
            if i in faulty_refs:
                continue
            key = (ref, None if scope is ABSENT else scope)
            if key in asked:
                continue
            asked.add(key)
            required.append(RequiredArtefact(i, ref, key[1]))
        return tuple(required)

    def _graph_checks(
        self,
        from_ref: dict[str, Any],
        to_ref: dict[str, Any],
        producer: str,
        receiver: str,
        pair: Pair | None,
        index: int | None,
        path: list[str] | None,
        reasons: list[Reason],
    ) -> None:
        """Stage 3, the graph's own checks; from_ref and to_ref: the envelope's from_agent and
        to_agent, path its hop.path when all str."""
        name = self._graph.name
        agents = self.agents
        if pair is None:
            report_unknown_edge(name, producer, receiver, agents, reasons)
        known = agents.get(producer)
        if known is not None and from_ref:
            check_role("from_agent", producer, known[0], from_ref.get("role"), name, reasons)
            check_agent_version("from_agent", producer, known[1], from_ref.get("version"), self._versions, reasons)
        known = agents.get(receiver)
        if known is not None and to_ref:
            check_role("to_agent", receiver, known[0], to_ref.get("role"), name, reasons)
            check_agent_version("to_agent", receiver, known[1], to_ref.get("version"), self._versions, reasons)
        if pair is not None and path is not None:
            check_hop_path(self._path_graph, path, index, producer, receiver, reasons)

    def _route_checks(self, edge: EdgeInfo, envelope: dict[str, Any], reasons: list[Reason]) -> bool:
        """The route checks of the edge the envelope takes (stage 3): its guard, its floor, its
        gate. Returns True when a decision is below the floor and no other route takes it."""
        router = self._routers.get(edge.from_agent, [])
        if edge.guard is not None:
            check_guard(edge, router, envelope, reasons)
        escalates = edge.min_confidence is not None and check_floor(edge, router, envelope, reasons)
        if edge.gate:
            check_gate_status(envelope.get("status"), describe_edge(edge), reasons)
        elif edge.from_agent in self._gates:
            check_gate_status(envelope.get("status"), edge.from_agent, reasons)
        return escalates

    def _branch_of(self, edge: EdgeInfo | None, sender: str, receiver: str, given: object, reasons: list[Reason]) -> ClaimBranch | None:
        """The branch a delivery sender -> receiver over edge travels in, when hop.branch (given)
        is right for it (else a branch-mismatch reason); None outside a branch."""
        # Not a string: the schema said so, and nothing here can be compared.
        if not self._branches_checked or (given is not ABSENT and not isinstance(given, str)):
            return None
        claimed = None if given is ABSENT else cast(str, given)
        fans = self._fan_outs
        own = None if edge is None else fans.of_edge.get((edge.from_agent, edge.to_agent)) if edge.fan_out is not None else None
        if (
            not check_branch(self._graph.name, fans.ids, sender, receiver, None if own is None else (own.fan_out, own.id), claimed, reasons)
            or claimed is None
        ):
            return None
        known = own if own is not None else fans.by_id[claimed]
        join = known.join
        arrives = own is None and join is not None and join.agent == receiver and sender in fans.inputs.get(receiver, frozenset())
        return ClaimBranch(known.id, known.fan_out, known.from_agent, known.agent, known.siblings, join, own is not None, arrives)

    def _approval_of(self, envelope: dict[str, Any] | None) -> ClaimApproval | None:
        """The approval facts of the envelope for the ledger; None in a graph whose envelope has no approval record."""
        if not self._approvals or envelope is None:
            return None
        cited = field(envelope.get("approval"), "pending_handoff_id")
        # A UUID's hex digits are case-insensitive (RFC 9562 section 4), as for handoff ids.
        return ClaimApproval(envelope.get("status") == "waiting_review", cited.lower() if isinstance(cited, str) else None)

    def _schema_check(self, value: object, pair: Pair | None) -> tuple[EdgeInfo | None, SchemaReasons | None]:
        """Stage 1: the JSON Schema of the edge's contract (the envelope's alone without an edge);
        None when the validator accepts the envelope."""
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
        if not errors:
            return edge, None
        return edge, schema_reasons(errors)

    def _evaluate(self, value: object, me: str, claimed_sender: str | None) -> Content:
        # Each field is read once, here, and handed to the checks that need it.
        fields = _fields_of(value)
        envelope = None if fields is _NO_FIELDS else fields
        from_ref = _fields_of(fields.get("from_agent"))
        to_ref = _fields_of(fields.get("to_agent"))
        sender = from_ref.get("id")
        sender = sender if isinstance(sender, str) else None
        receiver = to_ref.get("id")
        receiver = receiver if isinstance(receiver, str) else None
        hop = fields.get("hop")
        hop_fields = _fields_of(hop)
        index: Any = hop_fields.get("index")
        hop_index: int | None = index if type(index) is int and 0 <= index <= MAX_SAFE_INTEGER else whole_number(index)
        hop_path = hop_fields.get("path")
        path = hop_path if all_strings(hop_path) else None
        pair = self._pairs.get((sender, receiver)) if sender is not None and receiver is not None else None
        edge, schema = self._schema_check(value, pair)
        # A schema-valid envelope types every value, so only its free text needs a look (the hot
        # path); anything else gets the full walk, which names every place that is not JSON data.
        reasons = [] if schema is None and self._free_text_ok(value) else json_data_problems(value)
        if schema is not None:
            reasons.extend(schema.reasons)
        handoff_id = fields.get("handoff_id")
        handoff_id = handoff_id if isinstance(handoff_id, str) else None
        task_id = fields.get("task_id")
        task_id = task_id if isinstance(task_id, str) else None
        forged = check_sender(sender, claimed_sender, reasons)
        check_id_lengths(task_id, sender, receiver, reasons)
        reached = False
        floor_escalates = False
        branch: ClaimBranch | None = None
        required: tuple[RequiredArtefact, ...] = ()
        budget: ClaimBudget | None = None
        if envelope is not None:
            faulty_refs = _NO_REFS if schema is None else schema.faulty_refs
            reached, required, budget = self._semantic_checks(envelope, hop, receiver, me, reasons, faulty_refs)
            if sender is not None and receiver is not None:
                self._graph_checks(from_ref, to_ref, sender, receiver, pair, hop_index, path, reasons)
                if pair is not None:
                    hop_branch = field(hop, "branch")
                    branch = self._branch_of(edge, sender, receiver, hop_branch, reasons)
                    # hop.branch refused (absent or another over a fan_out edge, no branch of the
                    # graph, not a string): which line of the task the delivery is on is unknown,
                    # so no line's budget is its to compare. A branch counts its spend from 0 and
                    # takes a share of the parent's limit; set against the task's own line that
                    # is a lowered spend and a dropped limit, reasons that only repeat the
                    # branch's. The repaired delivery is compared in full.
                    if (
                        branch is None
                        and self._branches_checked
                        and (hop_branch is not ABSENT or (edge is not None and edge.fan_out is not None))
                    ):
                        budget = None
            if edge is not None:
                floor_escalates = self._route_checks(edge, envelope, reasons)
        lenient = (
            edge is not None
            and edge.observe
            and handoff_id is not None
            and task_id is not None
            and hop_index is not None
            and receiver == me
            and (schema is None or not schema.header_fault_counted)
            and not any(reason.rule in _STRICT_RULES or is_header_path(reason.path) for reason in reasons)
        )
        consumed: tuple[str, ...] = ()
        constraints: tuple[str, ...] = ()
        route: Route = "proceed"
        if envelope is not None and (not reasons or lenient):
            artefacts = envelope.get("artefacts")
            if artefacts and isinstance(artefacts, list):
                consumed = tuple(_consumed(cast("list[object]", artefacts)))
            listed = envelope.get("constraints")
            if isinstance(listed, list):
                # Without reasons the schema passed: every constraint is a string.
                items = cast("list[object]", listed)
                constraints = tuple(cast("list[str]", items)) if not reasons else tuple(item for item in items if isinstance(item, str))
            status = envelope.get("status")
            route = _STATUS_ROUTES.get(status, "proceed") if isinstance(status, str) else "proceed"
        # The ledger never needs more of the path than a walk within the hop limit holds.
        limit = self._graph.hop_limit + 1
        ledger_path = None if path is None else tuple(path) if len(path) <= limit else tuple(path[:limit])
        stranger = forged or pair is None or (bool(reasons) and any(reason.rule in _STRANGER_RULES for reason in reasons))
        return Content(
            handoff_id,
            task_id,
            hop_index,
            sender,
            edge,
            ledger_path,
            reasons,
            required,
            lenient,
            reached,
            consumed,
            constraints,
            route,
            budget,
            stranger,
            forged,
            floor_escalates,
            self._approval_of(envelope),
            branch,
            None if schema is None else schema.counted,
        )

    def content(self, value: object, me: str, sender: str | None = None) -> Content:
        """Checks one envelope for the receiving agent me, sent (when known) by sender. Never
        raises for a bad envelope but NotJsonDataError (a TypeError) for a value the caller made
        that no JSON parser gives (a tuple, a Decimal, a pydantic instance)."""
        try:
            return self._evaluate(value, me, sender)
        except NotJsonDataError:
            raise
        except Exception as error:  # a mapping or str subclass that raises while read: not plain JSON data
            # A value no JSON parser gives can trip a compiled build's own type checks before the
            # walk that names it (a key that is no str): the walk raises NotJsonDataError for it.
            _walk_for_misuse(value)
            return Content(
                None, None, None, None, None, None, [unreadable_reason(error)], (), False, False, (), (), "proceed", None, True, False
            )
