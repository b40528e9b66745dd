"""The one atomic `claim` call through which `accept()` consults its
duplicate and ownership memory (a port of `src/runtime/seen-store.ts`: the same requests, the
same answers, the same in-memory rules), and the loop detector over loop signatures.
"""

import builtins
import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Final, Literal, NamedTuple, Protocol, TypeAlias, cast

from ._canonical import canonical_json
from ._catalogue import LOOP_MAX_SIGNATURES_PER_TASK, LOOP_MAX_TASKS
from ._fields import BUDGET_COUNTERS, add_counts
from ._records import EdgeKind


class ClaimEdge(NamedTuple):
    """The graph's edge a delivery travels."""

    kind: EdgeKind
    from_agent: str
    to_agent: str


class ClaimRequest(NamedTuple):
    """One delivery as the store sees it: handoff_id (in lower case; None when it is not a str),
    task_id (a str: a delivery without one is not claimed), hop.index (a whole number from 0 to
    2**53 - 1; None when it is not one), the producer (from_agent.id, None when absent), the
    receiver (me), the graph's edge producer -> receiver (None when the graph has none: it picks
    the refusal count, the producer's own over an edge, one shared count over none), the verdict
    of the content checks ("accepted" includes an observe edge's acceptance with warnings; always
    "rejected" when handoff_id or hop_index is None) and the time, in ms since the Unix epoch."""

    handoff_id: str | None
    task_id: str
    hop_index: int | None
    producer: str | None
    receiver: str
    edge: ClaimEdge | None
    verdict: Literal["accepted", "rejected"]
    at: int
    path: tuple[str, ...] | None = None
    """hop.path when it is a list of strings (the task ledger compares and records it)."""
    budget: "ClaimBudget | None" = None
    """The envelope's whole-number budget counters (None: no budget): compared with the budget
    of the task's last accepted hop, and recorded when the delivery is claimed."""
    approval: "ClaimApproval | None" = None
    """What the delivery says of approvals, for graphs whose envelope has the approval record
    (1.4 and later); None before, and then the store keeps no approvals."""
    token: str | None = None
    """The token of this claim attempt, unique to it: with a store that leases claims, the claim
    is held under it, and only it commits or releases the claim (see SeenStore, claim leases)."""
    envelope: builtins.object = None  # mypyc looks a NamedTuple field's type up in the module's globals
    """The delivered envelope, for a store that leases claims to fingerprint (envelope_digest): an
    expired claim is taken over only by a redelivery of the same envelope."""
    branch: "ClaimBranch | None" = None
    """The fan-out branch the delivery travels in (envelope 1.4's hop.branch, checked against
    the graph), None outside one: each branch is its own owner slot, and the store holds the
    task at the fan-out's join (docs/store-protocol.md, Fan-outs)."""


class ClaimJoin(NamedTuple):
    """The join that waits for a fan-out's branches: its agent, how many branches it needs, its
    deadline (within_ms: ms from the fan-out's first delegation; None without one) and its
    failure policy (otherwise: "escalate" or the join agent's terminal; outcome: that terminal's
    outcome, None for "escalate")."""

    agent: str
    need: int
    within_ms: int | None = None
    otherwise: str = "escalate"
    outcome: str | None = None


class JoinClosed(NamedTuple):
    """A join given up on (docs/store-protocol.md, Join deadlines): its deadline passed before its
    condition was met ("expired"), or the branches that ended at a terminal of their own leave
    too few ("failed"). The store acts on the policy once, in the call that first finds it so
    (acts True): "escalate" stops the join holding the task (it goes to a person); a terminal
    ends the task there, at the join agent. missing: the branches the join did not get (graph
    order); ended: those that ended (in order); deadline in ms since the Unix epoch, or None."""

    state: Literal["expired", "failed"]
    join: str
    policy: str
    acts: bool
    missing: tuple[str, ...]
    ended: tuple[str, ...]
    deadline: int | None


class JoinGivenUp(NamedTuple):
    """The claim outcome "join": the task's join was given up on (closed); not counted."""

    closed: JoinClosed
    outcome: Literal["join"] = "join"


class JoinStateRequest(NamedTuple):
    """A join_state request: the task, and the time in ms since the Unix epoch."""

    task_id: str
    at: int


class JoinStateResult(NamedTuple):
    """The task's join: state "none" (no fan-out with a join; the other fields empty), "waiting",
    "fired", "expired" or "failed" (acts True for the one answer that acted on the policy)."""

    state: Literal["none", "waiting", "fired", "expired", "failed"]
    join: str = ""
    policy: str = ""
    acts: bool = False
    arrived: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    ended: tuple[str, ...] = ()
    deadline: int | None = None


class ClaimBranch(NamedTuple):
    """The branch a delivery travels in, with what the graph says of its fan-out: id (NAME/AGENT,
    as hop.branch says it), the fan-out's name, the supervisor fanning out (from_agent), the
    agent the branch is delegated to, every branch id of the fan-out (in edge order), the join
    (None when none waits), whether the delivery opens the branch (the fan-out's delegation) and
    whether it arrives at the join (from one of its inputs)."""

    id: str
    fan_out: str
    from_agent: str
    agent: str
    siblings: tuple[str, ...]
    join: ClaimJoin | None
    opens: bool
    arrives: bool


class JoinState(NamedTuple):
    """A join after an arrival was claimed: the branches arrived (in arrival order) and still
    waited for (graph order), whether this arrival fired it, the hop the task goes on from (None
    before it fires) and the task's spend then (None before, or when no counter was reported)."""

    agent: str
    arrived: tuple[str, ...]
    waiting: tuple[str, ...]
    fired: bool
    hop: int | None
    consumed: dict[str, int] | None

    def to_dict(self) -> dict[str, object]:
        """The record's join, as the JavaScript runtime returns it."""
        return {
            "agent": self.agent,
            "arrived": list(self.arrived),
            "waiting": list(self.waiting),
            "fired": self.fired,
            "hop": self.hop,
            "consumed": self.consumed,
        }


class ClaimApproval(NamedTuple):
    """A delivery's approval facts: waits (status is waiting_review: accepted, the task waits for
    approval of this handoff) and cites (approval.pending_handoff_id in lower case, None when it
    is not a str)."""

    waits: bool
    cites: str | None


class ClaimBudget(NamedTuple):
    """A delivery's budget.limit and budget.consumed counters that are whole numbers (None when none is)."""

    limit: dict[str, int] | None
    consumed: dict[str, int] | None


def exact_result(answer: object, classes: frozenset[type]) -> object:
    """A store's answer as one of classes (its result classes): answer itself, or, when its class
    only derives from one of them, the same fields as that class. Compiled code tells these
    NamedTuple classes apart by exact type, so both builds take a subclass as the class it extends."""
    kind = type(answer)
    if kind in classes:
        return answer
    for base in kind.__mro__:
        if base in classes:
            return cast("Callable[..., object]", base)(*cast("tuple[object, ...]", answer))
    return answer


def envelope_digest(envelope: object) -> str | None:
    """The fingerprint of a delivered envelope for claim leases: the SHA-256 (FIPS 180-4) of its
    RFC 8785 canonical JSON, lower-case hex, as the JavaScript runtime computes it; None when it
    has no canonical form (a store then compares nothing)."""
    if envelope is None:
        return None
    try:
        text = canonical_json(envelope)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class ClaimHolder(NamedTuple):
    """The earlier accepted delivery a duplicate repeats, or whose lease holds the handoff (at: ms
    since the Unix epoch, when it was claimed or taken over)."""

    handoff_id: str
    receiver: str
    at: int


