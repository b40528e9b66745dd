"""accept() and accept_async() (the port of src/runtime/accept.ts): the same checks in the same
order, the same reasons, messages, routes and store claims as the JavaScript runtime. A call has
four steps: the caller's options (a misuse raises TypeError at once); the envelope's content
(`_envelope_check`: JSON data, the JSON Schema with every error, then every semantic and graph
check whose inputs are well-typed, whatever else is wrong); can_read for each required artefact;
one claim on the store (for every envelope with a str task_id), which alone decides duplicates,
replays, ownership and the task ledger; with a store, an envelope with no str task_id escalates
(untracked-task), since its refusals cannot be counted. With a store that leases claims, an
accepted handoff is held under a fresh token until the service commits it (`_lease`); a
redelivery meanwhile is refused with route "retry" (lease-held). Each rule's words are its
module's in `checks/`. The memory store's commonest claim, an envelope with no reason that starts
a task the store does not hold, goes through the store's private shortcut (the same ledger change
and answer as claim(), without a ClaimRequest).
"""

import asyncio
import inspect
import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final, cast

from ._branch_reasons import branch_reason
from ._catalogue import cap_reasons
from ._clock import IsoClock, iso_time, read_clock
from ._custody import custody_reasons
from ._envelope_check import Content, EnvelopeCheck, RequiredArtefact, Validate
from ._finish import EndRecord, Finisher, FinishVerdict, JoinReport
from ._join_refusal import join_reason, join_refusal
from ._records import (
    AcceptanceRecord,
    Accepted,
    AcceptResult,
    AgentInfo,
    EdgeInfo,
    GraphInfo,
    Lease,
    Reason,
    Rejected,
    Rejection,
    RejectionRoute,
    make_tuple,
)
from ._schema_reason import schema_error_to_reason
from ._stores import (
    AsyncSeenStore,
    BranchOut,
    Claimed,
    ClaimEdge,
    ClaimRequest,
    Custody,
    Duplicate,
    Finished,
    JoinGivenUp,
    Leased,
    MemorySeenStore,
    Noted,
    OwnerConflict,
    SeenStore,
    exact_result,
)
from ._untrusted import NotJsonDataError, quote_untrusted
from .checks.artefact_unreadable import artefact_reason
from .checks.duplicate import duplicate_reason
from .checks.lease_held import lease_held_reason
from .checks.owner_conflict import owner_conflict_reason
from .checks.task_finished import ended_reason
from .checks.untracked_task import UNTRACKED_REASON

__all__ = [
    "CAN_READ_CONCURRENCY",
    "MAX_CLAIM_TOKEN",
    "Acceptor",
    "CanRead",
    "CanReadAsync",
    "EndRecord",
    "FinishVerdict",
    "JoinReport",
    "schema_error_to_reason",
]

CAN_READ_CONCURRENCY: Final = 16
"""How many can_read calls accept_async keeps in flight at once."""
MAX_CLAIM_TOKEN: Final = 1024
"""The longest claim_token, in characters (an SQS receipt handle is at most 1,024)."""
_HAS_UPPER: Final = re.compile("[A-Z]")

# What a store's claim() answers: never an awaitable, so isawaitable need not look at them.
_CLAIM_RESULTS: Final = frozenset((Claimed, Leased, Noted, Duplicate, OwnerConflict, Custody, Finished, BranchOut))
# Every answer a verdict is settled on.
_SETTLE_RESULTS: Final[frozenset[type]] = frozenset((*_CLAIM_RESULTS, JoinGivenUp))

CanRead = Callable[[str, str | None], bool]
"""can_read(ref, read_scope): True when this agent can dereference a required artefact."""
CanReadAsync = Callable[[str, str | None], bool | Awaitable[bool]]
"""can_read for accept_async(): may answer with an awaitable."""


