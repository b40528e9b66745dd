"""The runtime's version (PEP 440, MAJOR.MINOR.PATCH), released together with the npm package
`seam-handoff` whose `seam compile --target python` writes modules for it, and which build of it
this is."""

import importlib.machinery

__version__ = "0.1.0"


def is_compiled() -> bool:
    """True for the compiled build (docs/python.md, "The compiled build": its ingest modules are
    extension modules mypyc made), False for the pure-Python source. Raises nothing."""
    # This module is one of those the compiled build compiles (python/pyproject.toml).
    return __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
