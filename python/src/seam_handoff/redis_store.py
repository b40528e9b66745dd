"""The task ledger in Redis, for services that run as several replicas (install the extra
seam-handoff[redis], which pins redis-py).

RedisSeenStore (redis.Redis) and AsyncRedisSeenStore (redis.asyncio.Redis) run the ledger
script ledger.lua, the very text the JavaScript store runs (registered once, then called by its
SHA-1: redis-py's register_script), so one claim is one atomic round trip, and JavaScript and
Python replicas on one key prefix share one ledger: the same keys, the same records, the same
answers as the memory store. The keys, the script's arguments and replies are documented at the
top of ledger.lua; Redis Cluster is not supported (the script reads keys it is not passed).

Give the client a socket_timeout (seconds, say 2.0): a call that gets no answer then raises
StoreUnavailableError instead of waiting. Nothing here imports redis-py: any client with
register_script() works.
"""

import hashlib
import json
import math
import re
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any, Final, Literal, NamedTuple, Protocol, cast

from ._fields import BUDGET_COUNTERS
from ._stores import (
    AlreadyFinished,
    BranchFinished,
    BranchOpen,
    BranchOut,
    Claimed,
    ClaimHolder,
    ClaimRequest,
    ClaimResult,
    Committed,
    Custody,
    CustodyFault,
    Duplicate,
    Finished,
    FinishRequest,
    FinishResult,
    JoinClosed,
    JoinGivenUp,
    JoinState,
    JoinStateRequest,
    JoinStateResult,
    Leased,
    Lost,
    Noted,
    NotOwner,
    OwnerConflict,
    Released,
    SettleRequest,
    SettleResult,
    TaskEnd,
    TaskFinished,
    envelope_digest,
)
from ._untrusted import escape_untrusted

__all__ = [
    "DEFAULT_TTL_SECONDS",
    "LEDGER_SCRIPT",
    "MAX_RAW_ID",
    "AsyncRedisSeenStore",
    "RedisSeenStore",
    "StoreUnavailableError",
    "redis_key",
]

LEDGER_SCRIPT: Final = resources.files("seam_handoff").joinpath("ledger.lua").read_text("utf-8")
"""The text of ledger.lua (the script both runtimes run)."""

DEFAULT_TTL_SECONDS: Final = 7 * 24 * 3600
"""Seven days: how long an idle task is remembered after its last write."""

MAX_RAW_ID: Final = 200
"""The longest id, in UTF-16 code units, written into a key as it is (a longer one is hashed)."""