class Claimed(NamedTuple):
    """An accepted delivery is recorded; its receiver now owns the task's hop (or its branch).
    lease_until: with a lease, the claim is held under the request's token until then (ms since
    the Unix epoch), to be committed or released; None: it is committed. join: for an arrival at
    a join, the join's state after it."""

    outcome: Literal["claimed"] = "claimed"
    lease_until: int | None = None
    join: JoinState | None = None


class Leased(NamedTuple):
    """Nothing written: holder, a claim of this very handoff by this receiver, is held by a live
    lease until `until` (ms since the Unix epoch): deliver the handoff again after then."""

    holder: "ClaimHolder"
    until: int
    outcome: Literal["leased"] = "leased"


class Noted(NamedTuple):
    """A rejected delivery is counted; nothing is owned. attempt: the refusals in the producer's
    count of the task's current round, this one included (see SeenStore; None from a store
    written before the ledger: counts as 1)."""

    outcome: Literal["noted"] = "noted"
    attempt: int | None = None


class Duplicate(NamedTuple):
    """Nothing written: the handoff_id (of="handoff", a redelivery) or the task's latest hop from
    this producer to this receiver (of="hop", a replay under a fresh id) was accepted before, by
    holder."""

    of: Literal["handoff", "hop"]
    holder: ClaimHolder
    outcome: Literal["duplicate"] = "duplicate"


class OwnerConflict(NamedTuple):
    """owner accepted this task's hop before; only the refusal is counted (attempt)."""

    owner: str
    outcome: Literal["owner-conflict"] = "owner-conflict"
    attempt: int | None = None


class CustodyFault(NamedTuple):
    """One way a delivery breaks its task's chain of custody, the next hop being the last accepted
    hop + 1, or 1 for a task with no accepted hop (graph scope): "reset" (hop.index below the next
    hop), "skip" (past it), "producer" (not the owner), "path" (hop.path entry position is not
    expected, the agent the ledger recorded there), "budget-limit" (budget.limit[counter] above, or
    without, the limit `before` that hop `hop`, the last accepted, carried), "budget-consumed"
    (budget.consumed[counter] below, or without, the `before` that hop `hop` reported),
    "approval" (the task waits for approval of handoff `expected`, and the delivery does not cite
    it), "approval-cite" (none is pending, and the delivery's approval record cites another
    handoff than `expected`, the task's last accepted one; graph scope)."""

    kind: Literal[
        "reset", "skip", "producer", "path", "budget-limit", "budget-consumed", "approval", "approval-cite", "budget-overcommitted"
    ]
    position: int | None = None
    expected: str | None = None
    counter: str | None = None
    before: int | None = None
    hop: int | None = None
    limit: int | None = None
    """budget-overcommitted: the branch's limit (None: it sets none); parent and spent: the
    parent's limit and spend at the fan-out, hop; taken: the other branches' limits."""
    parent: int | None = None
    spent: int | None = None
    taken: int | None = None


class Custody(NamedTuple):
    """The delivery is out of turn for its task: owner accepted its last hop, last_hop (both None
    when the task has no accepted hop: a first delivery past hop 1); only the refusal is counted
    (attempt)."""

    owner: str | None
    last_hop: int | None
    faults: tuple[CustodyFault, ...]
    attempt: int | None = None
    outcome: Literal["custody"] = "custody"


class TaskEnd(NamedTuple):
    """How a task ended: the agent, its terminal and outcome, when (ms since the Unix epoch) and
    the last accepted hop (None when the ledger had none)."""

    agent: str
    terminal: str
    outcome: str
    at: int
    hop_index: int | None


class Finished(NamedTuple):
    """Nothing written: the task ended (ended)."""

    ended: TaskEnd
    outcome: Literal["finished"] = "finished"


class BranchOut(NamedTuple):
    """The delivery is out of turn for the task's fan-out (state): "open", a hop outside the
    branches while the join (join) waits for missing; "late", a hop in a branch after the join
    fired at hop on arrived; "arrived", a hop in a branch that reached the join at hop;
    "unopened", a hop in a branch the task has not opened; "reopened", the delegation of a
    branch opened at hop; "ended", a hop in a branch that ended at a terminal of its own at hop.
    late, arrived and ended are not counted (attempt None)."""

    state: Literal["open", "late", "arrived", "unopened", "reopened", "ended"]
    join: str | None
    missing: tuple[str, ...]
    arrived: tuple[str, ...]
    hop: int | None
    attempt: int | None = None
    outcome: Literal["branch"] = "branch"


ClaimResult: TypeAlias = Claimed | Leased | Noted | Duplicate | OwnerConflict | Custody | Finished | BranchOut | JoinGivenUp
_CLAIMED: Final = Claimed()


class FinishRequest(NamedTuple):
    """A terminal action as the store sees it (checked against the graph by finish()): at in ms
    since the Unix epoch; entry: whether agent is an entry of the graph (with a graph-wide store,
    a task with no accepted hop is ended only by an entry agent)."""

    task_id: str
    agent: str
    terminal: str
    outcome: str
    at: int
    entry: bool


class TaskFinished(NamedTuple):
    """The end is recorded; join: the join this call acted on (the join agent's policy terminal), else None."""

    ended: TaskEnd
    outcome: Literal["finished"] = "finished"
    join: JoinClosed | None = None


class BranchFinished(NamedTuple):
    """The agent owns the branch (the receiver of its last hop): the branch ended at the terminal,
    and the task goes on (ended.hop_index is the branch's last hop); join: the join this end left
    too few branches and acted on, else None."""

    branch: str
    ended: TaskEnd
    outcome: Literal["branch-finished"] = "branch-finished"
    join: JoinClosed | None = None


class NotOwner(NamedTuple):
    """Nothing written: owner accepted the task's last hop (last_hop); only it may end the task.
    Both None when the task has no accepted hop and the agent is no entry agent (graph scope)."""

    owner: str | None
    last_hop: int | None
    outcome: Literal["not-owner"] = "not-owner"


class AlreadyFinished(NamedTuple):
    """Nothing written: the task ended before (ended)."""

    ended: TaskEnd
    outcome: Literal["already-finished"] = "already-finished"


class BranchOpen(NamedTuple):
    """Nothing written: the join (join) still waits for the branches missing."""

    join: str
    missing: tuple[str, ...]
    outcome: Literal["branch-open"] = "branch-open"


FinishResult: TypeAlias = TaskFinished | BranchFinished | NotOwner | AlreadyFinished | BranchOpen


class SettleRequest(NamedTuple):
    """The end of a leased claim (made by commit() / release() from an acceptance record): the
    task, the handoff id (lower case) and producer, the token the claim was made under, the
    action ("commit": processed, redeliveries are duplicates; "release": not processed, the next
    delivery takes the claim over at once) and the time in ms since the Unix epoch."""

    task_id: str
    handoff_id: str
    producer: str | None
    token: str
    action: Literal["commit", "release"]
    at: int


class Committed(NamedTuple):
    """The claim is committed (now, or before: a commit is idempotent; a committed claim cannot be released)."""

    outcome: Literal["committed"] = "committed"


class Released(NamedTuple):
    """The lease ended now: the next delivery of the handoff to its receiver takes the claim over."""

    outcome: Literal["released"] = "released"


class Lost(NamedTuple):
    """Nothing written: the token holds the claim no more: its lease ran out and another delivery
    took it over (holder), or the ledger forgot the task (holder None)."""

    holder: "ClaimHolder | None"
    outcome: Literal["lost"] = "lost"


SettleResult: TypeAlias = Committed | Released | Lost
_COMMITTED: Final = Committed()


