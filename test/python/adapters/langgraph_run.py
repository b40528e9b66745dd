"""Runs seam_handoff.adapters.langgraph inside real LangGraph graphs (plain function nodes, no
model): argv[1] is the folder of refund_desk_validators.py (and of the due-diligence example's
module, for a join), argv[2] the valid delegate envelope. Prints what each run did, as JSON, for
test/python/adapters.test.ts to assert on."""

import asyncio
import copy
import json
import sys
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

sys.path.insert(0, sys.argv[1])
import refund_desk_validators as desk  # noqa: E402

import fan_out  # noqa: E402
from seam_handoff.adapters.langgraph import check_node, guard_node, guard_node_async, route_on_verdict, verdict_path_map  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    ENVELOPE: dict[str, Any] = json.load(file)


class State(TypedDict, total=False):
    envelope: dict[str, Any]
    seam_verdict: dict[str, Any]
    visited: list[str]


def visit(name: str):  # type: ignore[no-untyped-def]
    def node(state: State) -> dict[str, Any]:
        return {"visited": [*state.get("visited", []), name]}

    return node


def summary(state: dict[str, Any]) -> dict[str, Any]:
    verdict = state["seam_verdict"]
    route = verdict["record"]["route"] if verdict["ok"] else verdict["rejection"]["route"]
    rules = [] if verdict["ok"] else [reason["rule"] for reason in verdict["rejection"]["reasons"]]
    return {"ok": verdict["ok"], "route": route, "rules": rules, "visited": state.get("visited", [])}


def command_graph(seen: object) -> Any:
    builder = StateGraph(State)
    builder.add_node("ingest", guard_node(desk.accept, me="billing", goto={"proceed": "billing", "repair": "send_back"}, seen=seen))
    builder.add_node("billing", visit("billing"))
    builder.add_node("send_back", visit("send_back"))
    builder.add_edge(START, "ingest")
    builder.add_edge("billing", END)
    builder.add_edge("send_back", END)
    return builder.compile()


def conditional_graph() -> Any:
    builder = StateGraph(State)
    builder.add_node("check", check_node(desk.accept, me="billing"))
    builder.add_node("billing", visit("billing"))
    builder.add_node("send_back", visit("send_back"))
    builder.add_edge(START, "check")
    builder.add_conditional_edges("check", route_on_verdict(), {"proceed": "billing", "repair": "send_back"})
    builder.add_edge("billing", END)
    builder.add_edge("send_back", END)
    return builder.compile()


async def async_run(envelope: dict[str, Any]) -> dict[str, Any]:
    builder = StateGraph(State)
    seen = desk.create_memory_seen_store()
    builder.add_node("ingest", guard_node_async(desk.accept_async, me="billing", goto={"proceed": "billing"}, seen=seen))
    builder.add_node("billing", visit("billing"))
    builder.add_edge(START, "ingest")
    builder.add_edge("billing", END)
    graph = builder.compile()
    return summary(await graph.ainvoke({"envelope": envelope}))


bad = copy.deepcopy(ENVELOPE)
bad["hop"]["path"] = ["billing", "billing"]
bad["handoff_id"] = "5e8a1c2d-3b4f-4a6e-9c7d-1f2e3d4c5b6a"
bad["task_id"] = "refund-2026-11-0043"
seen = desk.create_memory_seen_store()
graph = command_graph(seen)
out = {
    "command_valid": summary(graph.invoke({"envelope": copy.deepcopy(ENVELOPE)})),
    "command_again": summary(graph.invoke({"envelope": copy.deepcopy(ENVELOPE)})),
    "command_bad": summary(graph.invoke({"envelope": bad})),
    "conditional_valid": summary(conditional_graph().invoke({"envelope": copy.deepcopy(ENVELOPE)})),
    "conditional_bad": summary(conditional_graph().invoke({"envelope": bad})),
    "async_valid": asyncio.run(async_run(copy.deepcopy(ENVELOPE))),
}


def join_graph(seen: object, shape: str) -> Any:
    """The lead, a join: its node runs only on the arrival that fires the join."""
    builder = StateGraph(State)
    if shape == "command":
        builder.add_node("ingest", guard_node(fan_out.dd.accept, me="lead", goto={"proceed": "lead", "repair": "send_back"}, seen=seen))
    else:
        builder.add_node("ingest", check_node(fan_out.dd.accept, me="lead", seen=seen))
        builder.add_conditional_edges("ingest", route_on_verdict(), verdict_path_map({"proceed": "lead", "repair": "send_back"}))
    builder.add_node("lead", visit("lead"))
    builder.add_node("send_back", visit("send_back"))
    builder.add_edge(START, "ingest")
    builder.add_edge("lead", END)
    builder.add_edge("send_back", END)
    return builder.compile()


def join_runs(shape: str) -> list[dict[str, Any]]:
    seen = fan_out.dd.create_memory_seen_store()
    sanctions, media = fan_out.open_branches(seen)
    graph = join_graph(seen, shape)
    runs = []
    for envelope in (sanctions, media):
        state = graph.invoke({"envelope": envelope})
        join = state["seam_verdict"]["record"]["join"]
        runs.append({**summary(state), "waiting": join["waiting"], "fired": join["fired"]})
    return runs


out["join_command"] = join_runs("command")
out["join_conditional"] = join_runs("conditional")
out["path_map"] = verdict_path_map({"proceed": "billing", "held": "wait"})
# A plain path_map that leaves held out fails in LangGraph at the held arrival.
plain = StateGraph(State)
plain_seen = fan_out.dd.create_memory_seen_store()
plain.add_node("ingest", check_node(fan_out.dd.accept, me="lead", seen=plain_seen))
plain.add_node("lead", visit("lead"))
plain.add_conditional_edges("ingest", route_on_verdict(), {"proceed": "lead"})
plain.add_edge(START, "ingest")
plain.add_edge("lead", END)
try:
    plain.compile().invoke({"envelope": fan_out.open_branches(plain_seen)[0]})
except Exception as error:
    out["plain_path_map"] = type(error).__name__
try:
    guard_node(desk.accept, me="billing", goto={"procede": "billing"})
except TypeError as error:
    out["misspelt_goto"] = str(error)
print(json.dumps(out))
