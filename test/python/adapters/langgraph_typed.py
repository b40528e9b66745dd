"""A LangGraph service as a team writes it under mypy --strict: every adapter node and path
function handed to StateGraph, sync and async. Only type-checked (adapters.test.ts), never run."""

from typing import Any, TypedDict

import refund_desk_validators as desk
from langgraph.graph import END, START, StateGraph
from seam_handoff.adapters.langgraph import (
    check_node,
    check_node_async,
    guard_node,
    guard_node_async,
    route_on_verdict,
)


class State(TypedDict, total=False):
    envelope: dict[str, Any]
    producer: str
    seam_verdict: dict[str, Any]


def billing(state: State) -> dict[str, Any]:
    return {}


seen = desk.create_memory_seen_store()
builder = StateGraph(State)
builder.add_node(
    "guard",
    guard_node(desk.accept, me="billing", goto={"proceed": "billing"}, seen=seen),
)
builder.add_node(
    "check", check_node(desk.accept, me="billing", sender_key="producer", seen=seen)
)
builder.add_node(
    "guard_async",
    guard_node_async(desk.accept_async, me="billing", goto={"proceed": "billing"}),
)
builder.add_node("check_async", check_node_async(desk.accept_async, me="billing"))
builder.add_node("billing", billing)
builder.add_edge(START, "guard")
builder.add_conditional_edges("check", route_on_verdict())
builder.add_edge("billing", END)