class SeenStore(Protocol):
    """What ingest remembers between deliveries, behind one atomic call. claim() decides and
    records a delivery in one step: the same handoff_id after an acceptance is a duplicate (a
    redelivery); the task's latest hop again from the same producer to the same receiver under a
    fresh id is a duplicate (a replay), an older hop after the task moved on a custody reset; a
    hop accepted before by another receiver, an owner conflict; a rejected delivery owns nothing
    (a retry is judged on its own). With a graph-wide store a task starts at hop 1.

    Refusals are counted per task and round, per producer: a task's round is the hop it awaits
    (from its first delivery or its latest accepted hop to the next accepted hop, which clears
    the counts); within it, each producer with an edge to the receiver has its own count and
    deliveries over no edge share one, so a task holds at most (agents + 1) counts. A delivery
    with handoff_id or hop_index None is only counted (Finished for an ended task, else Noted).

    A Redis or SQL store answers in one round trip (a Lua script, one transaction), so two
    replicas racing for one hop cannot both win. What it raises, accept() raises.

    Claim leases (rule lease-held; a store created with lease_ms): a claim is held under the
    request's token, a fresh one per claim attempt, until settle() commits or releases it. While
    the lease is live, a redelivery of the handoff to its receiver is Leased, whichever replica
    it reaches (replicas share the agent id, never the token); once it ran out uncommitted, the
    next one takes the claim over atomically under its own token. A claim whose task moved on or
    ended counts as committed. A store that leases nothing needs no settle()."""

    def claim(self, request: ClaimRequest) -> ClaimResult:
        """Decides and records one delivery atomically."""
        ...


class AsyncSeenStore(Protocol):
    """SeenStore for accept_async(): claim() may return an awaitable (a synchronous store is
    also an asynchronous one)."""

    def claim(self, request: ClaimRequest) -> ClaimResult | Awaitable[ClaimResult]:
        """Decides and records one delivery atomically."""
        ...


DEFAULT_TASK_TTL_MS: Final = 86_400_000
"""One day: how long the memory store keeps an idle task by default."""


class _HopOwner(NamedTuple):
    hop_index: int
    handoff_id: str
    producer: str | None
    receiver: str
    at: int
    # Claim leases: the claim's token (None: committed when made) and until when it is held
    # uncommitted (None once committed).
    token: str | None = None
    until: int | None = None
    # The claimed envelope's digest (leased claims only): a takeover must bring the same.
    digest: str | None = None


class _Branch:
    """One branch of a fan-out in the ledger: its delegation (None when a receiver's store first
    saw it inside), its accepted hops in order, the path and budget of its last, its arrival."""

    __slots__ = ("opened", "hops", "path", "budget", "arrived", "ended")

    def __init__(self, opened: _HopOwner | None) -> None:
        self.opened = opened
        self.hops: list[_HopOwner] = []
        self.path: tuple[str, ...] | None = None
        self.budget: ClaimBudget | None = None
        self.arrived: _HopOwner | None = None
        # How it ended at a terminal of its own (finish by its owner); None while it has not.
        self.ended: TaskEnd | None = None


class _Fan:
    """The task's latest fan-out: its base (the task's last hop when it fanned out, its path and
    budget), its branches (in opening order), its join and arrivals, and the arrival that fired it."""

    __slots__ = (
        "name",
        "supervisor",
        "base_hop",
        "base",
        "base_path",
        "base_budget",
        "siblings",
        "join",
        "branches",
        "arrived",
        "fired",
        "deadline",
        "ended",
        "closed",
    )

    def __init__(
        self,
        branch: "ClaimBranch",
        base_hop: int,
        base: _HopOwner | None,
        base_path: tuple[str, ...] | None,
        base_budget: "ClaimBudget | None",
        at: int,
    ) -> None:
        self.name = branch.fan_out
        self.supervisor = branch.from_agent
        self.base_hop = base_hop
        self.base = base
        self.base_path = base_path
        self.base_budget = base_budget
        self.siblings = branch.siblings
        self.join = branch.join
        self.branches: dict[str, _Branch] = {}
        self.arrived: list[str] = []
        self.fired: _HopOwner | None = None
        # Join deadlines: the fan-out's first delegation plus within (None without one), the
        # branches that ended at a terminal of their own, and why the policy acted (None: not yet).
        join = branch.join
        self.deadline: int | None = None if join is None or join.within_ms is None else at + join.within_ms
        self.ended: list[str] = []
        self.closed: Literal["expired", "failed"] | None = None

    def waiting(self) -> tuple[str, ...] | None:
        """The branches a join that has not fired still waits for; None when nothing holds the task."""
        if self.join is None or self.fired is not None or self.closed is not None:
            return None
        return tuple(branch for branch in self.siblings if branch not in self.arrived)

    def due(self, at: int) -> Literal["expired", "failed"] | None:
        """Whether the join is given up on at `at` and not acted on: "expired" once its deadline
        passed, else "failed" when the ended branches leave fewer than it needs (seen-store.ts, joinDue)."""
        if self.join is None or self.fired is not None or self.closed is not None:
            return None
        if self.deadline is not None and at >= self.deadline:
            return "expired"
        possible = sum(1 for branch in self.siblings if branch not in self.ended)
        return "failed" if possible < self.join.need else None

    def missing(self) -> tuple[str, ...]:
        """The branches the join has not had, in graph order."""
        return tuple(branch for branch in self.siblings if branch not in self.arrived)

    def given_up(self, acts: bool) -> JoinClosed:
        """The answer for a join given up on (closed set)."""
        join = cast(ClaimJoin, self.join)
        return JoinClosed(
            cast(Literal["expired", "failed"], self.closed),
            join.agent,
            join.otherwise,
            acts,
            self.missing(),
            tuple(self.ended),
            self.deadline,
        )


class _Task:
    __slots__ = ("hops", "refusals", "path", "budget", "pending", "ended", "touched", "fan", "branch_hops")

    def __init__(self, at: int, hops: list[_HopOwner], path: tuple[str, ...] | None, budget: "ClaimBudget | None" = None) -> None:
        self.hops = hops
        self.budget = budget
        # Refusals of the current round, per producer with an edge (None: over no edge); made at the first.
        self.refusals: dict[str | None, int] | None = None
        self.path = path
        # The handoff id the task waits for approval of (None: none pending).
        self.pending: str | None = None
        self.ended: TaskEnd | None = None
        self.touched = at
        # The latest fan-out, and every hop accepted in a branch (duplicates and expiry); None
        # until the first: most tasks never fan out, and a list per task that stays empty is one
        # more object for the cyclic GC to count and traverse for as long as the task is kept.
        self.fan: _Fan | None = None
        self.branch_hops: list[_HopOwner] | None = None


_Fresh: TypeAlias = tuple[object, ...]
"""A task whose ledger holds one committed hop and nothing else (the commonest entry: a task this
store saw start), flat: hop_index, handoff_id, producer, receiver, at, the pending approval's
handoff id; then the budget (-2: no budget object), its limit counters (-1: none, else their
number, then each name and count), its consumed counters (the same); then the path (-1: none,
else its length, then its entries). One tuple of strings, ints and None, which the cyclic GC
stops tracking at its first collection, where a _Task is the task, its list of hops, the hop,
the budget and its two dicts, and the path: objects it counts and traverses for as long as the
task is kept. Its handoff's entry in _accepted is the task id. The first read that needs more
makes it a _Task (MemorySeenStore._task). A field that a task's first claim sets on _Task or
_HopOwner must be carried here too (_add_fresh and _task)."""
# Where each field of a _Fresh stands; the budget's counters and the path follow _F_BUDGET.
_F_HOP: Final = 0
_F_HANDOFF: Final = 1
_F_PRODUCER: Final = 2
_F_RECEIVER: Final = 3
_F_AT: Final = 4
_F_PENDING: Final = 5
_F_BUDGET: Final = 6
_NO_BUDGET: Final = -2


