/**
 * Python runtime, part 4: the duplicate and ownership memory `accept()` consults (a Protocol and
 * an in-memory implementation) and the loop detector over loop signatures.
 */

/** Python source; spliced verbatim into every emitted module. */
export const STORES_SOURCE = String.raw`
class SeenStore(Protocol):
    """Duplicate and ownership memory for accept(): the handoff ids accepted before (an
    idempotency token: a redelivery is recognised, not processed twice) and the receiver that
    owns each hop of each task (one owner at a time).

    A shared implementation (Redis, SQL) makes record() atomic (check the id, check the owner,
    write both in one step: a Lua script, or one transaction with primary keys on handoff_id and
    on (task_id, hop_index)) and lets keys expire with their tasks; has_handoff() and owner_of()
    are only the cheap early answer, record() is the authority.
    """

    def has_handoff(self, handoff_id: str) -> bool:
        """Whether a handoff with this handoff_id was recorded before."""
        ...

    def owner_of(self, task_id: str, hop_index: int) -> str | None:
        """The receiver recorded for hop hop_index of task task_id, if any."""
        ...

    def record(self, handoff_id: str, task_id: str, hop_index: int, receiver: str) -> RecordOutcome:
        """Records an accepted handoff atomically: "duplicate" (nothing written) when the id is
        known, "owner-conflict" (nothing written) when another receiver owns the hop, else
        "recorded"."""
        ...


class MemorySeenStore:
    """A SeenStore in this process's memory, for tests and single-process services. It never
    forgets: a long-running service should use a store with expiry."""

    __slots__ = ("_handoffs", "_owners")

    def __init__(self) -> None:
        self._handoffs: set[str] = set()
        self._owners: dict[tuple[str, int], str] = {}

    def has_handoff(self, handoff_id: str) -> bool:
        """Whether a handoff with this handoff_id was recorded before."""
        return handoff_id in self._handoffs

    def owner_of(self, task_id: str, hop_index: int) -> str | None:
        """The receiver recorded for hop hop_index of task task_id, if any."""
        return self._owners.get((task_id, hop_index))

    def record(self, handoff_id: str, task_id: str, hop_index: int, receiver: str) -> RecordOutcome:
        """See SeenStore.record."""
        if handoff_id in self._handoffs:
            return "duplicate"
        owner = self._owners.get((task_id, hop_index))
        if owner is not None and owner != receiver:
            return "owner-conflict"
        self._handoffs.add(handoff_id)
        self._owners[(task_id, hop_index)] = receiver
        return "recorded"


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