def _handoff_key_id(handoff_id: str) -> str:
    """The handoff id as the ledger keys it: a UUID's hex digits are case-insensitive (RFC 9562
    section 4), so one handoff has one key. An id with an ASCII capital is lowered whole (as the
    JavaScript runtime's toLowerCase), any other is kept. An ASCII id (the common one, a UUID) is
    lowered without the search: lower() changes only its capitals, and costs less than islower(),
    which looks up each character's Unicode case."""
    if handoff_id.isascii():
        return handoff_id.lower()
    return handoff_id.lower() if _HAS_UPPER.search(handoff_id) else handoff_id


def _is_async_function(function: object) -> bool:
    code = getattr(function, "__code__", None)
    # CO_COROUTINE (inspect's own test, without its unwrapping of partials and methods).
    return bool(code.co_flags & inspect.CO_COROUTINE) if code is not None else inspect.iscoroutinefunction(function)


def _takes_token(seen: object) -> bool:
    """Whether a claim on seen carries a fresh token when the caller gave none: every store but
    the memory store without leases, which never reads it (uuid4 costs more than its claim)."""
    return seen.lease_ms > 0 if type(seen) is MemorySeenStore else True


def _check_sender(call: str, sender: object, claim_token: object = None) -> None:
    if sender is not None and (not isinstance(sender, str) or sender == ""):
        raise TypeError(f"{call}(): sender must be the producer's agent id as the transport authenticated it, a non-empty str, or None")
    if claim_token is not None and (not isinstance(claim_token, str) or not 1 <= len(claim_token) <= MAX_CLAIM_TOKEN):
        raise TypeError(
            f"{call}(): claim_token must be a str of 1 to {MAX_CLAIM_TOKEN} characters, unique to this delivery attempt, or None"
        )


