"""The loop detector's bounds: the JavaScript runtime's numbers, from the one catalogue (reasons.json)."""

import json
from importlib import resources

import pytest

from seam_handoff import LoopDetector


def _envelope(task: str, signature: str = "s") -> dict[str, object]:
    return {"task_id": task, "to_agent": {"id": "billing"}, "state": signature}


def _signature(envelope: object) -> str:
    return str(envelope["state"])  # type: ignore[index]


def test_the_defaults_are_the_catalogue_s() -> None:
    catalogue = json.loads(resources.files("seam_handoff").joinpath("reasons.json").read_text("utf-8"))
    assert (catalogue["loopMaxTasks"], catalogue["loopMaxSignaturesPerTask"]) == (10_000, 1024)
    detector = LoopDetector(_signature)
    for i in range(10_001):
        detector.observe(_envelope(f"task-{i}"))
    # Task 0, the least recently observed, was forgotten: its state again is no loop.
    assert detector.observe(_envelope("task-0")).loop is False  # type: ignore[union-attr]
    assert detector.observe(_envelope("task-10000")).loop is True  # type: ignore[union-attr]


def test_forgets_the_least_recently_observed_task_first() -> None:
    detector = LoopDetector(_signature, max_tasks=2)
    detector.observe(_envelope("a"))
    detector.observe(_envelope("b"))
    detector.observe(_envelope("a"))  # a is now the most recent
    detector.observe(_envelope("c"))  # b goes
    assert detector.observe(_envelope("a")).loop is True  # type: ignore[union-attr]
    assert detector.observe(_envelope("b")).loop is False  # type: ignore[union-attr]


def test_keeps_at_most_the_signatures_per_task_and_still_checks_them() -> None:
    detector = LoopDetector(_signature, max_signatures_per_task=2)
    for state in ("s1", "s2", "s3"):
        assert detector.observe(_envelope("t", state)).loop is False  # type: ignore[union-attr]
    assert detector.observe(_envelope("t", "s2")).loop is True  # type: ignore[union-attr]
    assert detector.observe(_envelope("t", "s3")).loop is False  # type: ignore[union-attr]


def test_a_bound_that_is_no_positive_whole_number_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"^LoopDetector: max_tasks must be a positive whole number, not 0$"):
        LoopDetector(_signature, max_tasks=0)
    with pytest.raises(TypeError, match=r"^LoopDetector: max_signatures_per_task must be a positive whole number, not True$"):
        LoopDetector(_signature, max_signatures_per_task=True)
