"""The runtime's version (PEP 440, MAJOR.MINOR.PATCH), released together with the npm package
`seam-handoff` whose `seam compile --target python` writes modules for it."""

__version__ = "0.1.0"
