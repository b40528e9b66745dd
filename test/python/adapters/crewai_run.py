"""Runs seam_handoff.adapters.crewai through CrewAI's own tool-hook dispatch: the guard is
registered as a before_tool_call hook and CrewAI's run_before_tool_call_hooks decides, for its
real DelegateWorkTool, whether the delegation may run. argv[1] is the folder of
refund_desk_validators.py, argv[2] the valid delegate envelope. Prints JSON for
test/python/adapters.test.ts."""

import copy
import json
import sys
from typing import Any

from crewai import Agent
from crewai.hooks import ToolCallHookContext
from crewai.hooks.tool_hooks import run_before_tool_call_hooks
from crewai.tools.agent_tools.agent_tools import AgentTools

sys.path.insert(0, sys.argv[1])
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
out["checked"] = len(guard.verdicts)
guard.unregister()
out["after_unregister_blocked"] = blocked(delegate, {"task": "t", "context": "not json", "coworker": "Billing clerk"})
print(json.dumps(out))
