"""Test driver for emitted Python modules: one process answers a whole batch.

usage: python3 driver.py MODULE.py < request.json > answer.json
The request is {"op": ..., ...}; see answer() for the operations. JSON texts are parsed here
with json.loads, as a Python service would parse them.
"""
import json
import sys

from emitted import load
from seam_handoff import codegen, is_compiled
from seam_handoff._values import es_number


def error_name(error):
    return {"error": type(error).__name__}


def can_read(ref, scope):
    return "secret" not in ref


def ledger_state(value):
    """A memory store's whole state as plain values (slots objects opened up, named tuples kept).
    A class the compiled build made native lists its attributes in __mypyc_attrs__ instead."""
    slots = getattr(type(value), "__slots__", None) or getattr(type(value), "__mypyc_attrs__", None)
    if slots is not None and not isinstance(value, tuple):
        return {name: ledger_state(getattr(value, name)) for name in slots}
    if isinstance(value, dict):
        return [[key, ledger_state(item)] for key, item in value.items()]
    if isinstance(value, list):
        return [ledger_state(item) for item in value]
    return value


def answer(m, request):
    op = request["op"]
    if op == "validate":
        validators = [getattr(m, name) for name in request["validators"]]
        return [
            [[[e.instance_path, e.keyword, e.params] for e in validate(json.loads(text))] for validate in validators]
            for text in request["texts"]
        ]
    if op == "signature":
        out = []
        for text in request["texts"]:
            try:
                out.append(m.loop_signature(json.loads(text)))
            except (ValueError, TypeError) as error:
                out.append(error_name(error))
        return out
    if op == "canonical":
        out = []
        for text in request["texts"]:
            try:
                out.append(m.canonical_json(json.loads(text)))
            except (ValueError, TypeError) as error:
                out.append(error_name(error))
        return out
    if op == "numbers":
        return [es_number(float(value)) for value in json.loads(request["text"])]
    if op == "formats":
        # The checks exactly as generated validators write them inline.
        return [
            [
                codegen.UUID.match(s) is not None,
                codegen.DATE_TIME_COMMON.match(s) is not None or codegen.format_date_time(s),
                codegen.URI_COMMON.match(s) is not None or codegen.format_uri(s),
            ]
            for s in request["strings"]
        ]
    if op == "accept":
        seen = m.create_memory_seen_store(scope=request["scope"])
        detector = m.create_loop_detector()
        now = request["now"] / 1000
        out = []
        for delivery in request["deliveries"]:
            envelope = json.loads(delivery["text"])
            try:
                result = m.accept(envelope, me=delivery["me"], can_read=can_read, seen=seen, now=lambda: now)
            except TypeError:
                out.append({"error": "TypeError"})
                continue
            entry = {"result": result.to_dict()}
            if result.ok:
                try:
                    observation = detector.observe(envelope)
                    entry["loop"] = None if observation is None else observation.loop
                    entry["signature"] = m.loop_signature(envelope)
                except (ValueError, TypeError):
                    entry["signature"] = "error"
            out.append(entry)
        return out
    if op == "paths":
        # Each delivery through accept()'s shortcuts and through its general path (the store's
        # claim() for every claim), each on its own store: the verdicts, records and ledgers after
        # each delivery must be equal. Answers the deliveries where they differ.
        acceptor = m._ACCEPT
        store_type = type(m.create_memory_seen_store())
        shortcut = store_type._claim_new_task
        taken = []

        def counted(*args):
            answer = shortcut(*args)
            taken.append(answer is not None)
            return answer

        store_type._claim_new_task = counted
        stores = {fast: m.create_memory_seen_store(scope=request["scope"]) for fast in (True, False)}
        now = request["now"] / 1000
        differ = []
        for i, delivery in enumerate(request["deliveries"]):
            seen = []
            for fast in (True, False):
                acceptor._fast_claims = fast
                try:
                    envelope = json.loads(delivery["text"])
                    store = stores[fast]
                    result = m.accept(envelope, me=delivery["me"], can_read=can_read, seen=store, now=lambda: now)
                    # The task the delivery names, the handoffs and the write order after each
                    # delivery (the whole ledger each time would be quadratic), the whole every 200.
                    task_id = envelope.get("task_id") if isinstance(envelope, dict) else None
                    task = store._tasks.get(task_id) if isinstance(task_id, str) else None
                    whole = ledger_state(store) if i % 200 == 0 or i == len(request["deliveries"]) - 1 else None
                    seen.append([result.to_dict(), ledger_state(task), len(store._accepted), store._newest, whole])
                except TypeError as error:
                    seen.append(str(error))
            acceptor._fast_claims = True
            if seen[0] != seen[1]:
                differ.append({"i": i, "fast": repr(seen[0]), "general": repr(seen[1])})
        store_type._claim_new_task = shortcut
        # Compiled code calls a native class's method directly, past the counting wrapper.
        return {"compared": len(request["deliveries"]), "shortcuts": None if is_compiled() else sum(taken), "differ": differ[:5]}
    if op == "ledger":
        # One graph-wide store; each step an accept() or a finish(), at its own time (ms).
        seen = m.create_memory_seen_store()
        out = []
        for step in request["steps"]:
            now = step["now"] / 1000
            if "finish" in step:
                f = step["finish"]
                verdict = m.finish(f["task"], me=f["me"], terminal=f["terminal"], outcome=f["outcome"], seen=seen, now=lambda: now)
                record = None if verdict.record is None else verdict.record.to_dict()
                out.append({"ok": verdict.ok, "rule": verdict.rule, "message": verdict.message, "owner": verdict.owner, "record": record})
            else:
                out.append(m.accept(step["envelope"], me=step["me"], seen=seen, now=lambda: now).to_dict())
        return out
    raise ValueError(f"unknown op {op}")


def main():
    module = load(sys.argv[1])
    request = json.load(sys.stdin)
    json.dump(answer(module, request), sys.stdout)


main()
