"""Adapters that put a graph module's ingest check where an agent framework hands work over:
`seam_handoff.adapters.langgraph` (a node that checks the envelope in the state and routes on
the verdict), `seam_handoff.adapters.openai_agents` (an Agents SDK handoff whose input is an
edge's envelope) and `seam_handoff.adapters.crewai` (a guard on CrewAI's delegation tool).

Each imports its framework only when it is used, so this package needs none of them installed;
the extras `seam-handoff[langgraph]`, `[openai-agents]` and `[crewai]` pin the tested releases.
"""

from ._verdict import Verdict, VerdictRoute, verdict_route

__all__ = ["Verdict", "VerdictRoute", "verdict_route"]
