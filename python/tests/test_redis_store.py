"""The Redis store without a server: keys as the JavaScript store writes them, strict replies,
options checked at once. (test/runtime/redis-mixed-race.test.ts runs it on a real Redis.)"""

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoPermissionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from seam_handoff import ClaimHolder, ClaimRequest, Custody, CustodyFault, Duplicate, NotOwner, TaskEnd, TaskFinished
from seam_handoff.redis_store import LEDGER_SCRIPT, RedisSeenStore, StoreUnavailableError, redis_key, to_claim_result, to_finish_result


def test_keys_match_the_javascript_store() -> None:
    assert redis_key("p", "t", "task-1") == "p:t:task-1"
    # Values printed by the JavaScript redisKey(): a long id and a lone surrogate are hashed.
    assert redis_key("p", "t", "x" * 201) == "p:t#c3c5341496a657eba2957cea7a62e38afff86438d5b31fb1f78505331c081cfd"
    assert redis_key("p", "a", "\ud800") == "p:a#205022e3428b7c8276cf247b36e4e512db5651e5cb3472c253d9ee893a8ac750"


def test_replies_are_read_strictly() -> None:
    assert to_claim_result([b"duplicate", b"hop", b"h-1", b"billing", b"1500"]) == Duplicate("hop", ClaimHolder("h-1", "billing", 1500))
    assert to_claim_result(["custody", "", "", "2", "skip", "path", "1", "triage"]) == Custody(
        None, None, (CustodyFault("skip"), CustodyFault("path", 1, "triage")), 2
    )
    assert to_claim_result(["custody", "billing", "1", "2", "approval", "h-2", "approval-cite", "h-1"]) == Custody(
        "billing", 1, (CustodyFault("approval", expected="h-2"), CustodyFault("approval-cite", expected="h-1")), 2
    )
    assert to_finish_result(["finished", "triage", "done", "complete", "1.5", ""]) == TaskFinished(
        TaskEnd("triage", "done", "complete", 1, None)
    )
    assert to_finish_result(["not-owner", "billing", "3"]) == NotOwner("billing", 3)
    with pytest.raises(StoreUnavailableError) as caught:
        to_claim_result(["claimed", "extra"])
    assert str(caught.value) == (
        'Redis answered the claim with ["claimed","extra"], which is not a claim result: is the key prefix shared with something else?'
    )


def test_the_script_is_the_one_ledger() -> None:
    assert LEDGER_SCRIPT.startswith("-- Seam ledger, version 7:")


class _NoScripts:
    pass


def test_bad_options_raise_type_error_at_once() -> None:
    with pytest.raises(TypeError, match=r"^RedisSeenStore: prefix must be 1 to 100 characters without whitespace"):
        RedisSeenStore(_NoScripts(), prefix="a b")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^RedisSeenStore: the client has no register_script\(\)"):
        RedisSeenStore(_NoScripts(), prefix="p")  # type: ignore[arg-type]


class _FailingScript:
    """A client whose one script raises `error` on every call."""

    def __init__(self, error: Exception) -> None:
        self._error = error

    def register_script(self, script: str) -> object:
        return self

    def __call__(self, keys: object = None, args: object = None) -> object:
        raise self._error


def _claim(error: Exception) -> str:
    store = RedisSeenStore(_FailingScript(error), prefix="p")
    request = ClaimRequest(
        handoff_id="h-1", task_id="t-1", hop_index=1, producer="triage", receiver="billing", edge=None, verdict="accepted", at=1_000
    )
    with pytest.raises(StoreUnavailableError) as caught:
        store.claim(request)
    return str(caught.value)


def test_a_timeout_may_have_recorded_the_claim() -> None:
    assert _claim(RedisTimeoutError("Timeout reading from socket")) == (
        "Redis did not answer the claim of handoff h-1 in time (Timeout reading from socket): it may or may not be recorded; "
        "deliver it again later"
    )


def test_a_failed_call_recorded_nothing() -> None:
    assert _claim(RedisConnectionError("Connection refused")) == (
        "Redis could not claim handoff h-1 (Connection refused): it is neither accepted nor refused; deliver it again later"
    )


def test_a_refused_user_is_said_to_need_fixing_first() -> None:
    # As redis-py raises it: the NOPERM code is dropped from the message, the class keeps it.
    assert _claim(NoPermissionError("User seam has no permissions to run the 'evalsha' command")) == (
        "Redis could not claim handoff h-1 (User seam has no permissions to run the 'evalsha' command): it is neither accepted nor "
        "refused; deliver it again later (Redis refused the store's user: fix its password or ACL first)"
    )