_LONE_SURROGATE: Final = re.compile(r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
_PREFIX: Final = re.compile(r"\S{1,100}\Z")
_INTEGER: Final = re.compile(r"(0|-?[1-9][0-9]*)\Z")
_MAX_SAFE_INTEGER: Final = 2**53 - 1


class StoreUnavailableError(Exception):
    """Redis did not answer, could not be reached, or answered something that is no result: do not
    process the delivery; deliver it again later. When Redis could not run the script, the
    delivery is neither accepted nor refused; when it did not answer in time (the client's
    socket_timeout), the claim may have been recorded, and the message says so (as the JavaScript
    store's does). The message names the handoff or task and escapes every text from the envelope
    or Redis."""


def redis_key(prefix: str, letter: Literal["t", "a"], id: str) -> str:
    """The key of a task ("t") or handoff ("a") id under prefix, as the JavaScript store writes
    it: "<prefix>:<letter>:<id>", or "<prefix>:<letter>#<sha256 hex of the id's UTF-16LE>" for an
    id longer than MAX_RAW_ID UTF-16 code units or holding a lone surrogate."""
    units = id.encode("utf-16-le", "surrogatepass")
    if len(units) // 2 <= MAX_RAW_ID and not _LONE_SURROGATE.search(id):
        return f"{prefix}:{letter}:{id}"
    return f"{prefix}:{letter}#{hashlib.sha256(units).hexdigest()}"


class _Script(Protocol):
    def __call__(self, keys: Sequence[str], args: Sequence[str]) -> object: ...


class RedisClient(Protocol):
    """What the stores use of a redis-py client (redis.Redis or redis.asyncio.Redis)."""

    def register_script(self, script: str) -> object:
        """A callable script(keys=[...], args=[...]) that runs EVALSHA, loading the script once."""
        ...


class _Settings(NamedTuple):
    prefix: str
    ttl: str
    scope: str
    lease_ms: int = 0


def _settings(call: str, prefix: object, ttl_seconds: object, scope: object, lease_ms: object = 0) -> _Settings:
    if not isinstance(prefix, str) or not _PREFIX.match(prefix):
        raise TypeError(f"{call}: prefix must be 1 to 100 characters without whitespace, one per deployment (e.g. 'refund-desk-prod')")
    if isinstance(ttl_seconds, bool) or not isinstance(ttl_seconds, int) or not 1 <= ttl_seconds <= _MAX_SAFE_INTEGER:
        raise TypeError(f"{call}: ttl_seconds must be a whole number of seconds, at least 1")
    if scope not in ("graph", "receiver"):
        raise TypeError(f'{call}: scope must be "graph" or "receiver", not {escape_untrusted(str(scope), 40)}')
    if isinstance(lease_ms, bool) or not isinstance(lease_ms, int) or not 0 <= lease_ms <= _MAX_SAFE_INTEGER:
        raise TypeError(f"{call}: lease_ms must be a whole number of ms, 0 (no lease) or more")
    return _Settings(prefix, str(ttl_seconds), cast(str, scope), lease_ms)


def _script(call: str, client: object) -> _Script:
    register = getattr(client, "register_script", None)
    if not callable(register):
        raise TypeError(f"{call}: the client has no register_script(): pass a redis.Redis (or, for the async store, a redis.asyncio.Redis)")
    return cast(_Script, register(LEDGER_SCRIPT))


def _handoff_name(producer: str | None, handoff_id: str) -> str:
    return f"-:{handoff_id}" if producer is None else f"{len(producer)}:{producer}:{handoff_id}"


def _counter_arg(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_SAFE_INTEGER:
        raise TypeError("RedisSeenStore.claim: request.budget counters must be whole numbers, 0 or more")
    return str(value)


def _claim_call(settings: _Settings, request: ClaimRequest) -> tuple[list[str], list[str], str]:
    """The keys and arguments of the claim, and the handoff named for messages."""
    hop = cast(object, request.hop_index)  # checked as any value: callers need not be type-checked
    if hop is not None and (isinstance(hop, bool) or not isinstance(hop, int) or not 0 <= hop <= _MAX_SAFE_INTEGER):
        raise TypeError("RedisSeenStore.claim: request.hop_index must be a whole number, 0 or more, or None")
    task_key = redis_key(settings.prefix, "t", request.task_id)
    # Without a handoff id the script touches no handoff key: the task key stands in.
    # Named by producer and id: another producer's use of the id is another key.
    handoff_name = None if request.handoff_id is None else _handoff_name(request.producer, request.handoff_id)
    keys = [task_key, task_key if handoff_name is None else redis_key(settings.prefix, "a", handoff_name)]
    approval = request.approval
    # Claim leases: until when (computed here, exact), and the claim attempt's token.
    leased = settings.lease_ms > 0 and isinstance(request.token, str)
    budget = request.budget
    branch = request.branch
    # What follows the path, one flag per block (ledger.lua's claim arguments): a claim sends no
    # placeholders, since each argument costs Redis about as much as a small command's parse.
    flags = 0 if request.producer is None else 1
    if request.handoff_id is not None and hop is not None:
        flags += 2
    if budget is not None:
        flags += 4
    if approval is not None:
        flags += 8 + (16 if approval.waits else 0) + (0 if approval.cites is None else 32)
    if leased:
        flags += 64
    if branch is not None:
        flags += 128
    args = ["claim", settings.ttl, _time(request.at), settings.scope, request.handoff_id or "", "" if hop is None else str(hop)]
    edge = "n" if request.edge is None else f"e:{request.edge.from_agent}"
    args += [request.verdict, request.receiver, request.producer or "", str(flags), edge]
    args.append("-1" if request.path is None else str(len(request.path)))
    args.extend(request.path or ())
    if budget is not None:
        args += [_counter_arg(None if budget.limit is None else budget.limit.get(c)) for c in BUDGET_COUNTERS]
        args += [_counter_arg(None if budget.consumed is None else budget.consumed.get(c)) for c in BUDGET_COUNTERS]
    # approval-pending: the handoff it cites, when it cites one.
    if approval is not None and approval.cites is not None:
        args.append(approval.cites)
    if leased:
        args += [str(request.at + settings.lease_ms), cast(str, request.token), envelope_digest(request.envelope) or ""]
    # Fan-outs: the branch the delivery travels in.
    if branch is not None:
        join = branch.join
        args += [
            branch.id,
            branch.fan_out,
            branch.from_agent,
            branch.agent,
            "1" if branch.opens else "0",
            "1" if branch.arrives else "0",
        ]
        args += ["" if join is None else join.agent, "" if join is None else str(join.need), str(len(branch.siblings)), *branch.siblings]
        # Join deadlines: within (ms), otherwise, the policy terminal's outcome.
        within = "" if join is None or join.within_ms is None else str(join.within_ms)
        args += [within, "escalate" if join is None else join.otherwise, "" if join is None or join.outcome is None else join.outcome]
    named = (
        f"without a handoff_id, of task {escape_untrusted(request.task_id, 80)}"
        if request.handoff_id is None
        else escape_untrusted(request.handoff_id, 80)
    )
    return keys, args, named


def _finish_call(settings: _Settings, request: FinishRequest) -> tuple[list[str], list[str]]:
    keys = [redis_key(settings.prefix, "t", request.task_id)]
    args = ["finish", settings.ttl, _time(request.at), settings.scope, request.agent, request.terminal, request.outcome]
    return keys, [*args, "1" if request.entry else "0"]


def _settle_call(settings: _Settings, request: SettleRequest) -> tuple[list[str], list[str]]:
    keys = [redis_key(settings.prefix, "t", request.task_id)]
    producer = request.producer
    args = ["settle", settings.ttl, _time(request.at), settings.scope, request.handoff_id, producer or "", "0" if producer is None else "1"]
    return keys, [*args, request.token, request.action]


def _join_state_call(settings: _Settings, request: JoinStateRequest) -> tuple[list[str], list[str]]:
    return [redis_key(settings.prefix, "t", request.task_id)], ["join_state", settings.ttl, _time(request.at), settings.scope]


# redis-py's classes for NOPERM (NoPermissionError) and WRONGPASS / NOAUTH (AuthenticationError):
# it drops the error code from the message, so the class tells them apart.
_ACCESS_REFUSED: Final = frozenset({"NoPermissionError", "AuthenticationError"})


def _access_hint(error: Exception) -> str:
    """What to add to a failed call's message when Redis refused the store's user (NOPERM,
    WRONGPASS, NOAUTH: its ACL or password): every call fails alike until that is fixed, so a
    redelivery alone does not help. The JavaScript store says the same. Read by class name, as
    _timed_out reads a timeout, since nothing here imports redis-py."""
    if not any(cls.__name__ in _ACCESS_REFUSED for cls in type(error).__mro__):
        return ""
    return " (Redis refused the store's user: fix its password or ACL first)"


def _timed_out(error: Exception) -> bool:
    """Whether error is a timeout: redis-py's TimeoutError (its socket_timeout ran out), or the
    built-in one (asyncio's). Read by class name, since nothing here imports redis-py. After a
    timeout the script may have run in Redis: what it did is unknown, not undone."""
    return any(cls.__name__ == "TimeoutError" for cls in type(error).__mro__)


def _join_state_failed(request: JoinStateRequest, error: Exception) -> StoreUnavailableError:
    named, why = escape_untrusted(request.task_id, 80), escape_untrusted(str(error), 200)
    if _timed_out(error):
        return StoreUnavailableError(f"Redis did not answer the join state of task {named} in time ({why}): ask again later")
    return StoreUnavailableError(f"Redis could not read the join state of task {named} ({why}): ask again later{_access_hint(error)}")


def _settle_failed(request: SettleRequest, error: Exception) -> StoreUnavailableError:
    named, why, action = escape_untrusted(request.handoff_id, 80), escape_untrusted(str(error), 200), request.action
    if _timed_out(error):
        return StoreUnavailableError(
            f"Redis did not answer the {action} of handoff {named} in time ({why}): it may or may not be recorded; {action} it again"
        )
    return StoreUnavailableError(f"Redis could not {action} handoff {named} ({why}): {action} it again{_access_hint(error)}")


def _time(at: object) -> str:
    if isinstance(at, bool) or not isinstance(at, int):
        raise TypeError("RedisSeenStore: request.at must be a whole number of ms since the Unix epoch")
    return str(at)


def _claim_failed(named: str, error: Exception) -> StoreUnavailableError:
    why = escape_untrusted(str(error), 200)
    if _timed_out(error):
        return StoreUnavailableError(
            f"Redis did not answer the claim of handoff {named} in time ({why}): it may or may not be recorded; deliver it again later"
        )
    return StoreUnavailableError(
        f"Redis could not claim handoff {named} ({why}): it is neither accepted nor refused; deliver it again later{_access_hint(error)}"
    )


def _finish_failed(task_id: str, error: Exception) -> StoreUnavailableError:
    named, why = escape_untrusted(task_id, 80), escape_untrusted(str(error), 200)
    if _timed_out(error):
        return StoreUnavailableError(
            f"Redis did not answer the end of task {named} in time ({why}): it may or may not be recorded; call finish again later"
        )
    return StoreUnavailableError(
        f"Redis could not record the end of task {named} ({why}): the task has not ended; call finish again later{_access_hint(error)}"
    )


class RedisSeenStore:
    """A SeenStore (for accept() and finish()) on a synchronous redis-py client.

    client: redis.Redis(..., socket_timeout=2.0). prefix: this deployment's key prefix
    ("refund-desk-prod"), required, 1 to 100 characters without whitespace, so deployments
    sharing a Redis never see each other's tasks. ttl_seconds: how long an idle task is
    remembered after its last write (default DEFAULT_TTL_SECONDS), longer than any task may
    pause. scope: "graph" (every service of the graph shares the store) or "receiver". lease_ms:
    how long a claim is leased before it must be committed (default 0: a claim is committed when
    it is made; see SeenStore, claim leases).

    Raises TypeError for bad options at once; claim() and finish() raise StoreUnavailableError
    when Redis fails or answers something that is no result, and TypeError for a malformed request.
    """

    __slots__ = ("_script", "_settings")

    def __init__(
        self, client: RedisClient, *, prefix: str, ttl_seconds: int = DEFAULT_TTL_SECONDS, scope: str = "graph", lease_ms: int = 0
    ) -> None:
        self._settings = _settings("RedisSeenStore", prefix, ttl_seconds, scope, lease_ms)
        self._script = _script("RedisSeenStore", client)

    def claim(self, request: ClaimRequest) -> ClaimResult:
        """Decides and records one delivery in one atomic script call (see SeenStore)."""
        keys, args, named = _claim_call(self._settings, request)
        try:
            reply = self._script(keys=keys, args=args)
        except Exception as error:
            raise _claim_failed(named, error) from error
        return to_claim_result(reply)

    def finish(self, request: FinishRequest) -> FinishResult:
        """Records that a task ended unless it did or another agent owns it, atomically."""
        keys, args = _finish_call(self._settings, request)
        try:
            reply = self._script(keys=keys, args=args)
        except Exception as error:
            raise _finish_failed(request.task_id, error) from error
        return to_finish_result(reply)

    def settle(self, request: SettleRequest) -> SettleResult:
        """Commits or releases a leased claim, atomically (see SeenStore, claim leases)."""
        keys, args = _settle_call(self._settings, request)
        try:
            reply = self._script(keys=keys, args=args)
        except Exception as error:
            raise _settle_failed(request, error) from error
        return to_settle_result(reply)

    def join_state(self, request: JoinStateRequest) -> JoinStateResult:
        """The task's join, acting on its policy once when it was given up on (see JoinClosed), atomically."""
        keys, args = _join_state_call(self._settings, request)
        try:
            reply = self._script(keys=keys, args=args)
        except Exception as error:
            raise _join_state_failed(request, error) from error
        return to_join_state_result(reply)


class AsyncRedisSeenStore:
    """RedisSeenStore for accept_async() and finish_async(), on a redis.asyncio.Redis client;
    the same options, answers and errors."""

    __slots__ = ("_script", "_settings")

    def __init__(
        self, client: RedisClient, *, prefix: str, ttl_seconds: int = DEFAULT_TTL_SECONDS, scope: str = "graph", lease_ms: int = 0
    ) -> None:
        self._settings = _settings("AsyncRedisSeenStore", prefix, ttl_seconds, scope, lease_ms)
        self._script = _script("AsyncRedisSeenStore", client)

    async def claim(self, request: ClaimRequest) -> ClaimResult:
        """Decides and records one delivery in one atomic script call (see SeenStore)."""
        keys, args, named = _claim_call(self._settings, request)
        try:
            reply = await cast(Callable[..., Awaitable[object]], self._script)(keys=keys, args=args)
        except Exception as error:
            raise _claim_failed(named, error) from error
        return to_claim_result(reply)

    async def finish(self, request: FinishRequest) -> FinishResult:
        """Records that a task ended unless it did or another agent owns it, atomically."""
        keys, args = _finish_call(self._settings, request)
        try:
            reply = await cast(Callable[..., Awaitable[object]], self._script)(keys=keys, args=args)
        except Exception as error:
            raise _finish_failed(request.task_id, error) from error
        return to_finish_result(reply)

    async def settle(self, request: SettleRequest) -> SettleResult:
        """Commits or releases a leased claim, atomically (see SeenStore, claim leases)."""
        keys, args = _settle_call(self._settings, request)
        try:
            reply = await cast(Callable[..., Awaitable[object]], self._script)(keys=keys, args=args)
        except Exception as error:
            raise _settle_failed(request, error) from error
        return to_settle_result(reply)

    async def join_state(self, request: JoinStateRequest) -> JoinStateResult:
        """The task's join, acting on its policy once when it was given up on (see JoinClosed), atomically."""
        keys, args = _join_state_call(self._settings, request)
        try:
            reply = await cast(Callable[..., Awaitable[object]], self._script)(keys=keys, args=args)
        except Exception as error:
            raise _join_state_failed(request, error) from error
        return to_join_state_result(reply)


# -- replies (the shapes listed at the top of ledger.lua), read strictly --------------------------


class _Reader:
    __slots__ = ("_items", "_next", "_reply", "_what", "outcome")

    def __init__(self, what: str, reply: object) -> None:
        self._what = what
        self._reply = reply
        if not isinstance(reply, list) or not reply:
            raise self.bad()
        items: list[str] = []
        for item in cast("list[object]", reply):
            if isinstance(item, bytes):
                try:
                    item = item.decode("utf-8")
                except UnicodeDecodeError:
                    raise self.bad() from None
            if not isinstance(item, str):
                raise self.bad()
            items.append(item)
        self._items = items
        self._next = 1
        self.outcome = items[0]

    def bad(self) -> StoreUnavailableError:
        # As the JavaScript store shows it: the reply as JSON (bytes as UTF-8 text).
        reply = self._reply
        if isinstance(reply, list):
            reply = [item.decode("utf-8", "replace") if isinstance(item, bytes) else item for item in cast("list[object]", reply)]
        shown = escape_untrusted(json.dumps(reply, ensure_ascii=False, separators=(",", ":"), default=repr), 200)
        return StoreUnavailableError(
            f"Redis answered the {self._what} with {shown}, which is not a {self._what} result: is the key prefix shared with something else?"
        )

    def text(self) -> str:
        if self._next >= len(self._items):
            raise self.bad()
        self._next += 1
        return self._items[self._next - 1]

    def integer(self, least: int) -> int:
        value = self.text()
        if not _INTEGER.match(value) or not least <= int(value) <= _MAX_SAFE_INTEGER:
            raise self.bad()
        return int(value)

    def time(self) -> int:
        """A time in ms; a JavaScript replica may have written a fraction (kept to the ms)."""
        value = self.text()
        if _INTEGER.match(value):
            return int(value)
        try:
            number = float(value)
        except ValueError:
            raise self.bad() from None
        if not math.isfinite(number):
            raise self.bad()
        return math.floor(number)

    def more(self) -> bool:
        return self._next < len(self._items)

    def peek(self) -> str:
        """The next item, not read yet: for a reply whose shape its next item tells."""
        if self._next >= len(self._items):
            raise self.bad()
        return self._items[self._next]

    def done(self) -> None:
        if self._next != len(self._items):
            raise self.bad()


def _task_end(r: _Reader) -> TaskEnd:
    agent, terminal, outcome = r.text(), r.text(), r.text()
    at = r.time()
    hop = r.text()
    if hop != "" and not _INTEGER.match(hop):
        raise r.bad()
    return TaskEnd(agent, terminal, outcome, at, None if hop == "" else int(hop))


def _owner(r: _Reader) -> tuple[str | None, int | None]:
    owner = r.text()
    if owner != "":
        return owner, r.integer(0)
    if r.text() != "":
        raise r.bad()
    return None, None


_DUPLICATE_OF: Final[dict[str, Literal["handoff", "hop"]]] = {"handoff": "handoff", "hop": "hop"}
_PLAIN_FAULTS: Final[dict[str, Literal["reset", "skip", "producer"]]] = {"reset": "reset", "skip": "skip", "producer": "producer"}


def to_claim_result(reply: object) -> ClaimResult:
    """The claim script's reply as a ClaimResult; StoreUnavailableError for anything else."""
    r = _Reader("claim", reply)
    result: ClaimResult
    if r.outcome == "claimed":
        if not r.more():
            result = Claimed()
        elif r.peek() == "join":
            r.text()
            result = Claimed(join=_join_state(r))
        else:
            result = Claimed(lease_until=r.time())
    elif r.outcome == "leased":
        holder_id, receiver = r.text(), r.text()
        holder = ClaimHolder(holder_id, receiver, r.time())
        result = Leased(holder, r.time())
    elif r.outcome == "noted":
        result = Noted(attempt=r.integer(1))
    elif r.outcome == "owner-conflict":
        owner = r.text()
        result = OwnerConflict(owner, attempt=r.integer(1))
    elif r.outcome == "duplicate":
        of = _DUPLICATE_OF.get(r.text())
        if of is None:
            raise r.bad()
        holder_id, receiver = r.text(), r.text()
        result = Duplicate(of, ClaimHolder(holder_id, receiver, r.time()))
    elif r.outcome == "custody":
        owner_id, last_hop = _owner(r)
        attempt = r.integer(1)
        faults: list[CustodyFault] = []
        while r.more():
            kind = r.text()
            plain = _PLAIN_FAULTS.get(kind)
            if plain is not None:
                faults.append(CustodyFault(plain))
            elif kind == "path":
                position = r.integer(0)
                faults.append(CustodyFault("path", position, r.text()))
            elif kind in ("budget-limit", "budget-consumed"):
                counter = r.text()
                if counter not in BUDGET_COUNTERS:
                    raise r.bad()
                before = r.integer(0)
                faults.append(CustodyFault(cast(Any, kind), counter=counter, before=before, hop=r.integer(0)))
            elif kind in ("approval", "approval-cite"):
                faults.append(CustodyFault(cast(Any, kind), expected=r.text()))
            elif kind == "budget-overcommitted":
                counter = r.text()
                if counter not in BUDGET_COUNTERS:
                    raise r.bad()
                limit = r.text()
                if limit != "" and not _INTEGER.match(limit):
                    raise r.bad()
                parent, spent, hop, taken = r.integer(0), r.integer(0), r.integer(0), r.integer(0)
                faults.append(
                    CustodyFault(
                        "budget-overcommitted",
                        counter=counter,
                        hop=hop,
                        limit=None if limit == "" else int(limit),
                        parent=parent,
                        spent=spent,
                        taken=taken,
                    )
                )
            else:
                raise r.bad()
        if not faults:
            raise r.bad()
        return Custody(owner_id, last_hop, tuple(faults), attempt)
    elif r.outcome == "finished":
        result = Finished(_task_end(r))
    elif r.outcome == "join":
        result = JoinGivenUp(_join_closed(r))
    elif r.outcome == "branch":
        state = r.text()
        if state not in _BRANCH_STATES:
            raise r.bad()
        join_agent, hop_text, attempt_text = r.text(), r.text(), r.text()
        if hop_text != "" and not _INTEGER.match(hop_text):
            raise r.bad()
        counted = state not in ("late", "arrived", "ended")
        if counted != (attempt_text != "") or (counted and not _INTEGER.match(attempt_text)):
            raise r.bad()
        missing = _ids(r)
        arrived = _ids(r)
        result = BranchOut(
            cast(Any, state),
            join_agent or None,
            missing,
            arrived,
            None if hop_text == "" else int(hop_text),
            int(attempt_text) if counted else None,
        )
    else:
        raise r.bad()
    r.done()
    return result


def to_settle_result(reply: object) -> SettleResult:
    """The settle script's reply as a SettleResult; StoreUnavailableError for anything else."""
    r = _Reader("settle", reply)
    result: SettleResult
    if r.outcome == "committed":
        result = Committed()
    elif r.outcome == "released":
        result = Released()
    elif r.outcome == "lost":
        if r.more():
            holder_id, receiver = r.text(), r.text()
            result = Lost(ClaimHolder(holder_id, receiver, r.time()))
        else:
            result = Lost(None)
    else:
        raise r.bad()
    r.done()
    return result


_BRANCH_STATES: Final = frozenset({"open", "late", "arrived", "unopened", "reopened", "ended"})


def _join_words(r: _Reader) -> tuple[str, str, bool, int | None, tuple[str, ...], tuple[str, ...]]:
    """A join's words after its state: agent, policy, acts, deadline, missing, ended (see ledger.lua)."""
    agent, policy, acts_text, deadline_text = r.text(), r.text(), r.text(), r.text()
    if acts_text not in ("0", "1"):
        raise r.bad()
    deadline: int | None = None
    if deadline_text != "":
        try:
            number = float(deadline_text)
        except ValueError:
            raise r.bad() from None
        if not math.isfinite(number):
            raise r.bad()
        deadline = math.floor(number)
    return agent, policy, acts_text == "1", deadline, _ids(r), _ids(r)


def _join_closed(r: _Reader) -> JoinClosed:
    """A join given up on ("expired" or "failed"), as the script words it."""
    state = r.text()
    if state not in ("expired", "failed"):
        raise r.bad()
    agent, policy, acts, deadline, missing, ended = _join_words(r)
    return JoinClosed(cast(Any, state), agent, policy, acts, missing, ended, deadline)


def _acted(r: _Reader) -> JoinClosed | None:
    """The join words that may follow a finish reply: the join the call acted on."""
    if not r.more():
        return None
    if r.text() != "join":
        raise r.bad()
    return _join_closed(r)


def to_join_state_result(reply: object) -> JoinStateResult:
    """The join_state script's reply as a JoinStateResult; StoreUnavailableError for anything else."""
    r = _Reader("join state", reply)
    if r.outcome == "none":
        r.done()
        return JoinStateResult("none")
    if r.outcome not in ("waiting", "fired", "expired", "failed"):
        raise r.bad()
    agent, policy, acts, deadline, missing, ended = _join_words(r)
    if acts and r.outcome in ("waiting", "fired"):
        raise r.bad()
    arrived = _ids(r)
    r.done()
    return JoinStateResult(cast(Any, r.outcome), agent, policy, acts, arrived, missing, ended, deadline)


def _ids(r: _Reader) -> tuple[str, ...]:
    """A count, then that many branch ids (never empty)."""
    ids = tuple(r.text() for _ in range(r.integer(0)))
    if "" in ids:
        raise r.bad()
    return ids


def _join_state(r: _Reader) -> JoinState:
    """The join's state after a claimed arrival (see ledger.lua)."""
    agent, fired_text, hop_text = r.text(), r.text(), r.text()
    if fired_text not in ("0", "1") or (hop_text != "" and not _INTEGER.match(hop_text)):
        raise r.bad()
    fired = fired_text == "1"
    if fired != (hop_text != ""):
        raise r.bad()
    arrived = _ids(r)
    waiting = _ids(r)
    consumed: dict[str, int] | None = None
    for _ in range(r.integer(0)):
        counter = r.text()
        if counter not in BUDGET_COUNTERS:
            raise r.bad()
        consumed = consumed or {}
        consumed[counter] = r.integer(0)
    return JoinState(agent, arrived, waiting, fired, None if hop_text == "" else int(hop_text), consumed)


def to_finish_result(reply: object) -> FinishResult:
    """The finish script's reply as a FinishResult; StoreUnavailableError for anything else."""
    r = _Reader("finish", reply)
    result: FinishResult
    if r.outcome == "finished":
        ended = _task_end(r)
        result = TaskFinished(ended, join=_acted(r))
    elif r.outcome == "branch-finished":
        branch = r.text()
        ended = _task_end(r)
        result = BranchFinished(branch, ended, join=_acted(r))
    elif r.outcome == "already-finished":
        result = AlreadyFinished(_task_end(r))
    elif r.outcome == "not-owner":
        result = NotOwner(*_owner(r))
    elif r.outcome == "branch-open":
        join_agent = r.text()
        result = BranchOpen(join_agent, _ids(r))
    else:
        raise r.bad()
    r.done()
    return result
