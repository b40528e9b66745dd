"""Runs seam_handoff.adapters.crewai through CrewAI's own tool-hook dispatch: the guard is
registered as a before_tool_call hook and CrewAI's run_before_tool_call_hooks decides, for its
real DelegateWorkTool, whether the delegation may run, and its run_after_tool_call_hooks what
the delegating agent reads when it may not. argv[1] is the folder of refund_desk_validators.py
(and the due-diligence example's, for a join), argv[2] the valid delegate envelope. Prints JSON
for test/python/adapters.test.ts."""

import copy
import json
import sys
from typing import Any

from crewai import Agent
from crewai.hooks import ToolCallHookContext
from crewai.hooks.tool_hooks import run_after_tool_call_hooks, run_before_tool_call_hooks
from crewai.tools.agent_tools.agent_tools import AgentTools

sys.path.insert(0, sys.argv[1])
import fan_out  # noqa: E402
import refund_desk_validators as desk  # noqa: E402

from seam_handoff.adapters.crewai import DelegationGuard  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    ENVELOPE: dict[str, Any] = json.load(file)

triage = Agent(role="Triage lead", goal="route refund requests", backstory="front desk", allow_delegation=True, llm="gpt-4o-mini")
billing = Agent(role="Billing clerk", goal="check the ledger", backstory="ledger", llm="gpt-4o-mini")
delegate, ask = AgentTools(agents=[billing]).tools()
guard = DelegationGuard(desk.accept, graph=desk.GRAPH, agents={"Triage lead": "triage", "Billing clerk": "billing"}, seen=desk.create_memory_seen_store())
guard.register()


def blocked(tool: Any, tool_input: dict[str, Any]) -> bool:
    name = "delegate_work_to_coworker" if tool is delegate else "ask_question_to_coworker"
    return run_before_tool_call_hooks(ToolCallHookContext(tool_name=name, tool_input=tool_input, tool=tool, agent=triage))


def rules() -> list[str]:
    last = guard.verdicts[-1]
    return [] if last.ok else [reason.rule for reason in last.rejection.reasons]


out: dict[str, Any] = {}
out["valid_blocked"] = blocked(delegate, {"task": "check order 7731", "context": json.dumps(ENVELOPE), "coworker": "billing  CLERK"})
out["valid_rules"] = rules()
out["replay_blocked"] = blocked(delegate, {"task": "check order 7731", "context": json.dumps(ENVELOPE), "coworker": "Billing clerk"})
out["replay_rules"] = rules()
twice = json.dumps(ENVELOPE)[:-1] + ', "task_id": "other"}'
out["duplicate_key_blocked"] = blocked(ask, {"question": "charged twice?", "context": twice, "coworker": "Billing clerk"})
out["duplicate_key_rules"] = rules()
wrong = copy.deepcopy(ENVELOPE)
wrong["handoff_id"] = "7d0e6a52-1c4b-4f3e-8a9d-5b2c6e1f0a47"
out["stranger_blocked"] = blocked(delegate, {"task": "t", "context": json.dumps(wrong), "coworker": "Auditor"})
out["stranger_messages"] = [reason.message for reason in guard.verdicts[-1].rejection.reasons] if not guard.verdicts[-1].ok else []
blocked_result = "Tool execution blocked by hook. Tool: Delegate work to coworker"
replay = {"task": "check order 7731", "context": json.dumps(ENVELOPE), "coworker": "Billing clerk"}
run_before_tool_call_hooks(ToolCallHookContext(tool_name="delegate_work_to_coworker", tool_input=replay, tool=delegate, agent=triage))
after = ToolCallHookContext(tool_name="delegate_work_to_coworker", tool_input=replay, tool=delegate, agent=triage, tool_result=blocked_result)
out["refused_result"] = run_after_tool_call_hooks(after)
out["checked"] = len(guard.verdicts)
guard.unregister()

# A join: the research analysts hand their findings to the lead, who waits for both.
lead = Agent(role="Research lead", goal="write the memo", backstory="due diligence", llm="gpt-4o-mini")
analysts = {worker: Agent(role=f"{worker.title()} analyst", goal="screen", backstory="research", allow_delegation=True, llm="gpt-4o-mini") for worker in ("sanctions", "media")}
to_lead = AgentTools(agents=[lead]).tools()[0]
join_seen = fan_out.dd.create_memory_seen_store()
join_guard = DelegationGuard(fan_out.dd.accept, graph=fan_out.dd.GRAPH, agents={"Research lead": "lead", "Sanctions analyst": "sanctions", "Media analyst": "media"}, seen=join_seen)
join_guard.register()
out["join"] = []
for worker, envelope in zip(("sanctions", "media"), fan_out.open_branches(join_seen)):
    tool_input = {"task": "write the memo", "context": json.dumps(envelope), "coworker": "Research lead"}
    before = ToolCallHookContext(tool_name="delegate_work_to_coworker", tool_input=tool_input, tool=to_lead, agent=analysts[worker])
    was_blocked = run_before_tool_call_hooks(before)
    result = run_after_tool_call_hooks(ToolCallHookContext(tool_name="delegate_work_to_coworker", tool_input=tool_input, tool=to_lead, agent=analysts[worker], tool_result=blocked_result if was_blocked else "the memo"))
    verdict = join_guard.verdicts[-1]
    out["join"].append({"blocked": was_blocked, "ok": verdict.ok, "route": verdict.record.route if verdict.ok else verdict.rejection.route, "result": result})
join_guard.unregister()
out["after_unregister_blocked"] = blocked(delegate, {"task": "t", "context": "not json", "coworker": "Billing clerk"})
print(json.dumps(out))
