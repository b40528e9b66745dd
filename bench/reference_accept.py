"""Python reference for the runtime bench: the ingest check ("validate at the
boundary, and fail loudly"), written here from its description, so Seam's accept() has the
baseline a team would otherwise deploy.

The check: validate against the envelope schema with jsonschema's Draft202012Validator,
collecting every error; only when the structure is sound, the semantic checks (major version,
addressed to me, hop index below limit, budget counters below limits, required artefacts
readable, no blocking open question). Like the seed, no format checker is attached, so
`uuid`/`date-time`/`uri` are not checked here: that makes this peer faster, not slower.

Timed inside Python over already-parsed envelopes (start-up and JSON loading excluded).

usage: reference_accept.py SCHEMA_JSON ENVELOPES_JSON ME BATCHES
prints one JSON document: ns per accept for each batch, and how many were accepted.
"""
import json
import sys
import time

from jsonschema import Draft202012Validator

SUPPORTED_MAJOR = 1


def make_accept(schema):
    validator = Draft202012Validator(schema)

    def accept(envelope, me, can_read):
        """Returns the list of reasons to refuse the envelope; empty means accepted."""
        reasons = [
            "/" + "/".join(str(p) for p in error.absolute_path) + ": " + error.message
            for error in validator.iter_errors(envelope)
        ]
        if reasons:
            return reasons
        major = int(envelope["envelope_version"].split(".", 1)[0])
        if major != SUPPORTED_MAJOR:
            reasons.append(f"/envelope_version: major {major} is not {SUPPORTED_MAJOR}")
        if envelope["to_agent"]["id"] != me:
            reasons.append("/to_agent/id: addressed to another agent")
        hop = envelope["hop"]
        if hop["index"] >= hop["limit"]:
            reasons.append(f"/hop/index: {hop['index']} reaches the limit {hop['limit']}")
        caps = envelope["budget"]["limit"]
        for counter, spent in envelope["budget"]["consumed"].items():
            cap = caps.get(counter)
            if cap is not None and spent >= cap:
                reasons.append(f"/budget/consumed/{counter}: at or over its limit")
        for artefact in envelope.get("artefacts", []):
            if artefact["role"] == "required" and not can_read(artefact["ref"], artefact.get("read_scope")):
                reasons.append(f"/artefacts: cannot read required {artefact['ref']}")
        blocking = [q["question"] for q in envelope.get("open_questions", []) if q["blocking"]]
        if blocking:
            reasons.append("/open_questions: unresolved blocking question: " + "; ".join(blocking))
        return reasons

    return accept


def main():
    schema_path, envelopes_path, me, batches = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(schema_path, encoding="utf-8") as fh:
        accept = make_accept(json.load(fh))
    with open(envelopes_path, encoding="utf-8") as fh:
        envelopes = json.load(fh)
    can_read = lambda ref, scope: True  # every artefact readable, as in the Seam run
    accepted = sum(1 for e in envelopes if not accept(e, me, can_read))  # warm-up and check
    per_batch = []
    for _ in range(batches):
        start = time.perf_counter_ns()
        for envelope in envelopes:
            accept(envelope, me, can_read)
        per_batch.append((time.perf_counter_ns() - start) / len(envelopes))
    print(json.dumps({"ns_per_op": per_batch, "accepted": accepted, "total": len(envelopes)}))


if __name__ == "__main__":
    main()