class Acceptor:
    """The ingest check of one graph, as a generated module binds it; lookups are built once, a
    call allocates little more than its result. Raises TypeError when an agent declares a version
    that is not MAJOR.MINOR.PATCH."""

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
        check = EnvelopeCheck(graph, agents, edges, validate_envelope, contracts, free_text_ok)
        self._agents = check.agents
        self._content_of = check.content
        self._iso = IsoClock()
        self._finisher = Finisher(graph, {agent.id: agent.terminals for agent in agents}, self._iso)
        # Made once: a claim names its edge without allocating (keyed by identity: edges may be equal).
        self._claim_edges = {id(edge): ClaimEdge(edge.kind, edge.from_agent, edge.to_agent) for edge in edges}
        # The last can_read found synchronous: a service passes the same one on every call.
        self._sync_can_read: object = None
        # False: every claim goes through the store's claim() (the equivalence tests compare).
        self._fast_claims = True

    def _content_for(self, call: str, value: object, me: str, sender: str | None = None) -> Content:
        try:
            return self._content_of(value, me, sender)
        except NotJsonDataError as error:
            raise TypeError(f"{call}(): {error}") from None

    # -- options, store ------------------------------------------------------------------------

    def _check_options(self, call: str, me: object, can_read: object, seen: object, now: object) -> str:
        if not isinstance(me, str) or me == "":
            raise TypeError(f"{call}(): me must be the receiving agent's id, a non-empty str")
        if me not in self._agents:
            known = ", ".join(list(self._agents)[:20])
            raise TypeError(f"{call}(): me {quote_untrusted(me)} is no agent of graph {self._graph.name}; use one of {known}")
        if can_read is not None and not callable(can_read):
            raise TypeError(f"{call}(): can_read must be a function (ref, read_scope) -> bool, or None")
        # The memory store has its claim (and getattr makes a bound method each call).
        if seen is not None and type(seen) is not MemorySeenStore and not callable(getattr(seen, "claim", None)):
            raise TypeError(f"{call}(): seen must be a store with a claim(request) method, such as create_memory_seen_store()")
        if now is not None and not callable(now):
            raise TypeError(f"{call}(): now must be a function returning seconds since the Unix epoch, or None")
        return me

    def _claim_request(
        self, content: Content, me: str, at: int, reasons: list[Reason], token: str | None, value: object, seen: object
    ) -> ClaimRequest | None:
        # A delivery that can neither start nor continue a task writes nothing in its ledger.
        if content.task_id is None or content.stranger:
            return None
        edge = content.edge
        handoff_id = content.handoff_id
        return ClaimRequest(
            None if handoff_id is None else _handoff_key_id(handoff_id),
            content.task_id,
            content.hop_index,
            content.producer,
            me,
            None if edge is None else self._claim_edges[id(edge)],
            "accepted" if not reasons or content.lenient else "rejected",
            at,
            content.path,
            content.budget,
            content.approval,
            # A fresh token per claim attempt: replicas share the agent id, never the token.
            token if token is not None or not _takes_token(seen) else str(uuid.uuid4()),
            value,
            content.branch,
        )

    @staticmethod
    def _claim_new_task(content: Content, me: str, at: int, seen: MemorySeenStore) -> Claimed | None:
        """The memory store's claim of an envelope with no reason that starts a task (its private
        shortcut, the same ledger change as claim() of the request _claim_request makes); None
        when the delivery is any other case, for the general claim."""
        handoff_id, task_id, hop_index = content.handoff_id, content.task_id, content.hop_index
        if handoff_id is None or task_id is None or hop_index is None or content.stranger or content.branch is not None:
            return None
        return seen._claim_new_task(  # pyright: ignore[reportPrivateUsage]
            _handoff_key_id(handoff_id),
            task_id,
            hop_index,
            content.producer,
            me,
            at,
            content.path,
            content.budget,
            content.approval,
        )

    def _claim(
        self,
        call: str,
        content: Content,
        me: str,
        reasons: list[Reason],
        seen: AsyncSeenStore | None,
        now: Callable[[], object] | None,
        token: str | None,
        value: object,
    ) -> tuple[int, ClaimRequest | None, object]:
        """The time of the delivery, its claim request and the store's answer: None without a store
        or without a usable header, else what claim() returned (an awaitable from an async store)."""
        at = read_clock(call, now)
        request = None if seen is None else self._claim_request(content, me, at, reasons, token, value, seen)
        if seen is None or request is None:
            return at, None, None
        # Typed as any value: a custom store need not be type-checked, and a None would read as
        # "no store asked" and accept everything.
        answer: object = cast(Any, seen).claim(request)
        if answer is None:
            raise TypeError(f"{call}(): seen.claim returned None, not a claim result such as Claimed()")
        return at, request, answer

    # -- verdict ---------------------------------------------------------------------------------

    def _refuse(
        self, content: Content, reasons: list[Reason], duplicate: bool, claimed: object = None, untracked: bool = False
    ) -> Rejected:
        attempt = (claimed.attempt or 1) if isinstance(claimed, (Noted, OwnerConflict, Custody)) else None
        # A branch the join no longer takes is not counted: the task went on without it.
        late = isinstance(claimed, BranchOut) and claimed.state in ("late", "arrived", "ended")
        if isinstance(claimed, BranchOut) and not late:
            attempt = claimed.attempt or 1
        repairs = 1 if content.edge is None or content.edge.repairs is None else content.edge.repairs
        route: RejectionRoute = "repair"
        join = None
        if isinstance(claimed, JoinGivenUp):
            join = join_refusal(claimed.closed, self._iso)
            route = "escalate" if claimed.closed.acts and claimed.closed.policy == "escalate" else "discard"
        elif duplicate or late:
            route = "discard"
        elif isinstance(claimed, Leased):
            route = "retry"
        elif content.forged:
            route = "escalate"
        elif content.hop_limit_reached:
            route = self._graph.on_hop_limit
        elif untracked or content.floor_escalates or isinstance(claimed, Finished) or (attempt is not None and attempt > repairs):
            route = "escalate"
        return Rejected(
            Rejection(
                content.handoff_id,
                content.hop_index,
                content.producer,
                route,
                tuple(cap_reasons(reasons, content.counted)),
                attempt,
                repairs,
                join,
            ),
            duplicate,
        )

    def _settle(
        self, content: Content, me: str, at: int, reasons: list[Reason], request: ClaimRequest | None, claimed: object, untracked: bool
    ) -> AcceptResult:
        """The verdict from the content, the artefact reasons and the store's answer (if asked);
        untracked: a store was given but could not be asked (no str task_id)."""
        lease: Lease | None = None
        # A claim (the common answer) skips the look at every refusal.
        if claimed is not None and type(claimed) is not Claimed:
            claimed = exact_result(claimed, _SETTLE_RESULTS)
            if isinstance(claimed, Duplicate):
                reason = duplicate_reason(content.handoff_id, content.task_id, content.hop_index, claimed)
                return self._refuse(content, [reason, *reasons], True)
            if isinstance(claimed, OwnerConflict):
                reasons.append(owner_conflict_reason(claimed.owner, content.hop_index, content.task_id))
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, Custody):
                reasons.extend(custody_reasons(content, claimed))
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, Finished):
                return self._refuse(content, [ended_reason(content.task_id, claimed.ended, self._iso), *reasons], False, claimed)
            if isinstance(claimed, Leased):
                return self._refuse(content, [lease_held_reason(content.handoff_id, claimed, self._iso), *reasons], False, claimed)
            if isinstance(claimed, Noted):
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, BranchOut):
                reasons.append(branch_reason(content, claimed))
                return self._refuse(content, reasons, False, claimed)
            if isinstance(claimed, JoinGivenUp):
                pointer = "/hop" if content.branch is None else "/hop/branch"
                reasons.append(join_reason(pointer, cast(str, content.task_id), claimed.closed, self._iso))
                return self._refuse(content, reasons, False, claimed)
            if not isinstance(claimed, Claimed):
                raise TypeError(
                    f"seen.claim returned {type(claimed).__name__}, not Claimed, Leased, Noted, Duplicate, OwnerConflict, Custody, Finished, BranchOut or JoinGivenUp"
                )
        if isinstance(claimed, Claimed) and claimed.lease_until is not None and request is not None and request.token is not None:
            lease = Lease(request.token, iso_time(claimed.lease_until))
        if untracked:
            # A refusal the store cannot count could go back for repair forever: a person decides.
            if content.task_id is None:
                reasons.append(UNTRACKED_REASON)
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
        join = claimed.join if isinstance(claimed, Claimed) else None
        record = make_tuple(
            AcceptanceRecord,
            (
                content.handoff_id,
                content.task_id,
                content.hop_index,
                content.producer,
                me,
                self._iso(at),
                content.consumed,
                "held" if join is not None and not join.fired else content.route,
                content.constraints,
                tuple(cap_reasons(reasons, content.counted)) if reasons else (),
                lease,
                None if content.branch is None else content.branch.id,
                None if join is None else join.to_dict(),
            ),
        )
        return make_tuple(Accepted, (record, True, False))

    # -- entry points ----------------------------------------------------------------------------

    def accept(
        self,
        value: object,
        me: object,
        can_read: object,
        seen: object,
        now: object,
        sender: object = None,
        claim_token: object = None,
    ) -> AcceptResult:
        """See the generated module's accept(); sender: the producer the transport authenticated (None: from_agent is a claim);
        claim_token: this claim attempt's token for a store that leases claims (None: a random UUID). Every argument is
        taken as any value and checked here, so that a compiled build raises the same TypeErrors as the source."""
        agent = self._check_options("accept", me, can_read, seen, now)
        _check_sender("accept", sender, claim_token)
        if can_read is not None and can_read is not self._sync_can_read:
            if _is_async_function(can_read):
                raise TypeError("accept(): can_read is an async function: use accept_async, which awaits it")
            self._sync_can_read = can_read
        ask = cast("Callable[[str, str | None], object] | None", can_read)
        store = cast("SeenStore | None", seen)
        clock = cast("Callable[[], object] | None", now)
        token = cast("str | None", claim_token)
        content = self._content_for("accept", value, agent, cast("str | None", sender))
        reasons = content.reasons
        if ask is not None:
            for artefact in content.required:
                answer: object = ask(artefact.ref, artefact.scope)
                if answer is not True and inspect.isawaitable(answer):
                    if inspect.iscoroutine(answer):
                        answer.close()
                    raise TypeError("accept(): can_read returned an awaitable: use accept_async, which awaits it")
                if answer is not True:
                    reasons.append(artefact_reason(agent, artefact.position, artefact.ref))
        if not reasons and type(store) is MemorySeenStore and self._fast_claims:
            at = read_clock("accept", clock)
            shortcut = self._claim_new_task(content, agent, at, store)
            if shortcut is not None:
                return self._settle(content, agent, at, reasons, None, shortcut, False)
            request = self._claim_request(content, agent, at, reasons, token, value, store)
            claimed: object = None if request is None else store.claim(request)
        else:
            at, request, claimed = self._claim("accept", content, agent, reasons, store, clock, token, value)
        if type(claimed) not in _CLAIM_RESULTS and inspect.isawaitable(claimed):
            if inspect.iscoroutine(claimed):
                claimed.close()
            raise TypeError("accept(): seen.claim returned an awaitable: use accept_async with an asynchronous store")
        return self._settle(
            content, agent, at, reasons, request, claimed, seen is not None and (content.task_id is None or content.stranger)
        )

    async def accept_async(
        self,
        value: object,
        me: object,
        can_read: object,
        seen: object,
        now: object,
        sender: object = None,
        claim_token: object = None,
    ) -> AcceptResult:
        """See the generated module's accept_async(); every argument is checked here, as accept()'s are."""
        agent = self._check_options("accept_async", me, can_read, seen, now)
        _check_sender("accept_async", sender, claim_token)
        ask = cast("Callable[[str, str | None], object] | None", can_read)
        content = self._content_for("accept_async", value, agent, cast("str | None", sender))
        reasons = content.reasons
        if ask is not None and content.required:
            answers = await _ask_all(ask, content.required)
            for artefact, answer in zip(content.required, answers, strict=False):
                if answer is not True:
                    reasons.append(artefact_reason(agent, artefact.position, artefact.ref))
        at, request, claimed = self._claim(
            "accept_async",
            content,
            agent,
            reasons,
            cast("AsyncSeenStore | None", seen),
            cast("Callable[[], object] | None", now),
            cast("str | None", claim_token),
            value,
        )
        if type(claimed) not in _CLAIM_RESULTS and inspect.isawaitable(claimed):
            claimed = await claimed
        return self._settle(
            content, agent, at, reasons, request, claimed, seen is not None and (content.task_id is None or content.stranger)
        )

    def finish(self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object) -> FinishVerdict:
        """See the generated module's finish()."""
        return self._finisher.finish(task_id, me, terminal, outcome, seen, now)

    def join_state(self, task_id: object, seen: object, now: object) -> JoinReport:
        """See the generated module's join_state()."""
        return self._finisher.join_state(task_id, seen, now)

    async def join_state_async(self, task_id: object, seen: object, now: object) -> JoinReport:
        """See the generated module's join_state_async()."""
        return await self._finisher.join_state_async(task_id, seen, now)

    async def finish_async(
        self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object
    ) -> FinishVerdict:
        """See the generated module's finish_async()."""
        return await self._finisher.finish_async(task_id, me, terminal, outcome, seen, now)


async def _ask_all(ask: Callable[[str, str | None], object], required: tuple[RequiredArtefact, ...]) -> list[object]:
    """can_read's answers for the required artefacts, asked a few at a time (CAN_READ_CONCURRENCY):
    an envelope listing 10**5 artefacts does not start 10**5 requests at once."""
    answers: list[object] = [None] * len(required)
    queue = iter(range(len(required)))

    async def worker() -> None:
        for i in queue:
            artefact = required[i]
            answer: object = ask(artefact.ref, artefact.scope)
            answers[i] = await cast(Awaitable[object], answer) if inspect.isawaitable(answer) else answer

    await asyncio.gather(*(worker() for _ in range(min(CAN_READ_CONCURRENCY, len(required)))))
    return answers
