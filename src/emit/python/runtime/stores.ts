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


class ClaimHolder(NamedTuple):
    """The earlier accepted delivery a duplicate repeats (at: ms since the Unix epoch)."""

    handoff_id: str
    receiver: str
    at: int


class Claimed(NamedTuple):
    """An accepted delivery is recorded; its receiver now owns the task's hop."""

    outcome: Literal["claimed"] = "claimed"


class Noted(NamedTuple):
    """A rejected delivery is recorded (for retry counts); nothing is owned."""

    outcome: Literal["noted"] = "noted"


class Duplicate(NamedTuple):
    """Nothing written: the handoff_id (of="handoff", a redelivery) or the task's hop to this
    receiver (of="hop", a replay under a fresh id) was accepted before, by holder."""

    of: Literal["handoff", "hop"]
    holder: ClaimHolder
    outcome: Literal["duplicate"] = "duplicate"


class OwnerConflict(NamedTuple):
    """Nothing written: owner accepted this task's hop before."""

    owner: str
    outcome: Literal["owner-conflict"] = "owner-conflict"


ClaimResult = Union[Claimed, Noted, Duplicate, OwnerConflict]
_CLAIMED: Final = Claimed()
_NOTED: Final = Noted()


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


class MemorySeenStore:
    """A store in this process's memory (SeenStore and AsyncSeenStore), for tests and
    single-process services. It never forgets: a long-running service should use one with expiry."""

    __slots__ = ("_accepted", "_owners")

    def __init__(self) -> None:
        self._accepted: dict[str, ClaimHolder] = {}
        self._owners: dict[tuple[str, int], ClaimHolder] = {}

    def claim(self, request: ClaimRequest) -> ClaimResult:
        """See SeenStore.claim."""
        earlier = self._accepted.get(request.handoff_id)
        if earlier is not None:
            return Duplicate("handoff", earlier)
        hop = (request.task_id, request.hop_index)
        owner = self._owners.get(hop)
        if owner is not None:
            return Duplicate("hop", owner) if owner.receiver == request.receiver else OwnerConflict(owner.receiver)
        if request.verdict == "rejected":
            return _NOTED
        holder = ClaimHolder(request.handoff_id, request.receiver, request.at)
        self._accepted[request.handoff_id] = holder
        self._owners[hop] = holder
        return _CLAIMED


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
