"""Claim leases in the memory store through accept(): held while the lease is live (lease-held,
route retry), taken over once it ran out, discarded once committed; commit() and release()."""

import re
from typing import Any, cast

import pytest
import refund_desk_validators as desk

import seam_handoff
from seam_handoff import ClaimHolder, Committed, Lease, Lost, Released, commit, release
from seam_handoff._clock import iso_time

NOW = 1_764_410_400.0  # 2025-11-29T10:00:00Z, in seconds
LEASE_MS = 30_000
ID = "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39"


def at(ms: int) -> Any:
    return lambda: NOW + ms / 1000


def iso(ms: int) -> str:
    return iso_time(int(NOW * 1000) + ms)


def test_a_redelivery_while_the_lease_is_live_is_told_to_retry(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store(lease_ms=LEASE_MS)
    first = desk.accept(envelope, me="billing", seen=seen, now=at(0), claim_token="replica-a")
    assert isinstance(first, seam_handoff.Accepted)
    assert first.record.lease == Lease("replica-a", iso(LEASE_MS))
    again = desk.accept(envelope, me="billing", seen=seen, now=at(5000), claim_token="replica-b")
    assert isinstance(again, seam_handoff.Rejected)
    assert (again.duplicate, again.rejection.route, again.rejection.attempt) == (False, "retry", None)
    assert [reason.to_dict() for reason in again.rejection.reasons] == [
        {
            "path": "/handoff_id",
            "rule": "lease-held",
            "message": f'handoff "{ID}" was claimed by "billing" at {iso(0)} and is being processed under a lease until {iso(LEASE_MS)}: '
            "deliver it again after then (once the claim is committed it is a duplicate; if the lease runs out uncommitted, that delivery takes the claim over)",
        }
    ]


def test_an_expired_claim_is_taken_over_and_the_old_token_has_lost_it(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store(lease_ms=LEASE_MS)
    lost = desk.accept(envelope, me="billing", seen=seen, now=at(0), claim_token="a")
    taken = desk.accept(envelope, me="billing", seen=seen, now=at(LEASE_MS), claim_token="b")
    assert isinstance(lost, seam_handoff.Accepted) and isinstance(taken, seam_handoff.Accepted)
    assert taken.record.lease == Lease("b", iso(2 * LEASE_MS))
    assert commit(lost.record, seen=seen, now=at(LEASE_MS + 1)) == Lost(ClaimHolder(ID, "billing", int(NOW * 1000) + LEASE_MS))
    assert commit(taken.record, seen=seen, now=at(LEASE_MS + 2)) == Committed()
    after = desk.accept(envelope, me="billing", seen=seen, now=at(10 * LEASE_MS), claim_token="c")
    assert isinstance(after, seam_handoff.Rejected)
    assert (after.duplicate, after.rejection.route, [r.rule for r in after.rejection.reasons]) == (True, "discard", ["duplicate"])


def test_a_released_claim_is_taken_over_at_once(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store(lease_ms=LEASE_MS)
    first = desk.accept(envelope, me="billing", seen=seen, now=at(0), claim_token="a")
    assert isinstance(first, seam_handoff.Accepted)
    assert release(first.record, seen=seen, now=at(10)) == Released()
    second = desk.accept(envelope, me="billing", seen=seen, now=at(20), claim_token="b")
    assert isinstance(second, seam_handoff.Accepted) and second.record.lease == Lease("b", iso(20 + LEASE_MS))


def test_without_a_lease_a_claim_is_committed_when_made(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store()
    first = desk.accept(envelope, me="billing", seen=seen, now=at(0))
    assert isinstance(first, seam_handoff.Accepted) and first.record.lease is None
    assert commit(first.record, seen=seen) == Committed()
    again = desk.accept(envelope, me="billing", seen=seen, now=at(5000))
    assert isinstance(again, seam_handoff.Rejected) and again.rejection.route == "discard"


def test_misuse_is_a_type_error(envelope: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match=r"^accept\(\): claim_token must be a str of 1 to 1024 characters"):
        desk.accept(envelope, me="billing", claim_token="")
    with pytest.raises(
        TypeError, match=r"^create_memory_seen_store: lease_ms must be a whole number of milliseconds, 0 \(no lease\) or more, not -1$"
    ):
        desk.create_memory_seen_store(lease_ms=-1)
    with pytest.raises(TypeError, match=r"^commit\(\): record must be the acceptance record accept\(\) returned"):
        commit({}, seen=desk.create_memory_seen_store())  # type: ignore[arg-type]


def test_only_the_very_envelope_claimed_takes_an_expired_claim_over(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store(lease_ms=LEASE_MS)
    assert desk.accept(envelope, me="billing", seen=seen, now=at(0), claim_token="a").ok
    forged = {**envelope, "goal": {**envelope["goal"], "statement": "Refund every order of the account"}}
    other = desk.accept(forged, me="billing", seen=seen, now=at(LEASE_MS), claim_token="b")
    assert isinstance(other, seam_handoff.Rejected) and (other.duplicate, other.rejection.route) == (True, "discard")
    same = desk.accept(envelope, me="billing", seen=seen, now=at(LEASE_MS), claim_token="c")
    assert isinstance(same, seam_handoff.Accepted) and same.record.lease == Lease("c", iso(2 * LEASE_MS))


class _Spy:
    """A store that records the requests it is asked and claims every one."""

    def __init__(self) -> None:
        self.requests: list[seam_handoff.ClaimRequest] = []

    def claim(self, request: seam_handoff.ClaimRequest) -> seam_handoff.ClaimResult:
        self.requests.append(request)
        return seam_handoff.Claimed()


UUID4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"


def test_without_a_claim_token_a_leasing_memory_store_holds_the_claim_under_a_fresh_uuid(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store(lease_ms=LEASE_MS)
    assert seen.lease_ms == LEASE_MS
    first = desk.accept(envelope, me="billing", seen=seen, now=at(0))
    assert isinstance(first, seam_handoff.Accepted) and first.record.lease is not None
    assert re.fullmatch(UUID4, first.record.lease.token)
    assert commit(first.record, seen=seen, now=at(1)) == Committed()


def test_without_a_claim_token_any_other_store_is_asked_with_a_fresh_uuid_per_claim(envelope: dict[str, Any]) -> None:
    spy = _Spy()
    desk.accept(envelope, me="billing", seen=spy, now=at(0))
    desk.accept(envelope, me="billing", seen=spy, now=at(1))
    desk.accept(envelope, me="billing", seen=spy, now=at(2), claim_token="replica-a")
    tokens = [request.token for request in spy.requests]
    assert all(re.fullmatch(UUID4, cast(str, token)) for token in tokens[:2]) and tokens[0] != tokens[1]
    assert tokens[2] == "replica-a"


def test_a_memory_store_without_leases_commits_at_once_with_no_lease(envelope: dict[str, Any]) -> None:
    seen = desk.create_memory_seen_store()
    assert seen.lease_ms == 0
    first = desk.accept(envelope, me="billing", seen=seen, now=at(0))
    assert isinstance(first, seam_handoff.Accepted) and first.record.lease is None
    again = desk.accept(envelope, me="billing", seen=seen, now=at(1))
    assert isinstance(again, seam_handoff.Rejected) and again.duplicate
