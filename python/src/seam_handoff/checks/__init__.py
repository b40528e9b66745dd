"""Every ingest rule of the runtime, one module per rule id (as src/runtime/checks/ in the
JavaScript runtime), in pipeline order: schema and JSON data, the envelope's own semantics, the
graph, the artefacts, the task ledger. A reason's rule is one of these ids (or a JSON Schema
keyword); each id has its module here, its catalogue entry (reasons.json) and its page
docs/rules/<id>.md. `_envelope_check` and `_accept` are the pipeline that calls them."""

from typing import Final

from . import (
    agent_version,
    approval_pending,
    artefact_unreadable,
    bad_hop_path,
    blocking_question,
    branch_late,
    branch_mismatch,
    branch_open,
    branch_unknown,
    budget_consumed_decreased,
    budget_counter_missing,
    budget_exhausted,
    budget_limit_raised,
    budget_overcommitted,
    confidence_below_floor,
    duplicate,
    guard_unmet,
    hop_limit_reached,
    hop_reset,
    hop_skipped,
    id_too_long,
    lease_held,
    max_rounds_exceeded,
    not_addressed_to_me,
    not_json_data,
    not_owner,
    owner_conflict,
    path_disagrees,
    role_mismatch,
    sender_mismatch,
    task_finished,
    unknown_edge,
    unpaired_surrogate,
    unreadable_envelope,
    untracked_task,
    version_major,
)
from ._rule import IngestRule, IngestStage, ingest_rule

__all__ = ["INGEST_RULES", "IngestRule", "IngestStage", "ingest_rule"]

INGEST_RULES: Final[tuple[IngestRule, ...]] = (
    unreadable_envelope.RULE,
    not_json_data.RULE,
    unpaired_surrogate.RULE,
    version_major.RULE,
    sender_mismatch.RULE,
    not_addressed_to_me.RULE,
    id_too_long.RULE,
    hop_limit_reached.RULE,
    budget_exhausted.RULE,
    budget_counter_missing.RULE,
    blocking_question.RULE,
    unknown_edge.RULE,
    role_mismatch.RULE,
    agent_version.RULE,
    bad_hop_path.RULE,
    max_rounds_exceeded.RULE,
    branch_mismatch.RULE,
    guard_unmet.RULE,
    confidence_below_floor.RULE,
    artefact_unreadable.RULE,
    untracked_task.RULE,
    duplicate.RULE,
    lease_held.RULE,
    owner_conflict.RULE,
    branch_unknown.RULE,
    branch_open.RULE,
    branch_late.RULE,
    not_owner.RULE,
    path_disagrees.RULE,
    hop_skipped.RULE,
    hop_reset.RULE,
    budget_limit_raised.RULE,
    budget_consumed_decreased.RULE,
    budget_overcommitted.RULE,
    approval_pending.RULE,
    task_finished.RULE,
)
"""The ingest rules, in the order the pipeline runs them."""