def _flat_counts(counts: dict[str, int] | None, into: list[object]) -> None:
    """Appends counts to a _Fresh being made: -1 for None, else their number and each name and count."""
    if counts is None:
        into.append(-1)
        return
    into.append(len(counts))
    # Copied flat, in the caller's key order, and read as any values: nothing is checked here.
    for name, count in cast("dict[object, object]", counts).items():
        into.append(name)
        into.append(count)


def _read_counts(record: _Fresh, at: int) -> tuple[dict[str, int] | None, int]:
    """The counts _flat_counts wrote at record[at], and the index after them."""
    n = cast(int, record[at])
    if n < 0:
        return None, at + 1
    counts: dict[object, object] = {}
    for i in range(at + 1, at + 1 + 2 * n, 2):
        counts[record[i]] = record[i + 1]
    return cast("dict[str, int]", counts), at + 1 + 2 * n


class MemorySeenStore:
    """A store in this process's memory (SeenStore and AsyncSeenStore), a port of the JavaScript
    runtime's: duplicates, replays, owners, and the task ledger (refusals per task round and
    producer, the chain of custody, ended tasks). A task is forgotten ttl_ms after its last write.
    scope "graph" (default): shared by every service of the graph (a task starts at hop 1, and
    only its owner, or an entry agent before any hop, ends it); "receiver": one service's own
    store, which sees only its hops (no owner, first-hop, skip or path checks; resets below its
    own last hop still)."""

    __slots__ = ("_accepted", "_tasks", "_ttl", "_graph_wide", "_newest", "_lease", "_sweep_from")

    def __init__(self, ttl_ms: object = DEFAULT_TASK_TTL_MS, scope: object = "graph", lease_ms: object = 0) -> None:
        # Taken as any value and checked here, so that both builds raise these TypeErrors (a
        # compiled build would check annotated arguments in its own words, and read True as 1);
        # the generated module's create_memory_seen_store gives callers the types.
        if isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or ttl_ms <= 0:
            raise TypeError(f"create_memory_seen_store: ttl_ms must be a positive whole number of milliseconds, not {ttl_ms!r}")
        if isinstance(lease_ms, bool) or not isinstance(lease_ms, int) or lease_ms < 0:
            raise TypeError(
                f"create_memory_seen_store: lease_ms must be a whole number of milliseconds, 0 (no lease) or more, not {lease_ms!r}"
            )
        self._lease = lease_ms
        if scope not in ("graph", "receiver"):
            raise TypeError(f'create_memory_seen_store: scope must be "graph" or "receiver", not {scope!r}')
        # Each accepted handoff's hop, or the id of the fresh task (_Fresh) it is the only hop of.
        self._accepted: dict[str, _HopOwner | str] = {}
        # Tasks in the order of their last write (moved to the end on each): expired ones come
        # first. An OrderedDict, whose front is one step away however many tasks left it (a dict
        # keeps the slots of deleted keys, and each look at its front walks them again).
        self._tasks: OrderedDict[str, _Task | _Fresh] = OrderedDict()
        self._ttl = ttl_ms
        self._graph_wide = scope == "graph"
        # The task written last: already at the end, so its next write needs no move.
        self._newest: str | None = None
        # Before this time (ms) the sweep finds the first task unexpired, as it found it last:
        # the first task's time plus ttl_ms; None when the first task may have changed since (a
        # move to the end, the ledger emptied). A claim before it skips the look at the first task.
        self._sweep_from: int | None = None

    @property
    def lease_ms(self) -> int:
        """How long a claim is leased, in milliseconds (0: a claim is committed when made)."""
        return self._lease

    def _sweep(self, now: int) -> None:
        sweep_from = self._sweep_from
        if sweep_from is not None and now < sweep_from:
            return
        tasks = self._tasks
        self._sweep_from = None
        while tasks:
            task_id = next(iter(tasks))
            first = tasks[task_id]
            # A task's time only grows while it stays first (_touch), so the bound stays true until a move.
            expires = (first.touched if isinstance(first, _Task) else cast(int, first[_F_AT])) + self._ttl
            if now < expires:
                self._sweep_from = expires
                break
            gone = tasks.pop(task_id)
            if not isinstance(gone, _Task):
                self._accepted.pop(_handoff_key(cast("str | None", gone[_F_PRODUCER]), cast(str, gone[_F_HANDOFF])), None)
                continue
            for hop in gone.hops if gone.branch_hops is None else [*gone.hops, *gone.branch_hops]:
                self._accepted.pop(_handoff_key(hop.producer, hop.handoff_id), None)

    def _task(self, task_id: str) -> _Task | None:
        """The task's ledger entry; a fresh one is made a _Task here, in its place in the order."""
        task = self._tasks.get(task_id)
        if task is None or isinstance(task, _Task):
            return task
        handoff_id, producer, at = cast(str, task[_F_HANDOFF]), cast("str | None", task[_F_PRODUCER]), cast(int, task[_F_AT])
        claim = _HopOwner(cast(int, task[_F_HOP]), handoff_id, producer, cast(str, task[_F_RECEIVER]), at)
        budget: ClaimBudget | None = None
        next_at = _F_BUDGET + 1
        if task[_F_BUDGET] != _NO_BUDGET:
            limit, next_at = _read_counts(task, _F_BUDGET)
            consumed, next_at = _read_counts(task, next_at)
            budget = ClaimBudget(limit, consumed)
        n = cast(int, task[next_at])
        path = None if n < 0 else cast("tuple[str, ...]", task[next_at + 1 : next_at + 1 + n])
        full = _Task(at, [claim], path, budget)
        full.pending = cast("str | None", task[_F_PENDING])
        self._tasks[task_id] = full
        self._accepted[_handoff_key(producer, handoff_id)] = claim
        return full

    def _hop(self, key: str) -> _HopOwner | None:
        """The accepted hop of a handoff key (its task made a _Task when fresh); None when none."""
        hop = self._accepted.get(key)
        if isinstance(hop, str):
            self._task(hop)
            hop = self._accepted.get(key)
            # A fresh task's entry names a task the ledger holds: _task made the hop.
            assert not isinstance(hop, str)
        return hop

    def _add_fresh(
        self,
        key: str,
        task_id: str,
        hop_index: int,
        handoff_id: str,
        producer: str | None,
        receiver: str,
        at: int,
        path: tuple[str, ...] | None,
        budget: ClaimBudget | None,
        pending: str | None,
    ) -> None:
        """Records a task's first committed hop, flat (_Fresh). key is _handoff_key(producer,
        handoff_id), which the caller has made for its look-ups; task_id holds no entry yet (an
        entry there would keep its old place in the order, and orphan its hops in _accepted)."""
        record: list[object] = [hop_index, handoff_id, producer, receiver, at, pending]
        if budget is None:
            record.append(_NO_BUDGET)
        else:
            _flat_counts(budget.limit, record)
            _flat_counts(budget.consumed, record)
        if path is None:
            record.append(-1)
        else:
            record.append(len(path))
            record.extend(path)
        self._accepted[key] = task_id
        self._tasks[task_id] = tuple(record)
        self._newest = task_id

    def _touch(self, task_id: str, task: _Task, at: int) -> None:
        if at > task.touched:
            task.touched = at
        if task_id != self._newest:
            self._tasks.move_to_end(task_id)
            self._newest = task_id
            # The task moved may have been the first: the next sweep looks again.
            self._sweep_from = None

    def _insert(self, task_id: str, task: _Task) -> _Task:
        self._tasks[task_id] = task
        self._newest = task_id
        return task

    def _refuse(self, request: ClaimRequest, task: _Task | None) -> int:
        if task is None:
            task = self._insert(request.task_id, _Task(request.at, [], None))
        else:
            self._touch(request.task_id, task, request.at)
        bucket = None if request.edge is None else request.edge.from_agent
        refusals = task.refusals
        if refusals is None:
            refusals = task.refusals = {}
        count = refusals.get(bucket, 0) + 1
        refusals[bucket] = count
        return count

    def _faults(
        self,
        request: ClaimRequest,
        hop_index: int,
        task: _Task | None,
        last: _HopOwner | None,
        chain: "tuple[tuple[str, ...] | None, ClaimBudget | None] | None" = None,
        split: "tuple[ClaimBudget | None, int, list[ClaimBudget | None]] | None" = None,
    ) -> list[CustodyFault]:
        """The custody faults against the task's chain, or (chain: its recorded path and budget)
        a branch's; split: a branch's delegation takes a share of the parent's budget (the
        parent's budget, the fan-out's hop, the other branches' budgets)."""
        if last is None:
            if not self._graph_wide:
                return []
            # Graph-wide, every hop of a task passes through this store: an unknown task starts at 1,
            # and has no handoff that waited for the approval it would cite.
            first: list[CustodyFault] = [] if hop_index == 1 else [CustodyFault("reset" if hop_index < 1 else "skip")]
            if request.approval is not None and request.approval.cites is not None:
                first.append(CustodyFault("approval-cite", expected=""))
            return first
        faults: list[CustodyFault] = []
        if hop_index <= last.hop_index:
            faults.append(CustodyFault("reset"))
        recorded_path, recorded_budget = (
            chain if chain is not None else (None if task is None else task.path, None if task is None else task.budget)
        )
        if self._graph_wide:
            self._turn_faults(request, hop_index, recorded_path, last, faults)
        if split is not None:
            _overcommit_faults(request.budget, split, faults)
        elif chain is not None or task is not None:
            _budget_faults(request.budget, recorded_budget, last.hop_index, faults)
        # Approvals are the task's own (a branch keeps none).
        if chain is None and task is not None:
            _approval_faults(request.approval, task.pending, last.handoff_id if self._graph_wide else None, faults)
        return faults

    @staticmethod
    def _turn_faults(
        request: ClaimRequest, hop_index: int, recorded: tuple[str, ...] | None, last: _HopOwner, faults: list[CustodyFault]
    ) -> None:
        if hop_index > last.hop_index + 1:
            faults.append(CustodyFault("skip"))
        not_owner = request.producer != last.receiver
        if not_owner:
            faults.append(CustodyFault("producer"))
        path = request.path
        if path is not None and recorded is not None:
            # Entry last.hop_index is the owner itself: already named by a producer fault.
            end = min(len(recorded), len(path), last.hop_index if not_owner else last.hop_index + 1)
            for i in range(end):
                if path[i] != recorded[i]:
                    faults.append(CustodyFault("path", i, recorded[i]))
                    break

    def claim(self, request: ClaimRequest) -> ClaimResult:
        """See SeenStore.claim and the task ledger of docs/store-protocol.md: the same decisions in the same order."""
        self._sweep(request.at)
        handoff_id, hop_index = request.handoff_id, request.hop_index
        task = self._task(request.task_id)
        # Unusable header: nothing to key a duplicate, an owner or a turn on; only counted.
        if handoff_id is None or hop_index is None:
            if task is not None and task.ended is not None:
                return Finished(task.ended)
            return Noted(attempt=self._refuse(request, task))
        # Keyed by producer too: another sender's use of a handoff id cannot make this one a duplicate.
        key = _handoff_key(request.producer, handoff_id)
        earlier = self._hop(key)
        if earlier is not None:
            if (
                task is not None
                and earlier.until is not None
                and earlier.receiver == request.receiver
                and task.ended is None
                and task.hops
                and task.hops[-1] is earlier
            ):
                return self._redeliver_leased(key, earlier, request, task)
            return Duplicate("handoff", ClaimHolder(earlier.handoff_id, earlier.receiver, earlier.at))
        # Join deadlines: the first call to find the task's join given up on acts on its policy.
        acted = None if task is None else self._act_on_join(request.task_id, task, request.at)
        if acted is not None:
            return JoinGivenUp(acted)
        if task is not None and task.ended is not None:
            return Finished(task.ended)
        if request.branch is not None:
            return self._claim_in_branch(request, request.branch, handoff_id, hop_index, key, task)
        last = task.hops[-1] if task is not None and task.hops else None
        if last is not None and hop_index <= last.hop_index:
            # The latest step again (same producer, same receiver) under a fresh id: a replay.
            if hop_index == last.hop_index and last.receiver == request.receiver and last.producer == request.producer:
                return Duplicate("hop", ClaimHolder(last.handoff_id, last.receiver, last.at))
            # Another receiver for a hop taken, from anyone but the current owner: two owners of one hop.
            owner = next((hop for hop in cast(_Task, task).hops if hop.hop_index == hop_index), None)
            if owner is not None and owner.receiver != request.receiver and not (self._graph_wide and request.producer == last.receiver):
                return OwnerConflict(owner.receiver, attempt=self._refuse(request, task))
            # Otherwise an older number again: the counter went backwards (below).
        # A join waiting for branches holds the task: nothing goes on outside them (branch-open).
        missing = None if task is None or task.fan is None else task.fan.waiting()
        if missing is not None:
            return BranchOut("open", cast(_Fan, cast(_Task, task).fan).join.agent, missing, (), None, self._refuse(request, task))  # type: ignore[union-attr]
        faults = self._faults(request, hop_index, task, last)
        if faults:
            return Custody(
                None if last is None else last.receiver,
                None if last is None else last.hop_index,
                tuple(faults),
                self._refuse(request, task),
            )
        if request.verdict == "rejected":
            return Noted(attempt=self._refuse(request, task))
        token = request.token if self._lease > 0 and isinstance(request.token, str) else None
        until = None if token is None else request.at + self._lease
        digest = None if token is None else envelope_digest(request.envelope)
        # A resumption answers the pending approval; a hand-back waiting for review opens one.
        pending = handoff_id if request.approval is not None and request.approval.waits else None
        if task is None and until is None:
            self._add_fresh(
                key,
                request.task_id,
                hop_index,
                handoff_id,
                request.producer,
                request.receiver,
                request.at,
                request.path,
                request.budget,
                pending,
            )
            return _CLAIMED
        claim = _HopOwner(hop_index, handoff_id, request.producer, request.receiver, request.at, token, until, digest)
        claimed = _CLAIMED if until is None else Claimed(lease_until=until)
        self._accepted[key] = claim
        if task is None:
            self._insert(request.task_id, _Task(request.at, [claim], request.path, request.budget)).pending = pending
            return claimed
        # Resets are refused, so a claimed hop is always past the last: the list stays in index order.
        task.hops.append(claim)
        task.path = request.path
        task.budget = request.budget
        task.pending = pending
        # The next round starts with no refusals.
        task.refusals = None
        self._touch(request.task_id, task, request.at)
        return claimed

    def _claim_new_task(
        self,
        handoff_id: str,
        task_id: str,
        hop_index: int,
        producer: str | None,
        receiver: str,
        at: int,
        path: tuple[str, ...] | None,
        budget: "ClaimBudget | None",
        approval: ClaimApproval | None,
    ) -> "Claimed | None":
        """claim() of an accepted delivery outside a branch that starts a task this store does not
        hold, without a ClaimRequest (the accept path's commonest claim): the same state change
        and answer as claim() makes of it. None, having changed nothing but the sweep claim()
        makes first, when the claim is any other case (then claim() decides it). Takes the
        handoff id as claim() gets it (lower-case hex); never for a store that leases claims."""
        self._sweep(at)
        if self._lease > 0 or task_id in self._tasks:
            return None
        key = _handoff_key(producer, handoff_id)
        if key in self._accepted:
            return None
        # A task unknown graph-wide starts at hop 1 citing no approval (_faults, last None).
        if self._graph_wide and (hop_index != 1 or (approval is not None and approval.cites is not None)):
            return None
        pending = handoff_id if approval is not None and approval.waits else None
        self._add_fresh(key, task_id, hop_index, handoff_id, producer, receiver, at, path, budget, pending)
        return _CLAIMED

    def _redeliver_leased(self, key: str, hop: _HopOwner, request: ClaimRequest, task: _Task) -> ClaimResult:
        """A redelivery of a leased claim, the task's last hop: held while the lease is live, taken over once it ran out (lease-held)."""
        until = cast(int, hop.until)
        if request.at < until:
            return Leased(ClaimHolder(hop.handoff_id, hop.receiver, hop.at), until)
        # Other content under the claimed handoff_id is no redelivery: a duplicate of the id.
        if hop.digest is not None and envelope_digest(request.envelope) != hop.digest:
            return Duplicate("handoff", ClaimHolder(hop.handoff_id, hop.receiver, hop.at))
        # A redelivery the content checks now refuse does not take the claim: it is counted.
        if request.verdict == "rejected" or not isinstance(request.token, str):
            return Noted(attempt=self._refuse(request, task))
        taken = hop._replace(at=request.at, token=request.token, until=request.at + self._lease)
        task.hops[-1] = taken
        self._accepted[key] = taken
        self._touch(request.task_id, task, request.at)
        return Claimed(lease_until=taken.until)

    def settle(self, request: SettleRequest) -> SettleResult:
        """Commits or releases a leased claim held under request.token (see SeenStore, claim leases)."""
        self._sweep(request.at)
        key = _handoff_key(request.producer, request.handoff_id)
        hop = self._hop(key)
        task = self._task(request.task_id)
        if hop is None or task is None or not any(h is hop for h in task.hops):
            return Lost(None)
        if hop.token != request.token:
            return Lost(ClaimHolder(hop.handoff_id, hop.receiver, hop.at))
        if hop.until is None:
            return _COMMITTED
        if request.action == "commit":
            settled = hop._replace(until=None)
        else:
            settled = hop._replace(until=min(hop.until, request.at))
        task.hops[[i for i, h in enumerate(task.hops) if h is hop][0]] = settled
        self._accepted[key] = settled
        return _COMMITTED if request.action == "commit" else Released()

    def _save_branch_hop(self, request: ClaimRequest, task: _Task, branch: _Branch, claim: _HopOwner, key: str) -> None:
        """Records an accepted hop in a branch: its handoff, its place in the branch, the task's new round."""
        self._accepted[key] = claim
        if task.branch_hops is None:
            task.branch_hops = [claim]
        else:
            task.branch_hops.append(claim)
        branch.hops.append(claim)
        branch.path = request.path
        branch.budget = request.budget
        task.refusals = None
        self._touch(request.task_id, task, request.at)

    def _claim_in_branch(
        self, request: ClaimRequest, b: ClaimBranch, handoff_id: str, hop_index: int, key: str, known: _Task | None
    ) -> ClaimResult:
        """A delivery in a fan-out branch, as the JavaScript store's claimInBranch and the Redis
        script decide it: the delegation opens the branch with a share of the parent's budget; a
        hop inside follows the branch's own chain; an arrival is taken once, and the one that
        meets the join's condition moves the task on from the longest branch."""
        fan = known.fan if known is not None else None
        current = fan if fan is not None and fan.name == b.fan_out and fan.supervisor == b.from_agent else None
        claim = _HopOwner(hop_index, handoff_id, request.producer, request.receiver, request.at)

        def replay_of(hop: _HopOwner | None) -> bool:
            return hop is not None and hop.hop_index == hop_index and hop.producer == request.producer and hop.receiver == request.receiver

        def holder(hop: _HopOwner) -> Duplicate:
            return Duplicate("hop", ClaimHolder(hop.handoff_id, hop.receiver, hop.at))

        def late(of: _Fan) -> BranchOut:
            return BranchOut("late", None if of.join is None else of.join.agent, (), tuple(of.arrived), cast(_HopOwner, of.fired).hop_index)

        def custody(last: _HopOwner | None, faults: list[CustodyFault]) -> Custody:
            return Custody(
                None if last is None else last.receiver,
                None if last is None else last.hop_index,
                tuple(faults),
                self._refuse(request, known),
            )

        if b.opens:
            if current is not None and hop_index == current.base_hop + 1:
                # Another branch of the fan-out the task is in.
                opened = current.branches.get(b.id)
                if opened is not None:
                    if opened.opened is not None and len(opened.hops) == 1 and replay_of(opened.opened):
                        return holder(opened.opened)
                    return BranchOut(
                        "reopened", None, (), (), None if opened.opened is None else opened.opened.hop_index, self._refuse(request, known)
                    )
                if current.closed is not None:
                    return JoinGivenUp(current.given_up(False))
                if current.fired is not None:
                    return late(current)
                split = (current.base_budget, current.base_hop, [other.budget for other in current.branches.values()])
                faults = self._faults(request, hop_index, known, current.base, (current.base_path, current.base_budget), split)
                if faults:
                    return custody(current.base, faults)
                if request.verdict == "rejected":
                    return Noted(attempt=self._refuse(request, known))
                branch = _Branch(claim)
                current.branches[b.id] = branch
                self._save_branch_hop(request, cast(_Task, known), branch, claim, key)
                return _CLAIMED
            # A new fan-out from where the task is now: judged against its chain, like any next hop.
            last = known.hops[-1] if known is not None and known.hops else None
            missing = None if known is None or known.fan is None else known.fan.waiting()
            if missing is not None:
                return BranchOut(
                    "open", cast(ClaimJoin, cast(_Fan, cast(_Task, known).fan).join).agent, missing, (), None, self._refuse(request, known)
                )
            parent = None if known is None else known.budget
            faults = self._faults(request, hop_index, known, last, None, (parent, 0 if last is None else last.hop_index, []))
            if faults:
                return custody(last, faults)
            if request.verdict == "rejected":
                return Noted(attempt=self._refuse(request, known))
            task = known if known is not None else self._insert(request.task_id, _Task(request.at, [], None))
            task.fan = _Fan(
                b, hop_index - 1 if last is None else last.hop_index, last, None if known is None else known.path, parent, request.at
            )
            branch = _Branch(claim)
            task.fan.branches[b.id] = branch
            self._save_branch_hop(request, task, branch, claim, key)
            return _CLAIMED
        # A hop inside a branch.
        found = None if current is None else current.branches.get(b.id)
        if found is None:
            # Graph-wide, every branch opens through this store; a receiver's store first sees it here.
            if current is not None and current.closed is not None:
                return JoinGivenUp(current.given_up(False))
            if current is not None and current.fired is not None:
                return late(current)
            if self._graph_wide:
                return BranchOut("unopened", None, (), (), None, self._refuse(request, known))
            task = known if known is not None else self._insert(request.task_id, _Task(request.at, [], None))
            if current is None:
                current = task.fan = _Fan(b, -1, None, None, None, request.at)
            found = current.branches[b.id] = _Branch(None)
        else:
            task = cast(_Task, known)
        fan_now = cast(_Fan, current)
        if found.arrived is not None:
            if replay_of(found.arrived):
                return holder(found.arrived)
            return BranchOut("arrived", None if fan_now.join is None else fan_now.join.agent, (), (), found.arrived.hop_index)
        if found.ended is not None:
            return BranchOut("ended", None if fan_now.join is None else fan_now.join.agent, (), (), found.ended.hop_index)
        if fan_now.closed is not None:
            return JoinGivenUp(fan_now.given_up(False))
        if fan_now.fired is not None:
            return late(fan_now)
        last = found.hops[-1] if found.hops else None
        if last is not None and hop_index <= last.hop_index:
            if replay_of(last):
                return holder(last)
            owner = next((hop for hop in reversed([*task.hops, *found.hops]) if hop.hop_index == hop_index), None)
            if owner is not None and owner.receiver != request.receiver and not (self._graph_wide and request.producer == last.receiver):
                return OwnerConflict(owner.receiver, attempt=self._refuse(request, task))
        # A branch a receiver's store first saw inside has no chain yet: judged on its content.
        faults = self._faults(request, hop_index, task, last, (found.path, found.budget)) if last is not None else []
        if faults:
            return custody(last, faults)
        if request.verdict == "rejected":
            return Noted(attempt=self._refuse(request, task))
        self._save_branch_hop(request, task, found, claim, key)
        if not b.arrives or fan_now.join is None:
            return _CLAIMED
        found.arrived = claim
        fan_now.arrived.append(b.id)
        fired = len(fan_now.arrived) >= fan_now.join.need
        hop: int | None = None
        consumed: dict[str, int] | None = None
        if fired:
            # The task goes on from the longest branch (the first to arrive of equals), with every branch's spend.
            fan_now.fired = claim
            longest = fan_now.branches[fan_now.arrived[0]]
            for branch_id in fan_now.arrived:
                other = fan_now.branches[branch_id]
                if cast(_HopOwner, other.arrived).hop_index > cast(_HopOwner, longest.arrived).hop_index:
                    longest = other
            task.hops.extend(longest.hops)
            task.path = longest.path
            task.budget = _joined_budget(fan_now.base_budget, [other.budget for other in fan_now.branches.values()])
            hop = cast(_HopOwner, longest.arrived).hop_index
            consumed = None if task.budget is None else task.budget.consumed
        arrived = tuple(fan_now.arrived)
        return Claimed(
            join=JoinState(
                fan_now.join.agent, arrived, tuple(branch for branch in fan_now.siblings if branch not in arrived), fired, hop, consumed
            )
        )

    def finish(self, request: FinishRequest) -> FinishResult:
        """Records a terminal action atomically, unless another agent owns the task (or, with no
        accepted hop, the agent is no entry agent) or it ended before."""
        self._sweep(request.at)
        task = self._task(request.task_id)
        if task is not None and task.ended is not None:
            return AlreadyFinished(task.ended)
        # Join deadlines: a join given up on acts first; its policy terminal is the join agent's end.
        acted = None if task is None else self._act_on_join(request.task_id, task, request.at)
        if task is not None and task.ended is not None:
            if request.agent == task.ended.agent and request.terminal == task.ended.terminal:
                return TaskFinished(task.ended, join=acted)
            return AlreadyFinished(task.ended)
        last = task.hops[-1] if task is not None and task.hops else None
        if self._graph_wide and task is not None and task.fan is not None:
            missing = task.fan.waiting()
            # The task's end waits for the join, like its next hop (branch-open).
            join = task.fan.join
            if (
                missing is not None
                and join is not None
                and (request.agent == join.agent or (request.entry if last is None else last.receiver == request.agent))
            ):
                return BranchOpen(join.agent, missing)
        # A branch ending at a terminal of its own: its owner closes it, and the task goes on.
        if self._graph_wide and task is not None and task.fan is not None and (last is None or last.receiver != request.agent):
            for branch_id, branch in task.fan.branches.items():
                if branch.arrived is None and branch.ended is None and branch.hops and branch.hops[-1].receiver == request.agent:
                    return self._finish_branch(task, task.fan, branch_id, branch, request)
        if self._graph_wide:
            if last is not None and last.receiver != request.agent:
                return NotOwner(last.receiver, last.hop_index)
            # Never handed on: it is still with the entry agent that took it in.
            if last is None and not request.entry:
                return NotOwner(None, None)
        ended = TaskEnd(request.agent, request.terminal, request.outcome, request.at, None if last is None else last.hop_index)
        if task is None:
            task = self._insert(request.task_id, _Task(request.at, [], None))
        else:
            self._touch(request.task_id, task, request.at)
        task.ended = ended
        return TaskFinished(ended, join=acted)

    def _finish_branch(self, task: _Task, fan: _Fan, branch_id: str, branch: _Branch, request: FinishRequest) -> FinishResult:
        """Closes a branch at its owner's terminal; its end may leave the join too few branches (acted on at once)."""
        ended = TaskEnd(request.agent, request.terminal, request.outcome, request.at, branch.hops[-1].hop_index)
        branch.ended = ended
        fan.ended.append(branch_id)
        self._touch(request.task_id, task, request.at)
        return BranchFinished(branch_id, ended, join=self._act_on_join(request.task_id, task, request.at))

    def _act_on_join(self, task_id: str, task: _Task, at: int) -> JoinClosed | None:
        """Join deadlines and policies: when the task's join is given up on at `at`, acts on its
        policy once (the join stops holding the task; a terminal policy ends the task there, at
        the join agent) and answers with acts True; None when nothing was due."""
        fan = task.fan
        if fan is None or task.ended is not None:
            return None
        due = fan.due(at)
        if due is None:
            return None
        fan.closed = due
        join = cast(ClaimJoin, fan.join)
        if join.otherwise != "escalate":
            last = task.hops[-1].hop_index if task.hops else None
            task.ended = TaskEnd(join.agent, join.otherwise, join.outcome or "failed", at, last)
        self._touch(task_id, task, at)
        return fan.given_up(True)

    def join_state(self, request: JoinStateRequest) -> JoinStateResult:
        """The task's join, acting on its policy once when it was given up on (see JoinClosed)."""
        self._sweep(request.at)
        task = self._task(request.task_id)
        fan = None if task is None else task.fan
        if task is None or fan is None or fan.join is None:
            return JoinStateResult("none")
        arrived = tuple(fan.arrived)
        acted = self._act_on_join(request.task_id, task, request.at)
        closed = acted if acted is not None else (fan.given_up(False) if fan.closed is not None else None)
        if closed is not None:
            return JoinStateResult(
                closed.state, closed.join, closed.policy, closed.acts, arrived, closed.missing, closed.ended, closed.deadline
            )
        state: Literal["waiting", "fired"] = "waiting" if fan.fired is None else "fired"
        return JoinStateResult(state, fan.join.agent, fan.join.otherwise, False, arrived, fan.missing(), tuple(fan.ended), fan.deadline)


