"""Python target bench: the emitted module's accept() beside jsonschema and fastjsonschema.

usage: python_accept.py MODULE_PY EDGE_SCHEMA_JSON ENVELOPES_JSON FROM KIND TO ROUNDS [FLOOD_JSON FLOOD_ROUNDS]
prints one JSON document: ns per envelope of each timed batch, by measure; the interpreter's
version; and whether the runtime seam_handoff it imported is the compiled build
(seam_handoff.is_compiled()). With FLOOD_JSON (a hostile envelope, bench/flood.mjs), also
"flood": ns per check of accept() without a store and of the edge validator alone on it,
FLOOD_ROUNDS interleaved rounds after one warm-up round.

Measures, on the same envelopes (parsed already; start-up and JSON loading excluded), batches
interleaved round by round after two warm-up rounds, so load on the machine hits all alike:
- accept: the module's accept(envelope, me=ME, can_read=..., seen=<a fresh MemorySeenStore per batch>)
- accept_no_store: accept() without duplicate memory
- edge_validator: the module's generated validator of the edge's contract alone (every error),
  found through the module's EDGES table (the edge FROM -KIND-> TO)
- fastjsonschema: fastjsonschema.compile(edge schema) (stops at the first error; pinned in
  python/requirements-bench.txt; it knows draft 7, so "uuid" is given as ajv-formats' pattern)
- jsonschema: Draft202012Validator(edge schema, format_checker=FormatChecker()), every error
  collected (list(iter_errors)); "uri" is checked through rfc3987 when it is installed
"""
import importlib
import json
import os
import sys
import time

import fastjsonschema
from jsonschema import Draft202012Validator, FormatChecker

UUID = r"^(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\Z"


def load(path):
    # The module imports the runtime package seam_handoff, vendored beside it (--vendor-runtime).
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    return importlib.import_module(os.path.basename(path)[: -len(".py")])


def main():
    module_path, schema_path, envelopes_path, source, kind, me, rounds = sys.argv[1:8]
    m = load(module_path)
    edge = next((e for e in m.EDGES if (e.from_agent, e.kind, e.to_agent) == (source, kind, me)), None)
    if edge is None:
        sys.exit(f"the module has no edge {source} -{kind}-> {me} in EDGES")
    # Validators are named by edge: validate_<kind>__<from>__<to>, ids escaped as the generator does.
    escape = lambda text: "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}x" for c in text)  # noqa: E731
    validator_name = f"validate_{edge.kind}__{escape(edge.from_agent)}__{escape(edge.to_agent)}"
    with open(schema_path, encoding="utf-8") as fh:
        schema = json.load(fh)
    with open(envelopes_path, encoding="utf-8") as fh:
        envelopes = json.load(fh)
    can_read = lambda ref, scope: True  # noqa: E731 - every artefact readable, as in the JS bench
    fast = fastjsonschema.compile(schema, formats={"uuid": UUID})
    slow = Draft202012Validator(schema, format_checker=FormatChecker())
    edge_validator = getattr(m, validator_name)

    # The measures must take the paths they are named for: every envelope valid and accepted.
    store = m.create_memory_seen_store()
    refused = [m.accept(e, me=me, can_read=can_read, seen=store) for e in envelopes]
    refused = [r.rejection.reasons for r in refused if not r.ok]
    if refused:
        sys.exit(f"accept() refuses {len(refused)} bench envelopes: {refused[0]}")
    for envelope in envelopes[:50]:
        fast(envelope)
        if list(slow.iter_errors(envelope)) or edge_validator(envelope):
            sys.exit("a peer refuses a bench envelope")

    state = {"seen": None}
    measures = {
        "accept": (lambda e: m.accept(e, me=me, can_read=can_read, seen=state["seen"]), len(envelopes)),
        "accept_no_store": (lambda e: m.accept(e, me=me, can_read=can_read), len(envelopes)),
        "edge_validator": (edge_validator, len(envelopes)),
        "fastjsonschema": (fast, len(envelopes)),
        "jsonschema": (lambda e: list(slow.iter_errors(e)), max(1, len(envelopes) // 10)),
    }
    results = {name: [] for name in measures}
    for round_number in range(2 + int(rounds)):
        for name, (op, count) in measures.items():
            state["seen"] = m.create_memory_seen_store()
            batch = envelopes[:count]
            start = time.perf_counter_ns()
            for envelope in batch:
                op(envelope)
            elapsed = (time.perf_counter_ns() - start) / count
            if round_number >= 2:
                results[name].append(elapsed)
    compiled = importlib.import_module("seam_handoff").is_compiled()
    answer = {"ns_per_op": results, "python": sys.version.split()[0], "envelopes": len(envelopes), "compiled": compiled}
    if len(sys.argv) > 9:
        answer["flood"] = flood(m, me, can_read, edge_validator, sys.argv[8], int(sys.argv[9]))
    print(json.dumps(answer))


def flood(m, me, can_read, edge_validator, path, rounds):
    """ns per check of accept() and of the edge validator on the hostile envelope at path."""
    with open(path, encoding="utf-8") as fh:
        envelope = json.load(fh)
    verdict = m.accept(envelope, me=me, can_read=can_read)
    distinct = {(e.instance_path, e.params.get("missingProperty")) for e in edge_validator(envelope) if e.keyword == "required"}
    expected = f"and {len(distinct) - 20} more required reasons"
    if verdict.ok or not any(r.message.startswith(expected) for r in verdict.rejection.reasons):
        sys.exit(f"the flooded envelope's verdict does not say {expected!r}")
    measures = {"accept": lambda: m.accept(envelope, me=me, can_read=can_read), "edge_validator": lambda: edge_validator(envelope)}
    results = {name: [] for name in measures}
    for round_number in range(1 + rounds):
        for name, op in measures.items():
            start = time.perf_counter_ns()
            op()
            if round_number >= 1:
                results[name].append(time.perf_counter_ns() - start)
    return {"ns_per_op": results, "decisions": len(envelope["decisions"])}


main()
