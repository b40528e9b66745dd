"""The due-diligence example's fan-out for the adapter scripts: the lead's two research branches
accepted into a store, and each branch's answer back to the lead, the join agent (the first
arrival is held, the second fires the join). The scripts import it from their own folder, the
compiled parallel_due_diligence_validators from argv[1]."""

from typing import Any

import parallel_due_diligence_validators as dd

GOAL: Any = {"statement": "Due diligence on Acme Holdings", "acceptance_criteria": ["sanctions and adverse media are both screened"]}


def budget(consumed: int) -> Any:
    return {"limit": {"tool_calls": 3}, "consumed": {"tool_calls": consumed}}


def open_branches(seen: object, task_id: str = "dd-acme-7") -> tuple[Any, Any]:
    """Delegates both branches of fan-out research and accepts them into seen; returns each branch's answer to the lead."""
    answers = []
    for worker in ("sanctions", "media"):
        envelope = dd.first_envelope(me="lead", to=worker, task_id=task_id, goal=GOAL, budget=budget(0), action=f"asks for {worker} research", constraints=["public sources only"])
        verdict = dd.accept(envelope, me=worker, seen=seen)
        assert verdict.ok, verdict.to_dict()
        finding = {"id": worker, "statement": f"no {worker} findings", "rationale": "checked against the public registers", "confidence": 0.9, "reversible": True}
        report = {"ref": f"artefact://dd/{worker}-report", "media_type": "application/pdf", "role": "supporting"}
        answers.append(dd.next_envelope(envelope, me=worker, to="lead", action=f"screened {worker}", status="ready", decisions=[finding], artefacts=[report], budget=budget(2)))
    return answers[0], answers[1]