class LoopObservation(NamedTuple):
    """What LoopDetector.observe found: the task, the receiving agent (to_agent.id), the loop
    signature, and whether that agent had already received this signature for this task."""

    task_id: str
    agent: str
    signature: str
    loop: bool


class _TaskLoops:
    __slots__ = ("agents", "kept")

    def __init__(self) -> None:
        self.agents: dict[str, set[str]] = {}
        self.kept = 0


class LoopDetector:
    """Per task, the loop signatures each receiving agent has seen (per fan-out branch, where
    hop.branch names one), in memory: an agent that
    receives a state it already received for the same task is going round a loop, even while
    the hop counter stays under its limit. Bounded as the JavaScript detector is (the same
    defaults, from the runtime catalogue): at most max_tasks tasks (past it, the task observed
    least recently is forgotten, and its loops go unseen) and max_signatures_per_task signatures
    per task (past it, new ones are checked, not kept). Raises TypeError when a bound is not a
    positive whole number (None: the default)."""

    __slots__ = ("_signature", "_tasks", "_max_tasks", "_max_signatures")

    def __init__(self, signature: Callable[[object], str], max_tasks: object = None, max_signatures_per_task: object = None) -> None:
        # The bounds are taken as any value and checked here, as MemorySeenStore's are (the
        # generated module's create_loop_detector gives callers the types).
        for name, value in (("max_tasks", max_tasks), ("max_signatures_per_task", max_signatures_per_task)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise TypeError(f"LoopDetector: {name} must be a positive whole number, not {value!r}")
        self._signature = signature
        self._max_tasks: int = LOOP_MAX_TASKS if max_tasks is None else cast(int, max_tasks)
        self._max_signatures: int = LOOP_MAX_SIGNATURES_PER_TASK if max_signatures_per_task is None else cast(int, max_signatures_per_task)
        # In the order last observed (moved to the end on each observation): the oldest go first.
        self._tasks: OrderedDict[str, _TaskLoops] = OrderedDict()

    def observe(self, envelope: object) -> LoopObservation | None:
        """Records the envelope's signature for its task_id and to_agent.id; None (nothing
        recorded) when either is not a string. Raises what loop_signature raises."""
        if not isinstance(envelope, dict):
            return None
        fields = cast("dict[str, object]", envelope)
        task_id = fields.get("task_id")
        to = fields.get("to_agent")
        agent = cast("dict[str, object]", to).get("id") if isinstance(to, dict) else None
        if not isinstance(task_id, str) or not isinstance(agent, str):
            return None
        # Branches of one task are apart (envelope 1.4's hop.branch): two branches reaching one
        # agent in one state run side by side, they do not go round a loop.
        hop = fields.get("hop")
        branch = cast("dict[str, object]", hop).get("branch") if isinstance(hop, dict) else None
        place = f"{agent}\u0000{branch}" if isinstance(branch, str) else agent
        value = self._signature(fields)
        tasks = self._tasks
        task = tasks.get(task_id)
        if task is None:
            if len(tasks) >= self._max_tasks:
                tasks.popitem(last=False)
            task = tasks[task_id] = _TaskLoops()
        else:
            tasks.move_to_end(task_id)
        seen = task.agents.setdefault(place, set())
        loop = value in seen
        if not loop and task.kept < self._max_signatures:
            seen.add(value)
            task.kept += 1
        return LoopObservation(task_id, agent, value, loop)

    def forget(self, task_id: str) -> None:
        """Drops what is remembered for a finished task."""
        self._tasks.pop(task_id, None)


def _handoff_key(producer: str | None, handoff_id: str) -> str:
    """The key of a handoff: its producer and id (the producer id's length first, so no id names another's key)."""
    return f"-:{handoff_id}" if producer is None else f"{len(producer)}:{producer}:{handoff_id}"


def _budget_faults(budget: ClaimBudget | None, recorded: ClaimBudget | None, hop: int, faults: list[CustodyFault]) -> None:
    """A limit raised or dropped, spend lowered or hidden, against the task's last accepted budget."""
    if budget is None or recorded is None:
        return
    for counter in BUDGET_COUNTERS:
        limit_before = None if recorded.limit is None else recorded.limit.get(counter)
        if limit_before is not None:
            limit = None if budget.limit is None else budget.limit.get(counter)
            if limit is None or limit > limit_before:
                faults.append(CustodyFault("budget-limit", counter=counter, before=limit_before, hop=hop))
        spent_before = None if recorded.consumed is None else recorded.consumed.get(counter)
        if spent_before is not None:
            spent = None if budget.consumed is None else budget.consumed.get(counter)
            if spent is None or spent < spent_before:
                faults.append(CustodyFault("budget-consumed", counter=counter, before=spent_before, hop=hop))


def _approval_faults(approval: ClaimApproval | None, pending: str | None, last: str | None, faults: list[CustodyFault]) -> None:
    """The approval faults of a delivery to a task waiting for approval of pending (None: none)
    whose last accepted handoff is last (None: not compared, receiver scope)."""
    if approval is None:
        return
    if pending is not None:
        if approval.cites != pending:
            faults.append(CustodyFault("approval", expected=pending))
    elif approval.cites is not None and last is not None and approval.cites != last:
        faults.append(CustodyFault("approval-cite", expected=last))


def _overcommit_faults(
    budget: ClaimBudget | None, split: "tuple[ClaimBudget | None, int, list[ClaimBudget | None]]", faults: list[CustodyFault]
) -> None:
    """budget-overcommitted: each counter the parent limits is limited in the branch, and the
    branches' limits together fit in the parent's limit less its spend at the fan-out."""
    parent, hop, taken = split
    if budget is None or parent is None or parent.limit is None:
        return
    for counter in BUDGET_COUNTERS:
        limit_of = parent.limit.get(counter)
        if limit_of is None:
            continue
        spent = 0 if parent.consumed is None else parent.consumed.get(counter, 0)
        limit = None if budget.limit is None else budget.limit.get(counter)
        held = sum((other.limit or {}).get(counter, 0) for other in taken if other is not None)
        if limit is None or held + limit > limit_of - spent:
            faults.append(
                CustodyFault("budget-overcommitted", counter=counter, hop=hop, limit=limit, parent=limit_of, spent=spent, taken=held)
            )


def _joined_budget(parent: ClaimBudget | None, branches: list[ClaimBudget | None]) -> ClaimBudget | None:
    """The task's budget once its join fired: the parent's limits, its spend plus every branch's
    latest spend (the ledger adds the branches' spend back). A fan-out from a base with no budget
    (one at the entry, before any hop) has no parent's limits: the task then holds what its
    branches were given, each counter's limit the sum of every branch's, and no limit of a counter
    some branch left unlimited. Sums stop at 2**53 - 1 (add_counts). None when no budget was
    reported."""
    consumed = None if parent is None or parent.consumed is None else dict(parent.consumed)
    seen = parent is not None
    for budget in branches:
        if budget is None:
            continue
        seen = True
        for counter in BUDGET_COUNTERS:
            spent = None if budget.consumed is None else budget.consumed.get(counter)
            if spent is None:
                continue
            if consumed is None:
                consumed = {}
            consumed[counter] = add_counts(consumed.get(counter, 0), spent)
    if not seen:
        return None
    return ClaimBudget(_branch_limits(branches) if parent is None else parent.limit, consumed)


def _branch_limits(budgets: list[ClaimBudget | None]) -> dict[str, int] | None:
    """Each counter's limit summed over budgets, for the counters every one of them limits; None
    when none is."""
    limit: dict[str, int] | None = None
    for counter in BUDGET_COUNTERS:
        held = [None if budget is None or budget.limit is None else budget.limit.get(counter) for budget in budgets]
        if any(value is None for value in held):
            continue
        if limit is None:
            limit = {}
        total = 0
        for value in held:
            total = add_counts(total, cast(int, value))
        limit[counter] = total
    return limit
