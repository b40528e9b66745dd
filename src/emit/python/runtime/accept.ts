/**
 * Python runtime, part 5: `accept()`, the ingest check, a line-for-line port of
 * `src/runtime/accept.ts` and `src/runtime/reason.ts` (same order of checks, same reasons and
 * messages, same routes), so both runtimes give the same answer for the same envelope.
 */

/** Python source; spliced verbatim into every emitted module. */
export const ACCEPT_SOURCE = String.raw`
_STATUS_ROUTES: Final[dict[str, Route]] = {
    "ready": "proceed",
    "partial": "proceed",
    "blocked": "human_input",
    "waiting_review": "approval",
    "failed": "failed",
}


def _ordinal(n: int) -> str:
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _append_pointer(pointer: str, token: str) -> str:
    return pointer + "/" + token.replace("~", "~0").replace("/", "~1")


def _quote(value: object) -> str:
    return _json_string(value) if isinstance(value, str) else _js_text(value)


def _kebab(keyword: str) -> str:
    return re.sub("[A-Z]", lambda match: "-" + match.group().lower(), keyword)


def schema_error_to_reason(error: SchemaError) -> Reason:
    """Turns a SchemaError into a Reason with the JavaScript runtime's rule id and wording."""
    keyword, params, path = error.keyword, error.params, error.instance_path
    if keyword == "required":
        name = _js_text(params.get("missingProperty"))
        return Reason(_append_pointer(path, name), "required", f"missing required field {_quote(name)}")
    if keyword == "additionalProperties":
        name = _js_text(params.get("additionalProperty"))
        return Reason(
            _append_pointer(path, name),
            "additional-property",
            f"unexpected field {_quote(name)}: the envelope is closed, add no fields of your own",
        )
    rule = _kebab(keyword)
    if keyword == "type":
        return Reason(path, rule, f"must be of type {_js_text(params.get('type'))} (values are never coerced)")
    if keyword == "enum":
        allowed = params.get("allowedValues")
        listed = ", ".join(_quote(value) for value in allowed) if isinstance(allowed, (list, tuple)) else ""
        return Reason(path, rule, f"must be one of {listed}")
    if keyword == "const":
        return Reason(path, rule, f"must be {_quote(params.get('allowedValue'))}")
    if keyword == "format":
        return Reason(path, rule, f"must be a valid {_js_text(params.get('format'))}")
    if keyword == "pattern":
        return Reason(path, rule, f"must match the pattern {_js_text(params.get('pattern'))}")
    if keyword in ("minimum", "maximum"):
        bound = "at least" if keyword == "minimum" else "at most"
        return Reason(path, rule, f"must be {bound} {_js_text(params.get('limit'))}")
    if keyword in ("minLength", "maxLength"):
        bound = "at least" if keyword == "minLength" else "at most"
        return Reason(path, rule, f"must have {bound} {_js_text(params.get('limit'))} characters")
    if keyword == "minItems":
        return Reason(path, rule, f"must have at least {_js_text(params.get('limit'))} items")
    return Reason(path, rule, f"fails the JSON Schema keyword {keyword}")


def _string_at(value: object, key: str) -> str | None:
    if isinstance(value, dict):
        found = value.get(key)
        if isinstance(found, str):
            return found
    return None


def _hop_index(value: object) -> int | None:
    """hop.index as the JavaScript runtime reads it: a non-negative integral number, as a double."""
    if type(value) is int and 0 <= value <= 9007199254740991:
        return value
    if value is True or value is False or not isinstance(value, (int, float)):
        return None
    number = _js_double(value)
    if not math.isfinite(number) or not number.is_integer() or number < 0:
        return None
    return int(number)


def _civil_from_days(days: int) -> tuple[int, int, int]:
    # Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def _epoch_ms(seconds: float) -> int:
    """Milliseconds since the Unix epoch, truncated toward zero as ECMAScript's TimeClip does (the
    1 microsecond nudge undoes float error in seconds * 1000 for times given to the millisecond).
    TypeError for a non-number, ValueError outside ECMAScript's +-8.64e15 ms."""
    if type(seconds) is float and 0.0 <= seconds <= 8.64e12:
        return int(seconds * 1000 + 0.001)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"now() must return seconds since the Unix epoch as a number, not {type(seconds).__name__}")
    if not math.isfinite(seconds) or abs(seconds) > 8.64e12:
        raise ValueError(f"now() returned {seconds!r}: outside the times an ISO 8601 record can hold")
    ms = seconds * 1000
    return math.floor(ms + 0.001) if ms >= 0 else -math.floor(0.001 - ms)


def _iso_time(ms: int) -> str:
    """Date.prototype.toISOString of a time in milliseconds since the Unix epoch (UTC)."""
    days, rest = divmod(ms, 86400000)
    year, month, day = _civil_from_days(days)
    hour, rest = divmod(rest, 3600000)
    minute, rest = divmod(rest, 60000)
    second, milli = divmod(rest, 1000)
    year_text = f"{year:04d}" if 0 <= year <= 9999 else ("+" if year > 0 else "-") + f"{abs(year):06d}"
    return f"{year_text}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"


def _message_of(error: BaseException) -> str:
    return str(error)


CanRead = Callable[[str, Optional[str]], bool]
"""can_read(ref, read_scope): whether this agent can dereference a required artefact."""
Validate = Callable[[object], list[SchemaError]]


class _Pair(NamedTuple):
    edges: tuple[EdgeInfo, ...]
    validators: tuple[Validate, ...]
    max_rounds: int | None


# What one evaluation found, in this order: handoff_id, task_id, hop_index, producer, reasons,
# lenient (the reasons may become warnings: an observe edge, a usable header, addressed to me),
# hop_limit_reached, the artefacts consumed, the constraints, the route. A plain tuple: it is
# built on every call.
_Evaluation = tuple[
    Optional[str], Optional[str], Optional[int], Optional[str], list[Reason], bool, bool, tuple[str, ...], tuple[str, ...], Route
]


class _Accept:
    """The ingest check of one graph; lookups are built once, a call allocates little more than its result."""

    def __init__(
        self,
        graph: GraphInfo,
        agents: tuple[AgentInfo, ...],
        edges: tuple[EdgeInfo, ...],
        validate_envelope: Validate,
        contracts: tuple[Validate, ...],
    ) -> None:
        self._graph = graph
        self._roles = {agent.id: agent.role for agent in agents}
        self._entries = frozenset(graph.entries)
        self._entry_list = ", ".join(graph.entries)
        self._validate_envelope = validate_envelope
        # accepted_at: formatting costs more than the rest of a call, and at high rates many calls
        # fall in the same millisecond. One tuple, replaced whole, so threads never see half of it.
        self._last_time: tuple[int, str] = (-1, "")
        grouped: dict[tuple[str, str], list[EdgeInfo]] = {}
        for edge in edges:
            grouped.setdefault((edge.from_agent, edge.to_agent), []).append(edge)
        self._pairs: dict[tuple[str, str], _Pair] = {}
        for key, group in grouped.items():
            bounded = all(edge.max_rounds is not None for edge in group)
            self._pairs[key] = _Pair(
                tuple(group),
                tuple(contracts[edge.contract] for edge in group),
                sum(edge.max_rounds or 0 for edge in group) if bounded else None,
            )

    def _check_hop_path(self, path: list[str], index: int, sender: str, receiver: str, reasons: list[Reason]) -> None:
        graph = self._graph
        n = len(path)
        if n != index + 1:
            reasons.append(
                Reason(
                    "/hop/path",
                    "bad-hop-path",
                    f"has {n} entries, but hop.index {index} needs {index + 1}: the first agent, then one per handoff",
                )
            )
        if n > 0 and path[0] not in self._entries:
            reasons.append(
                Reason("/hop/path/0", "bad-hop-path", f"starts at {path[0]}, which is not an entry of graph {graph.name} ({self._entry_list})")
            )
        if n < 2 or path[n - 2] != sender or path[n - 1] != receiver:
            reasons.append(Reason(f"/hop/path/{max(n - 1, 0)}", "bad-hop-path", f"does not end in this handoff, {sender} -> {receiver}"))
        counts: dict[tuple[str, str], int] = {}
        for i in range(1, n):
            step = (path[i - 1], path[i])
            pair = self._pairs.get(step)
            if pair is None:
                reasons.append(
                    Reason(f"/hop/path/{i}", "bad-hop-path", f"steps {step[0]} -> {step[1]}, which is not an edge of graph {graph.name}")
                )
            elif pair.max_rounds is not None:
                taken = counts.get(step, 0) + 1
                counts[step] = taken
                if taken == pair.max_rounds + 1:
                    reasons.append(
                        Reason(
                            f"/hop/path/{i}",
                            "max-rounds-exceeded",
                            f"takes {step[0]} -> {step[1]} for the {_ordinal(taken)} time, but max_rounds allows {pair.max_rounds}",
                        )
                    )

    def _semantic_checks(self, envelope: dict[str, Any], me: str, can_read: CanRead | None, reasons: list[Reason]) -> bool:
        # The schema passed: every field read below has the type the schema gives it.
        graph = self._graph
        version: str = envelope["envelope_version"]
        major = float(version[: version.index(".")])
        if major != graph.envelope[0]:
            reasons.append(
                Reason(
                    "/envelope_version",
                    "version-major",
                    f"major version {_js_text(major)} is not supported: graph {graph.name} speaks {graph.envelope[0]}.x",
                )
            )
        to_id = envelope["to_agent"]["id"]
        if to_id != me:
            reasons.append(Reason("/to_agent/id", "not-addressed-to-me", f"addressed to {to_id}, not to {me}"))
        hop = envelope["hop"]
        index, limit = hop["index"], hop["limit"]
        reached: bool = index >= limit
        if reached:
            action = "escalate to a human" if graph.on_hop_limit == "escalate" else "fail the task"
            reasons.append(
                Reason("/hop/index", "hop-limit-reached", f"hop {_js_text(index)} of a limit of {_js_text(limit)}: {action}, do not forward")
            )
        budget = envelope["budget"]
        caps = budget["limit"]
        for counter, spent in budget["consumed"].items():
            cap = caps.get(counter)
            if cap is not None and spent >= cap:
                reasons.append(
                    Reason(
                        f"/budget/consumed/{counter}",
                        "budget-exhausted",
                        f"{counter}: {_js_text(spent)} consumed of a limit of {_js_text(cap)}",
                    )
                )
        artefacts = envelope.get("artefacts")
        if can_read is not None and artefacts is not None:
            for i, artefact in enumerate(artefacts):
                if artefact["role"] != "required":
                    continue
                ref = artefact["ref"]
                why = ""
                try:
                    readable = can_read(ref, artefact.get("read_scope")) is True
                except Exception as error:  # a refusal by exception counts as "no"
                    readable = False
                    why = ": " + _message_of(error)
                if not readable:
                    reasons.append(Reason(f"/artefacts/{i}/ref", "artefact-unreadable", f"{me} cannot read required artefact {ref}{why}"))
        questions = envelope.get("open_questions")
        if questions is not None:
            for i, question in enumerate(questions):
                if question["blocking"] is True:
                    reasons.append(Reason(f"/open_questions/{i}/blocking", "blocking-question", f"unresolved: {question['question']}"))
        return reached

    def _graph_checks(self, envelope: dict[str, Any], sender: str, receiver: str, pair: _Pair | None, reasons: list[Reason]) -> None:
        graph = self._graph
        roles = self._roles
        if pair is None:
            if sender not in roles:
                reasons.append(Reason("/from_agent/id", "unknown-edge", f"graph {graph.name} has no agent {sender}"))
            elif receiver not in roles:
                reasons.append(Reason("/to_agent/id", "unknown-edge", f"graph {graph.name} has no agent {receiver}"))
            else:
                reasons.append(Reason("/to_agent/id", "unknown-edge", f"graph {graph.name} has no edge {sender} -> {receiver}"))
            return
        from_role = envelope["from_agent"]["role"]
        to_role = envelope["to_agent"]["role"]
        if from_role != roles[sender]:
            reasons.append(Reason("/from_agent/role", "role-mismatch", f"{sender} is a {roles[sender]} in graph {graph.name}, not a {from_role}"))
        if to_role != roles[receiver]:
            reasons.append(Reason("/to_agent/role", "role-mismatch", f"{receiver} is a {roles[receiver]} in graph {graph.name}, not a {to_role}"))
        hop = envelope["hop"]
        self._check_hop_path(hop["path"], _hop_index(hop["index"]) or 0, sender, receiver, reasons)

    def _evaluate(self, value: object, me: str, can_read: CanRead | None) -> _Evaluation:
        envelope = value if isinstance(value, dict) else None
        sender = receiver = None
        if envelope is not None:
            sender_ref = envelope.get("from_agent")
            receiver_ref = envelope.get("to_agent")
            if isinstance(sender_ref, dict) and isinstance(receiver_ref, dict):
                sender = sender_ref.get("id")
                receiver = receiver_ref.get("id")
                if not isinstance(sender, str):
                    sender = None
                if not isinstance(receiver, str):
                    receiver = None
            else:
                sender = _string_at(sender_ref, "id")
                receiver = _string_at(receiver_ref, "id")
        pair = self._pairs.get((sender, receiver)) if sender is not None and receiver is not None else None
        edge: EdgeInfo | None = None
        errors: list[SchemaError] = []
        if pair is None:
            errors = self._validate_envelope(value)
        else:
            errors = pair.validators[0](value)
            edge = pair.edges[0]
            # The first edge's errors are the ones reported when no contract passes.
            if errors:
                for other, validate in zip(pair.edges[1:], pair.validators[1:]):
                    if not validate(value):
                        edge = other
                        errors = []
                        break
        reasons: list[Reason] = []
        reached = False
        if errors:
            reported: set[tuple[str, str]] = set()
            for error in errors:
                reason = schema_error_to_reason(error)
                # A contract restates the types it needs beside the envelope's $ref: report each fault once.
                if (reason.path, reason.rule) not in reported:
                    reported.add((reason.path, reason.rule))
                    reasons.append(reason)
        elif envelope is not None and sender is not None and receiver is not None:
            reached = self._semantic_checks(envelope, me, can_read, reasons)
            self._graph_checks(envelope, sender, receiver, pair, reasons)
        handoff_id = _string_at(envelope, "handoff_id")
        task_id = _string_at(envelope, "task_id")
        hop = envelope.get("hop") if envelope is not None else None
        hop_index = _hop_index(hop.get("index")) if isinstance(hop, dict) else None
        lenient = (
            edge is not None
            and edge.observe
            and handoff_id is not None
            and task_id is not None
            and hop_index is not None
            and receiver == me
        )
        consumed: list[str] = []
        constraints: tuple[str, ...] = ()
        route: Route = "proceed"
        if envelope is not None and (not reasons or lenient):
            artefacts = envelope.get("artefacts")
            if isinstance(artefacts, list):
                for artefact in artefacts:
                    ref = _string_at(artefact, "ref")
                    if ref is not None and artefact.get("role") != "superseded":
                        consumed.append(ref)
            listed = envelope.get("constraints")
            if isinstance(listed, list):
                # Without reasons the schema passed: every constraint is a string.
                constraints = tuple(listed) if not reasons else tuple(item for item in listed if isinstance(item, str))
            status = envelope.get("status")
            route = _STATUS_ROUTES.get(status, "proceed") if isinstance(status, str) else "proceed"
        return (handoff_id, task_id, hop_index, sender, reasons, lenient, reached, tuple(consumed), constraints, route)

    def _accepted_at(self, now: Callable[[], float] | None) -> str:
        ms = _epoch_ms((now or time.time)())
        last = self._last_time
        if last[0] == ms:
            return last[1]
        text = _iso_time(ms)
        self._last_time = (ms, text)
        return text

    def _reject(self, evaluation: _Evaluation, reasons: list[Reason], duplicate: bool) -> Rejected:
        route: RejectionRoute = "discard" if duplicate else self._graph.on_hop_limit if evaluation[6] else "repair"
        rejection = Rejection(evaluation[0], evaluation[2], evaluation[3], route, tuple(reasons))
        return Rejected(rejection, duplicate)

    def _duplicate_of(self, evaluation: _Evaluation) -> Rejected:
        message = f"handoff {evaluation[0]} was accepted before; it is not processed twice"
        return self._reject(evaluation, [Reason("/handoff_id", "duplicate", message)], True)

    @staticmethod
    def _owner_conflict(task_id: str, hop_index: int, owner: str) -> Reason:
        return Reason("/to_agent/id", "owner-conflict", f"{owner} already owns hop {hop_index} of task {task_id}: one owner at a time")

    def __call__(
        self,
        value: object,
        me: str,
        can_read: CanRead | None,
        seen: SeenStore | None,
        now: Callable[[], float] | None,
    ) -> AcceptResult:
        _check_options(me, can_read, seen, now)
        try:
            evaluation = self._evaluate(value, me, can_read)
        except Exception as error:  # a hostile mapping, a getter that raises: not plain JSON data
            reason = Reason("", "unreadable-envelope", f"reading the envelope threw: {_message_of(error)}")
            return Rejected(Rejection(None, None, None, "repair", (reason,)), False)
        handoff_id, task_id, hop_index, producer, reasons, lenient, _, consumed, constraints, route = evaluation
        if seen is not None and handoff_id is not None and seen.has_handoff(handoff_id):
            return self._duplicate_of(evaluation)
        if seen is not None and task_id is not None and hop_index is not None:
            owner = seen.owner_of(task_id, hop_index)
            if owner is not None and owner != me:
                reasons.append(self._owner_conflict(task_id, hop_index, owner))
        if reasons and not lenient:
            return self._reject(evaluation, reasons, False)
        # Accepted (or observed): the header is usable here, the schema or lenient saw to that.
        assert handoff_id is not None and task_id is not None and hop_index is not None and producer is not None
        if seen is not None:
            outcome = seen.record(handoff_id, task_id, hop_index, me)
            if outcome == "duplicate":
                return self._duplicate_of(evaluation)
            if outcome == "owner-conflict" and not lenient:
                owner = seen.owner_of(task_id, hop_index) or "another agent"
                return self._reject(evaluation, [self._owner_conflict(task_id, hop_index, owner)], False)
        record = AcceptanceRecord(
            handoff_id, task_id, hop_index, producer, me, self._accepted_at(now), consumed, route, constraints, tuple(reasons)
        )
        return Accepted(record)


def _check_options(me: object, can_read: object, seen: object, now: object) -> None:
    """Caller misuse is a TypeError, never a rejection: the envelope is not at fault."""
    if not isinstance(me, str):
        raise TypeError(f"accept(): me must be the receiving agent's id as a str, not {type(me).__name__}")
    if can_read is not None and not callable(can_read):
        raise TypeError(f"accept(): can_read must be callable or None, not {type(can_read).__name__}")
    if now is not None and not callable(now):
        raise TypeError(f"accept(): now must be callable or None, not {type(now).__name__}")
    if seen is not None and not all(callable(getattr(seen, name, None)) for name in ("has_handoff", "owner_of", "record")):
        raise TypeError(f"accept(): seen must provide has_handoff, owner_of and record (a SeenStore), not {type(seen).__name__}")
`;
