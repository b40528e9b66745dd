"""finish() and finish_async(): a terminal action ends a task in the ledger (the port of
src/runtime/finish.ts). Only the task's owner ends it; afterwards accept() refuses every handoff of
the task (task-finished)."""

import inspect
from collections.abc import Callable
from typing import Any, Final, NamedTuple, cast

from ._clock import IsoClock, read_clock
from ._join_refusal import join_refusal
from ._records import GraphInfo, TerminalInfo
from ._stores import (
    AlreadyFinished,
    BranchFinished,
    BranchOpen,
    FinishRequest,
    JoinStateRequest,
    JoinStateResult,
    NotOwner,
    TaskEnd,
    TaskFinished,
    exact_result,
)
from ._untrusted import quote_untrusted
from .checks.branch_open import branch_open_reason

_FINISH_RESULTS: Final[frozenset[type]] = frozenset((TaskFinished, BranchFinished, NotOwner, AlreadyFinished, BranchOpen))
_JOIN_STATE_RESULTS: Final[frozenset[type]] = frozenset((JoinStateResult,))


class EndRecord(NamedTuple):
    """How a task ended: task_id, the agent, its terminal and outcome, ended_at (ISO 8601, UTC)
    and the last accepted hop (None when the store had none; for a branch's end, the branch's last
    hop). branch: a branch's end (me owned a branch of the task's fan-out; the task goes on), else
    None. join: the join this end acted on (the join agent's policy terminal, or a branch's end
    that left the join too few branches), as the JavaScript runtime's record has it; else None."""

    task_id: str
    agent: str
    terminal: str
    outcome: str
    ended_at: str
    hop_index: int | None
    branch: str | None = None
    join: dict[str, object] | None = None

    def to_dict(self) -> dict[str, object]:
        """The record as the JavaScript runtime returns it."""
        return {
            "task_id": self.task_id,
            "agent": self.agent,
            "terminal": self.terminal,
            "outcome": self.outcome,
            "ended_at": self.ended_at,
            "hop_index": self.hop_index,
            **({} if self.branch is None else {"branch": self.branch}),
            **({} if self.join is None else {"join": self.join}),
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
    missing: tuple[str, ...] | None = None
    """branch-open: the branches the join still waits for."""

    def to_dict(self) -> dict[str, object]:
        """The verdict as the JavaScript runtime returns it: {"ok": true, "record"}, or {"ok": false,
        "rule", "message"} with "owner" (not-owner) or "record" (task-finished)."""
        if self.ok and self.record is not None:
            return {"ok": True, "record": self.record.to_dict()}
        if self.rule == "not-owner":
            return {"ok": False, "rule": self.rule, "message": self.message, "owner": self.owner}
        if self.rule == "branch-open":
            return {"ok": False, "rule": self.rule, "message": self.message, "missing": list(self.missing or ())}
        return {"ok": False, "rule": self.rule, "message": self.message, "record": None if self.record is None else self.record.to_dict()}


class JoinReport(NamedTuple):
    """join_state()'s answer: state "none" (no fan-out with a join, or the store does not know
    the task; the other fields empty), "waiting", "fired", "expired" or "failed" (given up on;
    acts is True for the one answer that acted on the policy); deadline ISO 8601 (UTC) or None."""

    state: str
    agent: str = ""
    policy: str = ""
    acts: bool = False
    arrived: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    ended: tuple[str, ...] = ()
    deadline: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The report as the JavaScript runtime returns it."""
        if self.state == "none":
            return {"state": "none"}
        return {
            "state": self.state,
            "agent": self.agent,
            "policy": self.policy,
            "acts": self.acts,
            "arrived": list(self.arrived),
            "missing": list(self.missing),
            "ended": list(self.ended),
            "deadline": self.deadline,
        }


class Finisher:
    """The terminal actions of one graph: terminals: each agent's declared terminals."""

    def __init__(self, graph: GraphInfo, terminals: dict[str, tuple[TerminalInfo, ...]], iso: IsoClock) -> None:
        self._graph = graph
        self._terminals = terminals
        self._entries = frozenset(graph.entries)
        self._entry_list = ", ".join(graph.entries)
        self._iso = iso

    def _request(
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
        at = read_clock(call, cast(Callable[[], object] | None, now))
        return FinishRequest(task_id, cast(str, me), declared.id, declared.outcome, at, me in self._entries)

    def _verdict(self, call: str, request: FinishRequest, result: object) -> FinishVerdict:
        task = quote_untrusted(request.task_id)
        result = exact_result(result, _FINISH_RESULTS)
        if isinstance(result, TaskFinished):
            join = None if result.join is None else join_refusal(result.join, self._iso)
            return FinishVerdict(True, self.end_record(request.task_id, result.ended)._replace(join=join))
        if isinstance(result, BranchFinished):
            join = None if result.join is None else join_refusal(result.join, self._iso)
            return FinishVerdict(True, self.end_record(request.task_id, result.ended)._replace(branch=result.branch, join=join))
        if isinstance(result, NotOwner):
            if result.owner is None:
                why = f"no hop of it was accepted, so it is still with the entry agent that took it in: only an entry agent ({self._entry_list}) may end it"
            else:
                why = f"{quote_untrusted(result.owner)} accepted its last hop ({result.last_hop}), so only it may end the task"
            message = f"{quote_untrusted(request.agent)} does not own task {task}: {why}"
            return FinishVerdict(False, None, "not-owner", message, result.owner)
        if isinstance(result, AlreadyFinished):
            record = self.end_record(request.task_id, result.ended)
            message = f"task {task} ended before, at {record.ended_at}: {quote_untrusted(record.agent)} took terminal {quote_untrusted(record.terminal)} ({record.outcome})"
            return FinishVerdict(False, record, "task-finished", message)
        if isinstance(result, BranchOpen):
            message = branch_open_reason(task, quote_untrusted(result.join), [quote_untrusted(branch) for branch in result.missing]).message
            return FinishVerdict(False, None, "branch-open", message, None, tuple(result.missing))
        raise TypeError(
            f"{call}(): seen.finish returned {type(result).__name__}, not TaskFinished, BranchFinished, NotOwner, AlreadyFinished or BranchOpen"
        )

    def _join_request(self, call: str, task_id: object, seen: object, now: object) -> JoinStateRequest:
        if not isinstance(task_id, str) or task_id == "":
            raise TypeError(f"{call}(): task_id must be the task_id of the task, a non-empty str")
        if seen is None or not callable(getattr(seen, "join_state", None)):
            raise TypeError(
                f"{call}(): seen must be the store accept() claims on, with a join_state(request) method, such as create_memory_seen_store()"
            )
        if now is not None and not callable(now):
            raise TypeError(f"{call}(): now must be a function returning seconds since the Unix epoch, or None")
        return JoinStateRequest(task_id, read_clock(call, cast(Callable[[], object] | None, now)))

    def _join_report(self, call: str, answer: object) -> JoinReport:
        answer = exact_result(answer, _JOIN_STATE_RESULTS)
        if not isinstance(answer, JoinStateResult):
            raise TypeError(f"{call}(): seen.join_state returned {type(answer).__name__}, not JoinStateResult")
        if answer.state == "none":
            return JoinReport("none")
        deadline = None if answer.deadline is None else self._iso(answer.deadline)
        return JoinReport(answer.state, answer.join, answer.policy, answer.acts, answer.arrived, answer.missing, answer.ended, deadline)

    def join_state(self, task_id: object, seen: object, now: object) -> JoinReport:
        """See the generated module's join_state()."""
        request = self._join_request("join_state", task_id, seen, now)
        answer = cast(Any, seen).join_state(request)
        if inspect.isawaitable(answer):
            if inspect.iscoroutine(answer):
                answer.close()
            raise TypeError("join_state(): seen.join_state returned an awaitable: use join_state_async with an asynchronous store")
        return self._join_report("join_state", answer)

    async def join_state_async(self, task_id: object, seen: object, now: object) -> JoinReport:
        """See the generated module's join_state_async()."""
        request = self._join_request("join_state_async", task_id, seen, now)
        answer = cast(Any, seen).join_state(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return self._join_report("join_state_async", answer)

    def end_record(self, task_id: str, ended: TaskEnd) -> EndRecord:
        """The EndRecord of the store's TaskEnd."""
        return EndRecord(task_id, ended.agent, ended.terminal, ended.outcome, self._iso(ended.at), ended.hop_index)

    def finish(self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object) -> FinishVerdict:
        """See the generated module's finish()."""
        request = self._request("finish", task_id, me, terminal, outcome, seen, now)
        answer = cast(Any, seen).finish(request)
        if inspect.isawaitable(answer):
            if inspect.iscoroutine(answer):
                answer.close()
            raise TypeError("finish(): seen.finish returned an awaitable: use finish_async with an asynchronous store")
        return self._verdict("finish", request, answer)

    async def finish_async(
        self, task_id: object, me: object, terminal: object, outcome: object, seen: object, now: object
    ) -> FinishVerdict:
        """See the generated module's finish_async()."""
        request = self._request("finish_async", task_id, me, terminal, outcome, seen, now)
        answer = cast(Any, seen).finish(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return self._verdict("finish_async", request, answer)
