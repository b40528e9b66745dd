/**
 * Python runtime, part 5: the one atomic `claim` call through which `accept()` consults its
 * duplicate and ownership memory (a port of `src/runtime/seen-store.ts`: the same requests, the
 * same answers, the same in-memory rules), and the loop detector over loop signatures.
 */

/** Python source; spliced verbatim into every emitted module. */
export const STORES_SOURCE = String.raw`
class ClaimEdge(NamedTuple):
    """The graph's edge a delivery travels."""

    kind: EdgeKind
    from_agent: str
    to_agent: str


class ClaimRequest(NamedTuple):
    """One delivery as the store sees it: handoff_id (in lower case), task_id, hop.index, the producer
    (from_agent.id, None when absent), the receiver (me), the graph's edge producer -> receiver
    (None when the graph has none), the verdict of the content checks ("accepted" includes an
    observe edge's acceptance with warnings) and the time, in ms since the Unix epoch."""

    handoff_id: str
    task_id: str
    hop_index: int
    producer: str | None
    receiver: str
    edge: ClaimEdge | None
    verdict: Literal["accepted", "rejected"]
    at: int
    path: tuple[str, ...] | None = None
    """hop.path when it is a list of strings (the task ledger compares and records it)."""


class ClaimHolder(NamedTuple):
    """The earlier accepted delivery a duplicate repeats (at: ms since the Unix epoch)."""

    handoff_id: str
    receiver: str
    at: int


class Claimed(NamedTuple):
    """An accepted delivery is recorded; its receiver now owns the task's hop."""

    outcome: Literal["claimed"] = "claimed"


class Noted(NamedTuple):
    """A rejected delivery is counted; nothing is owned. attempt: the refusals of the task's hop
    so far, this one included (None from a store written before the ledger: counts as 1)."""

    outcome: Literal["noted"] = "noted"
    attempt: int | None = None


class Duplicate(NamedTuple):
    """Nothing written: the handoff_id (of="handoff", a redelivery) or the task's hop to this
    receiver (of="hop", a replay under a fresh id) was accepted before, by holder."""

    of: Literal["handoff", "hop"]
    holder: ClaimHolder
    outcome: Literal["duplicate"] = "duplicate"


class OwnerConflict(NamedTuple):
    """owner accepted this task's hop before; only the refusal is counted (attempt)."""

    owner: str
    outcome: Literal["owner-conflict"] = "owner-conflict"
    attempt: int | None = None


class CustodyFault(NamedTuple):
    """One way a delivery breaks its task's chain of custody: "reset" (hop.index at or below the
    last accepted hop), "skip" (past the next hop), "producer" (not the owner), "path" (hop.path
    entry position is not expected, the agent the ledger recorded there)."""

    kind: Literal["reset", "skip", "producer", "path"]
    position: int | None = None
    expected: str | None = None


class Custody(NamedTuple):
    """The delivery is out of turn for its task: owner accepted its last hop, last_hop; only the
    refusal is counted (attempt)."""

    owner: str
    last_hop: int
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


ClaimResult = Union[Claimed, Noted, Duplicate, OwnerConflict, Custody, Finished]
_CLAIMED: Final = Claimed()


class FinishRequest(NamedTuple):
    """A terminal action as the store sees it (checked against the graph by finish())."""

    task_id: str
    agent: str
    terminal: str
    outcome: str
    at: int


class TaskFinished(NamedTuple):
    """The end is recorded."""

    ended: TaskEnd
    outcome: Literal["finished"] = "finished"


class NotOwner(NamedTuple):
    """Nothing written: owner accepted the task's last hop (last_hop); only it may end the task."""

    owner: str
    last_hop: int
    outcome: Literal["not-owner"] = "not-owner"


class AlreadyFinished(NamedTuple):
    """Nothing written: the task ended before (ended)."""

    ended: TaskEnd
    outcome: Literal["already-finished"] = "already-finished"


FinishResult = Union[TaskFinished, NotOwner, AlreadyFinished]


class SeenStore(Protocol):
    """What ingest remembers between deliveries, behind one atomic call. claim() decides and
    records a delivery in one step: the same handoff_id after an acceptance is a duplicate (a
    redelivery); the same task and hop accepted before by the same receiver under a fresh id is
    a duplicate (a replay); by another receiver, an owner conflict; a rejected delivery owns
    nothing (a retry is judged on its own). A Redis or SQL store answers in one round trip (a
    Lua script, one transaction), so two replicas racing for one hop cannot both win. What it
    raises, accept() raises."""

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


class _Task:
    __slots__ = ("hops", "refusals", "path", "ended", "touched")

    def __init__(self, at: int) -> None:
        self.hops: list[_HopOwner] = []
        self.refusals: dict[int, int] = {}
        self.path: tuple[str, ...] | None = None
        self.ended: TaskEnd | None = None
        self.touched = at


class MemorySeenStore:
    """A store in this process's memory (SeenStore and AsyncSeenStore), a port of the JavaScript
    runtime's: duplicates, replays, owners, and the task ledger (refusals per task and hop, the
    chain of custody, ended tasks). A task is forgotten ttl_ms after its last write. scope "graph"
    (default): shared by every service of the graph; "receiver": one service's own store, which
    sees only its hops (no owner, skip or path checks; resets below its own last hop still)."""

    __slots__ = ("_accepted", "_tasks", "_ttl", "_graph_wide")

    def __init__(self, ttl_ms: int = DEFAULT_TASK_TTL_MS, scope: str = "graph") -> None:
        if isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or ttl_ms <= 0:
            raise TypeError(f"create_memory_seen_store: ttl_ms must be a positive whole number of milliseconds, not {ttl_ms!r}")
        if scope not in ("graph", "receiver"):
            raise TypeError(f'create_memory_seen_store: scope must be "graph" or "receiver", not {scope!r}')
        self._accepted: dict[str, _HopOwner] = {}
        # Tasks in the order of their last write (re-inserted on each): expired ones come first.
        self._tasks: dict[str, _Task] = {}
        self._ttl = ttl_ms
        self._graph_wide = scope == "graph"

    def _sweep(self, now: int) -> None:
        while self._tasks:
            task_id, task = next(iter(self._tasks.items()))
            if now - task.touched < self._ttl:
                break
            for hop in task.hops:
                self._accepted.pop(hop.handoff_id, None)
            del self._tasks[task_id]

    def _touch(self, task_id: str, task: _Task, at: int) -> None:
        task.touched = max(task.touched, at)
        self._tasks.pop(task_id, None)
        self._tasks[task_id] = task

    def _ledger(self, task_id: str, at: int) -> _Task:
        task = self._tasks.get(task_id)
        if task is None:
            task = _Task(at)
            self._tasks[task_id] = task
        return task

    def _refuse(self, request: ClaimRequest) -> int:
        task = self._ledger(request.task_id, request.at)
        count = task.refusals.get(request.hop_index, 0) + 1
        task.refusals[request.hop_index] = count
        self._touch(request.task_id, task, request.at)
        return count

    def _faults(self, request: ClaimRequest, task: _Task, last: _HopOwner) -> list[CustodyFault]:
        faults: list[CustodyFault] = []
        if request.hop_index <= last.hop_index:
            faults.append(CustodyFault("reset"))
        if not self._graph_wide:
            return faults
        if request.hop_index > last.hop_index + 1:
            faults.append(CustodyFault("skip"))
        not_owner = request.producer != last.receiver
        if not_owner:
            faults.append(CustodyFault("producer"))
        path, recorded = request.path, task.path
        if path is not None and recorded is not None:
            # Entry last.hop_index is the owner itself: already named by a producer fault.
            end = min(len(recorded), len(path), last.hop_index if not_owner else last.hop_index + 1)
            for i in range(end):
                if path[i] != recorded[i]:
                    faults.append(CustodyFault("path", i, recorded[i]))
                    break
        return faults

    def claim(self, request: ClaimRequest) -> ClaimResult:
        """See SeenStore.claim and the README's task ledger: the same decisions in the same order."""
        self._sweep(request.at)
        earlier = self._accepted.get(request.handoff_id)
        if earlier is not None:
            return Duplicate("handoff", ClaimHolder(earlier.handoff_id, earlier.receiver, earlier.at))
        task = self._tasks.get(request.task_id)
        if task is not None and task.ended is not None:
            return Finished(task.ended)
        hops = task.hops if task is not None else []
        last = hops[-1] if hops else None
        owner = next((hop for hop in hops if hop.hop_index == request.hop_index), None)
        if owner is not None:
            if owner.receiver == request.receiver and owner.producer == request.producer:
                return Duplicate("hop", ClaimHolder(owner.handoff_id, owner.receiver, owner.at))
            if owner.receiver != request.receiver and not (self._graph_wide and last is not None and request.producer == last.receiver):
                return OwnerConflict(owner.receiver, attempt=self._refuse(request))
        if task is not None and last is not None:
            faults = self._faults(request, task, last)
            if faults:
                return Custody(last.receiver, last.hop_index, tuple(faults), self._refuse(request))
        if request.verdict == "rejected":
            return Noted(attempt=self._refuse(request))
        claim = _HopOwner(request.hop_index, request.handoff_id, request.producer, request.receiver, request.at)
        ledger = task if task is not None else self._ledger(request.task_id, request.at)
        self._accepted[request.handoff_id] = claim
        ledger.hops.append(claim)
        ledger.path = request.path
        self._touch(request.task_id, ledger, request.at)
        return _CLAIMED

    def finish(self, request: FinishRequest) -> FinishResult:
        """Records a terminal action atomically, unless another agent owns the task or it ended before."""
        self._sweep(request.at)
        task = self._ledger(request.task_id, request.at)
        if task.ended is not None:
            return AlreadyFinished(task.ended)
        last = task.hops[-1] if task.hops else None
        if self._graph_wide and last is not None and last.receiver != request.agent:
            return NotOwner(last.receiver, last.hop_index)
        ended = TaskEnd(request.agent, request.terminal, request.outcome, request.at, None if last is None else last.hop_index)
        task.ended = ended
        self._touch(request.task_id, task, request.at)
        return TaskFinished(ended)


class LoopObservation(NamedTuple):
    """What LoopDetector.observe found: the task, the receiving agent (to_agent.id), the loop
    signature, and whether that agent had already received this signature for this task."""

    task_id: str
    agent: str
    signature: str
    loop: bool


class LoopDetector:
    """Per task, the loop signatures each receiving agent has seen, in memory: an agent that
    receives a state it already received for the same task is going round a loop, even while
    the hop counter stays under its limit."""

    __slots__ = ("_signature", "_tasks")

    def __init__(self, signature: Callable[[object], str]) -> None:
        self._signature = signature
        self._tasks: dict[str, dict[str, set[str]]] = {}

    def observe(self, envelope: object) -> LoopObservation | None:
        """Records the envelope's signature for its task_id and to_agent.id; None (nothing
        recorded) when either is not a string. Raises what loop_signature raises."""
        if not isinstance(envelope, dict):
            return None
        task_id = envelope.get("task_id")
        to = envelope.get("to_agent")
        agent = to.get("id") if isinstance(to, dict) else None
        if not isinstance(task_id, str) or not isinstance(agent, str):
            return None
        value = self._signature(envelope)
        seen = self._tasks.setdefault(task_id, {}).setdefault(agent, set())
        loop = value in seen
        seen.add(value)
        return LoopObservation(task_id, agent, value, loop)

    def forget(self, task_id: str) -> None:
        """Drops what is remembered for a finished task."""
        self._tasks.pop(task_id, None)
`;
