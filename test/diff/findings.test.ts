/**
 * The table of `seam diff`: for each edit of `cases.ts`, every finding it gives (id, severity,
 * the text its range covers, the whole message) in both directions: old -> new, and new -> old,
 * which is the same change deployed the other way round.
 */
import { describe, expect, it } from "vitest";
import { findingCatalog } from "../../src/diff/findings/index.js";
import { EDITS } from "./cases.js";
import { diffRows, type Row } from "./helpers.js";

const EXPECTED: Record<string, { readonly forward: readonly Row[]; readonly backward: readonly Row[] }> = {
  "graph removed / added": {
    forward: [
      ["graph-removed", "error", "desk", "graph side was removed: its agents build no validator for it any more, so every task in flight in it is refused at its next handoff"],
    ],
    backward: [
      ["graph-added", "info", "side", "graph side is new: no task runs in it yet, so nothing is refused"],
    ],
  },
  "agent removed / added": {
    forward: [
      ["agent-removed", "error", "desk", "agent helper (worker) was removed: handoffs to it have no receiver, and every agent refuses tasks in flight whose hop.path already passed through helper (bad-hop-path)"],
    ],
    backward: [
      ["agent-added", "info", "helper", "agent helper (worker) is new: no handoff reaches it before an edge to it is deployed"],
      ["edge-added", "warning", "delegate boss -> helper", "delegate boss -> helper is new: agents on the old graph refuse it (unknown-edge, and bad-hop-path at later hops), so deploy helper and the agents after it before boss takes the edge"],
      ["edge-added", "warning", "return helper -> boss", "return helper -> boss is new: agents on the old graph refuse it (unknown-edge, and bad-hop-path at later hops), so deploy boss and the agents after it before helper takes the edge"],
    ],
  },
  "role changed": {
    forward: [
      ["role-changed", "error", "worker", "agent desk_peer is now a worker, not a peer: envelopes name each agent's role, so handoffs to or from desk_peer that still say peer are refused (role-mismatch) by the new graph, and those that say worker by agents on the old one"],
    ],
    backward: [
      ["role-changed", "error", "peer", "agent desk_peer is now a peer, not a worker: envelopes name each agent's role, so handoffs to or from desk_peer that still say worker are refused (role-mismatch) by the new graph, and those that say peer by agents on the old one"],
    ],
  },
  "major version": {
    forward: [
      ["agent-major-changed", "error", "\"2.0.0\"", "agent analyst moved from version \"1.0.0\" to \"2.0.0\", another major: envelopes that claim the old version are refused by the new analyst, and the reverse; keep the old analyst running until no task in flight claims it"],
    ],
    backward: [
      ["agent-major-changed", "error", "\"1.0.0\"", "agent analyst moved from version \"2.0.0\" to \"1.0.0\", another major: envelopes that claim the old version are refused by the new analyst, and the reverse; keep the old analyst running until no task in flight claims it"],
    ],
  },
  "minor version": {
    forward: [
      ["agent-minor-raised", "warning", "\"1.1.0\"", "agent analyst moved from version \"1.0.0\" to \"1.1.0\": the old analyst refuses envelopes that claim the newer version, so deploy analyst first, then the agents that hand off to it"],
    ],
    backward: [
      ["agent-version-lowered", "warning", "\"1.0.0\"", "agent analyst moved back from version \"1.1.0\" to \"1.0.0\": the new analyst refuses envelopes that still claim the newer version, so deploy the agents that hand off to analyst first"],
    ],
  },
  "patch version": {
    forward: [
      ["agent-version-changed", "info", "\"1.0.1\"", "agent analyst moved from version \"1.0.0\" to \"1.0.1\", within the same range: every claimed version still fits"],
    ],
    backward: [
      ["agent-version-changed", "info", "\"1.0.0\"", "agent analyst moved from version \"1.0.1\" to \"1.0.0\", within the same range: every claimed version still fits"],
    ],
  },
  "version declared / dropped": {
    forward: [
      ["agent-version-changed", "info", "\"0.3.0\"", "agent lead now declares version \"0.3.0\": envelopes that claim no version for it are still accepted"],
    ],
    backward: [
      ["agent-version-changed", "info", "lead", "agent lead no longer declares a version (was \"0.3.0\"): claimed versions are no longer checked"],
    ],
  },
  "terminal removed / added": {
    forward: [
      ["terminal-removed", "error", "analyst", "terminal gave_up (failed) of agent analyst was removed: tasks in flight that analyst would end there can no longer end there"],
    ],
    backward: [
      ["terminal-added", "info", "gave_up", "agent analyst has a new terminal gave_up (failed): tasks get one more way to end, nothing is refused"],
    ],
  },
  "terminal outcome": {
    forward: [
      ["terminal-outcome-changed", "info", "gave_up", "terminal gave_up of agent analyst now ends tasks as escalate, not failed: nothing is refused, but whoever reads task outcomes sees the new one"],
    ],
    backward: [
      ["terminal-outcome-changed", "info", "gave_up", "terminal gave_up of agent analyst now ends tasks as failed, not escalate: nothing is refused, but whoever reads task outcomes sees the new one"],
    ],
  },
  "entry added / removed": {
    forward: [
      ["entry-added", "warning", "lead", "lead is a new entry: agents on the old graph refuse tasks whose hop.path starts at lead (bad-hop-path), so deploy every agent before starting tasks there"],
    ],
    backward: [
      ["entry-removed", "error", "lead", "lead is no longer an entry: hop.path must start at an entry, so every agent refuses the tasks in flight that started at lead (bad-hop-path)"],
    ],
  },
  "edge removed / added": {
    forward: [
      ["edge-removed", "error", "analyst", "transfer analyst -> desk_peer was removed: desk_peer refuses analyst's handoffs on it (unknown-edge), and every agent refuses tasks in flight whose hop.path already took analyst -> desk_peer (bad-hop-path)"],
      ["edge-added", "warning", "transfer helper -> desk_peer", "transfer helper -> desk_peer is new: agents on the old graph refuse it (unknown-edge, and bad-hop-path at later hops), so deploy desk_peer and the agents after it before helper takes the edge"],
    ],
    backward: [
      ["edge-removed", "error", "helper", "transfer helper -> desk_peer was removed: desk_peer refuses helper's handoffs on it (unknown-edge), and every agent refuses tasks in flight whose hop.path already took helper -> desk_peer (bad-hop-path)"],
      ["edge-added", "warning", "transfer analyst -> desk_peer", "transfer analyst -> desk_peer is new: agents on the old graph refuse it (unknown-edge, and bad-hop-path at later hops), so deploy desk_peer and the agents after it before analyst takes the edge"],
    ],
  },
  "edge kind": {
    forward: [
      ["edge-kind-changed", "info", "return a -> b", "a -> b is now a return, not a delegate: envelopes do not carry the kind, and any change to the required fields that comes with it is reported on its own"],
      ["max-rounds-raised", "warning", "return a -> b", "max_rounds of a -> b rose from 1 to no limit: agents on the old graph refuse a task that takes it a 2nd time, so deploy every agent before a task relies on the extra rounds"],
      ["required-field-added", "warning", "return a -> b", "b now requires artefacts on return a -> b: deploy a first so it sends the field; until it is redeployed, b refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return a -> b", "b now requires status on return a -> b: deploy a first so it sends the field; until it is redeployed, b refuses its handoffs that lack it"],
      ["required-field-removed", "warning", "return a -> b", "b no longer requires constraints on return a -> b: deploy b first; the old b still refuses handoffs from an updated a that leave the field out"],
      ["required-field-replaced", "error", "return a -> b", "return a -> b now requires artefacts, status instead of constraints: whichever side deploys first, one refuses the other (an old a lacks the new fields, an old b still requires the old one); require the new in one release and drop the old in the next"],
      ["edge-kind-changed", "info", "delegate b -> a", "b -> a is now a delegate, not a return: envelopes do not carry the kind, and any change to the required fields that comes with it is reported on its own"],
      ["required-field-added", "warning", "delegate b -> a", "a now requires constraints on delegate b -> a: deploy b first so it sends the field; until it is redeployed, a refuses its handoffs that lack it"],
      ["required-field-removed", "warning", "delegate b -> a", "a no longer requires artefacts on delegate b -> a: deploy a first; the old a still refuses handoffs from an updated b that leave the field out"],
      ["required-field-removed", "warning", "delegate b -> a", "a no longer requires status on delegate b -> a: deploy a first; the old a still refuses handoffs from an updated b that leave the field out"],
      ["required-field-replaced", "error", "delegate b -> a", "delegate b -> a now requires constraints instead of artefacts, status: whichever side deploys first, one refuses the other (an old b lacks the new field, an old a still requires the old ones); require the new in one release and drop the old in the next"],
      ["max-rounds-lowered", "error", "1", "max_rounds of b -> a fell from no limit to 1: every agent counts rounds in hop.path, so a task in flight that already took b -> a once is refused the next time it does"],
    ],
    backward: [
      ["edge-kind-changed", "info", "delegate a -> b", "a -> b is now a delegate, not a return: envelopes do not carry the kind, and any change to the required fields that comes with it is reported on its own"],
      ["required-field-added", "warning", "delegate a -> b", "b now requires constraints on delegate a -> b: deploy a first so it sends the field; until it is redeployed, b refuses its handoffs that lack it"],
      ["required-field-removed", "warning", "delegate a -> b", "b no longer requires artefacts on delegate a -> b: deploy b first; the old b still refuses handoffs from an updated a that leave the field out"],
      ["required-field-removed", "warning", "delegate a -> b", "b no longer requires status on delegate a -> b: deploy b first; the old b still refuses handoffs from an updated a that leave the field out"],
      ["required-field-replaced", "error", "delegate a -> b", "delegate a -> b now requires constraints instead of artefacts, status: whichever side deploys first, one refuses the other (an old a lacks the new field, an old b still requires the old ones); require the new in one release and drop the old in the next"],
      ["max-rounds-lowered", "error", "1", "max_rounds of a -> b fell from no limit to 1: every agent counts rounds in hop.path, so a task in flight that already took a -> b once is refused the next time it does"],
      ["edge-kind-changed", "info", "return b -> a", "b -> a is now a return, not a delegate: envelopes do not carry the kind, and any change to the required fields that comes with it is reported on its own"],
      ["max-rounds-raised", "warning", "return b -> a", "max_rounds of b -> a rose from 1 to no limit: agents on the old graph refuse a task that takes it a 2nd time, so deploy every agent before a task relies on the extra rounds"],
      ["required-field-added", "warning", "return b -> a", "a now requires artefacts on return b -> a: deploy b first so it sends the field; until it is redeployed, a refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return b -> a", "a now requires status on return b -> a: deploy b first so it sends the field; until it is redeployed, a refuses its handoffs that lack it"],
      ["required-field-removed", "warning", "return b -> a", "a no longer requires constraints on return b -> a: deploy a first; the old a still refuses handoffs from an updated b that leave the field out"],
      ["required-field-replaced", "error", "return b -> a", "return b -> a now requires artefacts, status instead of constraints: whichever side deploys first, one refuses the other (an old b lacks the new fields, an old a still requires the old one); require the new in one release and drop the old in the next"],
    ],
  },
  "required field": {
    forward: [
      ["required-field-added", "warning", "delegate boss -> analyst", "analyst now requires open_questions on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it"],
      ["required-field-added", "warning", "goal.out_of_scope", "analyst now requires goal.out_of_scope on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it"],
    ],
    backward: [
      ["required-field-removed", "warning", "delegate boss -> analyst", "analyst no longer requires goal.out_of_scope on delegate boss -> analyst: deploy analyst first; the old analyst still refuses handoffs from an updated boss that leave the field out"],
      ["required-field-removed", "warning", "delegate boss -> analyst", "analyst no longer requires open_questions on delegate boss -> analyst: deploy analyst first; the old analyst still refuses handoffs from an updated boss that leave the field out"],
    ],
  },
  "renamed field": {
    forward: [
      ["required-field-removed", "warning", "delegate boss -> analyst", "analyst no longer requires goal.out_of_scope on delegate boss -> analyst: deploy analyst first; the old analyst still refuses handoffs from an updated boss that leave the field out"],
      ["required-field-replaced", "error", "delegate boss -> analyst", "delegate boss -> analyst now requires safe_resume instead of goal.out_of_scope: whichever side deploys first, one refuses the other (an old boss lacks the new field, an old analyst still requires the old one); require the new in one release and drop the old in the next"],
      ["required-field-added", "warning", "safe_resume", "analyst now requires safe_resume on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it"],
    ],
    backward: [
      ["required-field-removed", "warning", "delegate boss -> analyst", "analyst no longer requires safe_resume on delegate boss -> analyst: deploy analyst first; the old analyst still refuses handoffs from an updated boss that leave the field out"],
      ["required-field-replaced", "error", "delegate boss -> analyst", "delegate boss -> analyst now requires goal.out_of_scope instead of safe_resume: whichever side deploys first, one refuses the other (an old boss lacks the new field, an old analyst still requires the old one); require the new in one release and drop the old in the next"],
      ["required-field-added", "warning", "goal.out_of_scope", "analyst now requires goal.out_of_scope on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it"],
    ],
  },
  "required field on an observe edge": {
    forward: [
    ],
    backward: [
    ],
  },
  "required field by contract": {
    forward: [
      ["required-field-added", "warning", "return analyst -> boss", "boss now requires decisions on return analyst -> boss: deploy analyst first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return helper -> boss", "boss now requires decisions on return helper -> boss: deploy helper first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return lead -> boss", "boss now requires decisions on return lead -> boss: deploy lead first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
    ],
    backward: [
      ["required-field-removed", "warning", "return analyst -> boss", "boss no longer requires decisions on return analyst -> boss: deploy boss first; the old boss still refuses handoffs from an updated analyst that leave the field out"],
      ["required-field-removed", "warning", "return helper -> boss", "boss no longer requires decisions on return helper -> boss: deploy boss first; the old boss still refuses handoffs from an updated helper that leave the field out"],
      ["required-field-removed", "warning", "return lead -> boss", "boss no longer requires decisions on return lead -> boss: deploy boss first; the old boss still refuses handoffs from an updated lead that leave the field out"],
    ],
  },
  "max rounds": {
    forward: [
      ["max-rounds-lowered", "error", "1", "max_rounds of boss -> analyst fell from 2 to 1: every agent counts rounds in hop.path, so a task in flight that already took boss -> analyst once is refused the next time it does"],
    ],
    backward: [
      ["max-rounds-raised", "warning", "2", "max_rounds of boss -> analyst rose from 1 to 2: agents on the old graph refuse a task that takes it a 2nd time, so deploy every agent before a task relies on the extra rounds"],
    ],
  },
  "repairs": {
    forward: [
      ["repairs-raised", "warning", "2", "repairs of boss -> analyst rose from 1 to 2: analyst on the old graph escalates a refused hop after 1, so deploy analyst before boss relies on the extra repairs"],
    ],
    backward: [
      ["repairs-lowered", "info", "delegate boss -> analyst", "repairs of boss -> analyst fell from 2 to 1: nothing more is refused, but a refused hop escalates sooner"],
    ],
  },
  "min confidence": {
    forward: [
      ["min-confidence-raised", "warning", "0.7", "min_confidence of boss -> helper rose from 0 to 0.7: helper refuses decisions below 0.7, so deploy boss first, so that it no longer sends them"],
    ],
    backward: [
      ["min-confidence-lowered", "warning", "delegate boss -> helper", "min_confidence of boss -> helper fell from 0.7 to 0: helper on the old graph refuses decisions below 0.7, so deploy helper before boss hands them over"],
    ],
  },
  "gate on an agent and an edge": {
    forward: [
      ["gate-added", "warning", "helper", "agent helper is now an approval gate: handoffs through it must carry an approval record, so deploy helper first, then the agents after it"],
      ["required-field-added", "warning", "return helper -> boss", "boss now requires approval on return helper -> boss: deploy helper first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
      ["required-field-added", "warning", "delegate boss -> lead", "lead now requires approval on delegate boss -> lead: deploy boss first so it sends the field; until it is redeployed, lead refuses its handoffs that lack it"],
      ["gate-added", "warning", "gate", "delegate boss -> lead is now an approval gate: handoffs through it must carry an approval record, so deploy boss first, then the agents after it"],
    ],
    backward: [
      ["gate-removed", "warning", "helper", "agent helper is no longer an approval gate: agents on the old graph still refuse handoffs through it without an approval record, so deploy them before helper stops recording approvals"],
      ["required-field-removed", "warning", "return helper -> boss", "boss no longer requires approval on return helper -> boss: deploy boss first; the old boss still refuses handoffs from an updated helper that leave the field out"],
      ["gate-removed", "warning", "delegate boss -> lead", "delegate boss -> lead is no longer an approval gate: agents on the old graph still refuse handoffs through it without an approval record, so deploy them before boss stops recording approvals"],
      ["required-field-removed", "warning", "delegate boss -> lead", "lead no longer requires approval on delegate boss -> lead: deploy lead first; the old lead still refuses handoffs from an updated boss that leave the field out"],
    ],
  },
  "guard": {
    forward: [
      ["guard-narrowed", "warning", "when status is ready, blocked", "return helper -> boss no longer takes status partial: boss refuses such handoffs, so deploy helper first, so that it routes them elsewhere"],
      ["guard-widened", "warning", "when status is ready, blocked", "return helper -> boss now takes status blocked: boss on the old graph refuses such handoffs, so deploy boss before helper routes them there"],
      ["guard-narrowed", "warning", "otherwise", "transfer helper -> desk_peer no longer takes status blocked: desk_peer refuses such handoffs, so deploy helper first, so that it routes them elsewhere"],
      ["guard-widened", "warning", "otherwise", "transfer helper -> desk_peer now takes status partial: desk_peer on the old graph refuses such handoffs, so deploy desk_peer before helper routes them there"],
    ],
    backward: [
      ["guard-narrowed", "warning", "when status is ready, partial", "return helper -> boss no longer takes status blocked: boss refuses such handoffs, so deploy helper first, so that it routes them elsewhere"],
      ["guard-widened", "warning", "when status is ready, partial", "return helper -> boss now takes status partial: boss on the old graph refuses such handoffs, so deploy boss before helper routes them there"],
      ["guard-narrowed", "warning", "otherwise", "transfer helper -> desk_peer no longer takes status partial: desk_peer refuses such handoffs, so deploy helper first, so that it routes them elsewhere"],
      ["guard-widened", "warning", "otherwise", "transfer helper -> desk_peer now takes status blocked: desk_peer on the old graph refuses such handoffs, so deploy desk_peer before helper routes them there"],
    ],
  },
  branch: {
    forward: [
      [
        "branch-added",
        "warning",
        "fan_out team",
        "delegate boss -> analyst is now a branch of fan-out 'team': agents on the old graph refuse a second owner of the hop, so deploy analyst and the join before boss fans out",
      ],
    ],
    backward: [
      [
        "branch-removed",
        "error",
        "delegate boss -> analyst",
        "delegate boss -> analyst is no longer a branch of fan-out 'team': tasks in flight with that branch open are refused at its next hop by the new graph; drain them before deploying",
      ],
    ],
  },
  "join wait": {
    forward: [
      [
        "join-wait-changed",
        "error",
        "join any of helper, lead within 600 seconds",
        "agent boss now has `join any of helper, lead within 600 seconds`, not `join all of helper, lead within 600 seconds`: tasks in flight were fanned out under the old condition, so the join may wait for an arrival that never comes or go on without one it needed; drain the tasks in flight at boss before deploying",
      ],
    ],
    backward: [
      [
        "join-wait-changed",
        "error",
        "join all of helper, lead within 600 seconds",
        "agent boss now has `join all of helper, lead within 600 seconds`, not `join any of helper, lead within 600 seconds`: tasks in flight were fanned out under the old condition, so the join may wait for an arrival that never comes or go on without one it needed; drain the tasks in flight at boss before deploying",
      ],
    ],
  },
  "join policy": {
    forward: [
      [
        "join-policy-changed",
        "info",
        "join all of helper, lead within 60 seconds otherwise escalate",
        "the join of boss now waits 60 seconds, otherwise escalate (was 600 seconds, otherwise escalate): a task keeps the policy its fan-out was first recorded with, so tasks in flight follow the old one, and new tasks the version of the service that records it (with a shared store, the branch agent that accepts the first delegation; with one store per receiver, boss)",
      ],
    ],
    backward: [
      [
        "join-policy-changed",
        "info",
        "join all of helper, lead within 600 seconds",
        "the join of boss now waits 600 seconds, otherwise escalate (was 60 seconds, otherwise escalate): a task keeps the policy its fan-out was first recorded with, so tasks in flight follow the old one, and new tasks the version of the service that records it (with a shared store, the branch agent that accepts the first delegation; with one store per receiver, boss)",
      ],
    ],
  },
  "observe": {
    forward: [
      ["edge-enforced", "error", "transfer analyst -> desk_peer", "transfer analyst -> desk_peer is no longer observe: desk_peer now refuses the handoffs it only warned about; replay recorded envelopes with seam validate before deploying"],
    ],
    backward: [
      ["edge-observed", "info", "observe", "transfer analyst -> desk_peer is now observe: desk_peer warns instead of refusing, so nothing new is refused"],
    ],
  },
  "hop limit": {
    forward: [
      ["hop-limit-lowered", "error", "8", "the hop limit fell from 9 to 8: tasks in flight carry the old hop.limit, which every agent on the new graph refuses, and a task already past hop 7 cannot go on"],
    ],
    backward: [
      ["hop-limit-raised", "warning", "9", "the hop limit rose from 8 to 9: agents on the old graph refuse a hop.limit above 8, so deploy every agent before the entries stamp the new limit"],
    ],
  },
  "on hop limit": {
    forward: [
      ["on-hop-limit-changed", "info", "failed", "on_hop_limit is now failed, not escalate: a task that reaches the hop limit is routed to failure; nothing else is refused"],
    ],
    backward: [
      ["on-hop-limit-changed", "info", "escalate", "on_hop_limit is now escalate, not failed: a task that reaches the hop limit is routed to a human; nothing else is refused"],
    ],
  },
  "loop signature": {
    forward: [
      ["loop-signature-changed", "error", "loop_signature goal.statement, decisions[].statement", "loop_signature now hashes decisions[].statement: agents on the two versions compute different signatures, so loop detection starts over for every task in flight and a loop already under way gets its rounds again"],
    ],
    backward: [
      ["loop-signature-changed", "error", "loop_signature goal.statement", "loop_signature no longer hashes decisions[].statement: agents on the two versions compute different signatures, so loop detection starts over for every task in flight and a loop already under way gets its rounds again"],
    ],
  },
  "envelope": {
    forward: [
      ["envelope-version-lowered", "warning", "1.2", "the graph now targets envelope 1.2, not 1.3: agents on the new graph refuse envelopes that carry status, allowed_next_step, safe_resume, blocked_on, so deploy every producer first so it stops sending them"],
      ["required-field-removed", "warning", "return analyst -> boss", "boss no longer requires status on return analyst -> boss: deploy boss first; the old boss still refuses handoffs from an updated analyst that leave the field out"],
      ["required-field-removed", "warning", "return helper -> boss", "boss no longer requires status on return helper -> boss: deploy boss first; the old boss still refuses handoffs from an updated helper that leave the field out"],
      ["required-field-removed", "warning", "return lead -> boss", "boss no longer requires status on return lead -> boss: deploy boss first; the old boss still refuses handoffs from an updated lead that leave the field out"],
    ],
    backward: [
      ["envelope-version-raised", "warning", "desk", "the graph now targets envelope 1.3, not 1.2: agents on the old graph refuse envelopes that carry status, allowed_next_step, safe_resume, blocked_on, so deploy every receiver before a producer sends them"],
      ["required-field-added", "warning", "return analyst -> boss", "boss now requires status on return analyst -> boss: deploy analyst first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return helper -> boss", "boss now requires status on return helper -> boss: deploy helper first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
      ["required-field-added", "warning", "return lead -> boss", "boss now requires status on return lead -> boss: deploy lead first so it sends the field; until it is redeployed, boss refuses its handoffs that lack it"],
    ],
  },
  "envelope 1.4": {
    forward: [
      ["envelope-version-raised", "warning", "1.4", "the graph now targets envelope 1.4, not 1.3: agents on the old graph refuse envelopes that carry approval, hop.branch, so deploy every receiver before a producer sends them"],
    ],
    backward: [
      ["envelope-version-lowered", "warning", "desk", "the graph now targets envelope 1.3, not 1.4: agents on the new graph refuse envelopes that carry approval, hop.branch, so deploy every producer first so it stops sending them"],
    ],
  },
  "envelope with the same fields": {
    forward: [
      ["envelope-version-changed", "info", "1.1", "the graph now targets envelope 1.1, not 1.2: both hold the same fields, so nothing is refused"],
    ],
    backward: [
      ["envelope-version-changed", "info", "1.2", "the graph now targets envelope 1.2, not 1.1: both hold the same fields, so nothing is refused"],
    ],
  },
};

describe("seam diff findings", () => {
  for (const [name, old, next] of EDITS) {
    const expected = EXPECTED[name];
    it(`${name}: old -> new`, () => {
      expect(diffRows(old, next)).toEqual(expected?.forward);
    });
    it(`${name}: new -> old`, () => {
      expect(diffRows(next, old)).toEqual(expected?.backward);
    });
  }

  it("every finding id of the checks is exercised by the table", () => {
    const seen = new Set(Object.values(EXPECTED).flatMap((c) => [...c.forward, ...c.backward].map((r) => r[0])));
    const policy = new Set(["major-bump-missing", "minor-bump-missing"]);
    expect(findingCatalog.map((m) => m.id).filter((id) => !policy.has(id) && !seen.has(id))).toEqual([]);
  });
});
