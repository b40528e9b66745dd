"""Runs seam_handoff.adapters.openai_agents inside the real OpenAI Agents SDK: Runner.run_sync
with the SDK's own ScriptedModel (no network, no LLM) standing in for the agents' models.
argv[1] is the folder of refund_desk_validators.py and refund_desk_models.py (and the
due-diligence example's, for a join), argv[2] the valid delegate envelope. Prints what each run
did, as JSON, for test/python/adapters.test.ts."""

import copy
import json
import sys
from typing import Any

from agents import Agent, Runner
from agents.exceptions import ModelBehaviorError
from agents.testing import ScriptedModel, assistant_message, function_call

sys.path.insert(0, sys.argv[1])
import fan_out  # noqa: E402
import parallel_due_diligence_models as dd_models  # noqa: E402
import refund_desk_models as models  # noqa: E402
import refund_desk_validators as desk  # noqa: E402

from seam_handoff import AcceptanceRecord  # noqa: E402
from seam_handoff.adapters.openai_agents import HandoffHeld, HandoffRefused, edge_handoff  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    ENVELOPE: dict[str, Any] = json.load(file)

TRIAGE_TO_BILLING = next(edge for edge in desk.EDGES if (edge.from_agent, edge.to_agent) == ("triage", "billing"))
seen = desk.create_memory_seen_store()
records: list[dict[str, object]] = []


def on_accepted(ctx: object, record: AcceptanceRecord) -> None:
    records.append(record.to_dict())


def run(arguments: dict[str, Any]) -> dict[str, Any]:
    billing = Agent(name="billing", model=ScriptedModel([[assistant_message("order 7731 was charged once")]]))
    handoff = edge_handoff(billing, TRIAGE_TO_BILLING, accept=desk.accept, models=models.EDGE_MODELS, seen=seen, now=lambda: 1_800_000_000.0, on_accepted=on_accepted)
    triage = Agent(
        name="triage",
        model=ScriptedModel([[function_call(handoff.tool_name, json.dumps(arguments), call_id="call-1")]]),
        handoffs=[handoff],
    )
    try:
        result = Runner.run_sync(triage, "Was order 7731 charged twice?")
    except HandoffRefused as refused:
        rejection = refused.verdict.rejection
        return {"refused": True, "route": rejection.route, "rules": [r.rule for r in rejection.reasons], "message": str(refused)}
    except ModelBehaviorError as error:
        return {"model_error": type(error).__name__}
    return {"refused": False, "last_agent": result.last_agent.name, "output": result.final_output}


def join_runs() -> dict[str, Any]:
    """Each research branch hands back to the lead, a join: the first is held, the second runs the lead once."""
    seen = fan_out.dd.create_memory_seen_store()
    answers = fan_out.open_branches(seen)
    lead_model = ScriptedModel([[assistant_message("memo drafted from both screenings")]])
    lead = Agent(name="lead", model=lead_model)
    accepted: list[str] = []
    runs: list[dict[str, Any]] = []
    for worker, envelope in zip(("sanctions", "media"), answers):
        edge = next(e for e in fan_out.dd.EDGES if (e.kind, e.from_agent, e.to_agent) == ("return", worker, "lead"))
        back = edge_handoff(lead, edge, accept=fan_out.dd.accept, models=dd_models.EDGE_MODELS, seen=seen, on_accepted=lambda ctx, record: accepted.append(record.route))
        agent = Agent(name=worker, model=ScriptedModel([[function_call(back.tool_name, json.dumps(envelope), call_id=f"call-{worker}")]]), handoffs=[back])
        try:
            result = Runner.run_sync(agent, "Screen Acme Holdings")
            runs.append({"held": False, "last_agent": result.last_agent.name, "output": result.final_output})
        except HandoffHeld as held:
            record = held.verdict.record
            runs.append({"held": True, "route": record.route, "waiting": (record.join or {}).get("waiting"), "message": str(held)})
    return {"runs": runs, "on_accepted": accepted, "lead_model_calls": len(lead_model.calls)}


schema = edge_handoff(Agent(name="billing"), TRIAGE_TO_BILLING, accept=desk.accept, models=models.EDGE_MODELS).input_json_schema
extra = copy.deepcopy(ENVELOPE)
extra["surprise"] = True
print(
    json.dumps(
        {
            "tool_schema": {"additionalProperties": schema.get("additionalProperties"), "required": sorted(schema["required"])},
            "valid": run(copy.deepcopy(ENVELOPE)),
            "records": records,
            "replayed": run(copy.deepcopy(ENVELOPE)),
            "extra_field": run(extra),
            "join": join_runs(),
        }
    )
)
