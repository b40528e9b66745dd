"""An adapter whose framework is missing says how to install it (no framework needed here)."""

import pytest

from seam_handoff.adapters._verdict import load_framework
from seam_handoff.adapters.langgraph import verdict_path_map


def test_a_missing_framework_names_the_extra_and_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes the import fail as if langgraph were not installed.
    monkeypatch.setitem(__import__("sys").modules, "langgraph.graph", None)
    with pytest.raises(ImportError) as raised:
        verdict_path_map({"proceed": "billing"})
    assert str(raised.value) == (
        "langgraph.graph is not installed: install the seam-handoff[langgraph] extra"
        " (pip install './python[langgraph]' from a Seam checkout; the package is not yet published)"
    )


def test_an_installed_module_loads_quietly() -> None:
    import json

    assert load_framework("json", "langgraph") is json
