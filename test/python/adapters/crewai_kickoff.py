"""Runs whole crews with Crew.kickoff(), each agent on a deterministic local model (a BaseLLM
subclass that replies from a script: no network, no LLM), with DelegationGuard registered: the
triage lead delegates to the billing clerk through CrewAI's own "Delegate work to coworker" tool,
once with the valid envelope (the clerk runs, and its answer comes back), once with an envelope
whose hop path is wrong (the guard refuses it: the clerk never runs, and the lead reads why);
then the due-diligence example's join: each research analyst hands its findings to the research
lead, the first is held (the lead does not run; the analyst reads what the join waits for and
finishes), the second fires the join (the lead runs). argv[1] is the folder of
refund_desk_validators.py and the example's module, argv[2] the valid delegate envelope. Prints
JSON for test/python/adapters.test.ts."""

import copy
import json
import sys
from typing import Any

from crewai import Agent, BaseLLM, Crew, Task

sys.path.insert(0, sys.argv[1])
import fan_out  # noqa: E402
import refund_desk_validators as desk  # noqa: E402

from seam_handoff.adapters.crewai import DelegationGuard  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    ENVELOPE: dict[str, Any] = json.load(file)


class ScriptedLLM(BaseLLM):
    """A model that answers each call with the next reply of its script (ReAct text, as CrewAI
    parses it without function calling) and keeps the messages it was sent."""

    replies: list[str]
    calls: list[Any] = []

    def call(self, messages: Any, tools: Any = None, callbacks: Any = None, available_functions: Any = None, from_task: Any = None, from_agent: Any = None, response_model: Any = None) -> str:
        self.calls.append(messages)
        return self.replies.pop(0)

    def supports_function_calling(self) -> bool:
        return False


def text_of(messages: Any) -> str:
    return messages if isinstance(messages, str) else "\n".join(str(m.get("content", "")) for m in messages)


def kickoff(envelope: dict[str, Any], lead_closes: str) -> dict[str, Any]:
    delegation = json.dumps({"task": "Check whether order 7731 was charged twice", "context": json.dumps(envelope), "coworker": "Billing clerk"})
    lead_llm = ScriptedLLM(
        model="scripted-triage",
        replies=[f"Thought: billing must check the ledger\nAction: Delegate work to coworker\nAction Input: {delegation}", f"Thought: done\nFinal Answer: {lead_closes}"],
    )
    clerk_llm = ScriptedLLM(model="scripted-billing", replies=["Thought: the ledger shows one charge\nFinal Answer: order 7731 was charged once"])
    lead = Agent(role="Triage lead", goal="route refund requests", backstory="front desk", allow_delegation=True, llm=lead_llm)
    clerk = Agent(role="Billing clerk", goal="check the ledger", backstory="ledger", llm=clerk_llm)
    task = Task(description="Was order 7731 charged twice?", expected_output="yes or no, with the ledger's evidence", agent=lead)
    result = Crew(agents=[lead, clerk], tasks=[task]).kickoff()
    # What the lead read back from the delegation tool: the clerk's answer, or the guard's word.
    observed = text_of(lead_llm.calls[1]) if len(lead_llm.calls) > 1 else ""
    return {
        "output": result.raw,
        "clerk_calls": len(clerk_llm.calls),
        "lead_calls": len(lead_llm.calls),
        "lead_read_clerk": "order 7731 was charged once" in observed,
        "lead_read_guard": next((line for line in observed.splitlines() if "Seam: " in line), None),
    }


guard = DelegationGuard(desk.accept, graph=desk.GRAPH, agents={"Triage lead": "triage", "Billing clerk": "billing"}, seen=desk.create_memory_seen_store())
guard.register()
out: dict[str, Any] = {"valid": kickoff(copy.deepcopy(ENVELOPE), "order 7731 was charged once")}
bad = copy.deepcopy(ENVELOPE)
bad["hop"]["path"] = ["billing", "billing"]
bad["handoff_id"] = "5e8a1c2d-3b4f-4a6e-9c7d-1f2e3d4c5b6a"
bad["task_id"] = "refund-2026-11-0043"
out["refused"] = kickoff(bad, "sent back to triage for repair")
out["verdicts"] = [verdict.to_dict()["ok"] for verdict in guard.verdicts]
out["rules"] = [[] if verdict.ok else [reason.rule for reason in verdict.rejection.reasons] for verdict in guard.verdicts]
guard.unregister()


def join_kickoffs() -> list[dict[str, Any]]:
    seen = fan_out.dd.create_memory_seen_store()
    join_guard = DelegationGuard(fan_out.dd.accept, graph=fan_out.dd.GRAPH, agents={"Research lead": "lead", "Sanctions analyst": "sanctions", "Media analyst": "media"}, seen=seen)
    join_guard.register()
    runs = []
    for worker, envelope in zip(("sanctions", "media"), fan_out.open_branches(seen)):
        handing = json.dumps({"task": "Write the due-diligence memo", "context": json.dumps(envelope), "coworker": "Research lead"})
        analyst_llm = ScriptedLLM(model=f"scripted-{worker}", replies=[f"Thought: the lead needs my findings\nAction: Delegate work to coworker\nAction Input: {handing}", "Thought: done\nFinal Answer: findings handed to the lead"])
        lead_llm = ScriptedLLM(model="scripted-lead", replies=["Thought: both screenings are in\nFinal Answer: memo drafted"])
        analyst = Agent(role=f"{worker.title()} analyst", goal="screen Acme Holdings", backstory="research", allow_delegation=True, llm=analyst_llm)
        lead = Agent(role="Research lead", goal="write the memo", backstory="due diligence", llm=lead_llm)
        task = Task(description=f"Screen Acme Holdings for {worker} and hand the findings to the lead", expected_output="what the lead was given", agent=analyst)
        result = Crew(agents=[analyst, lead], tasks=[task]).kickoff()
        observed = text_of(analyst_llm.calls[1]) if len(analyst_llm.calls) > 1 else ""
        verdict = join_guard.verdicts[-1]
        runs.append(
            {
                "output": result.raw,
                "route": verdict.record.route if verdict.ok else verdict.rejection.route,
                "lead_calls": len(lead_llm.calls),
                "analyst_read": next((line for line in observed.splitlines() if "Seam: " in line), None),
                "analyst_read_memo": "memo drafted" in observed,
            }
        )
    join_guard.unregister()
    return runs


out["join"] = join_kickoffs()
print(json.dumps(out))
