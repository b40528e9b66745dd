/**
 * The store contract, one table of cases run against both stores Seam ships: the memory store
 * and the Redis store (a real redis-server; skipped with one line naming the package when it is
 * absent). Each case is a sequence of claims and terminal actions on a fresh store, each with the
 * exact answer both stores must give: every outcome, every custody fault, the receiver scope,
 * attempts, expiry on the requests' clock, and ids that try to collide with other keys.
 */
import { describe, expect, it } from "vitest";
import { createMemorySeenStore, type AsyncSeenStore, type ClaimRequest, type ClaimResult, type CustodyFault, type FinishRequest, type FinishResult } from "../../src/runtime/seen-store.js";
import { redisAvailable } from "./redis-server.js";
import { useRedis } from "./redis-fixture.js";

type Step = { readonly claim: Partial<ClaimRequest>; readonly expect: ClaimResult } | { readonly finish: Partial<FinishRequest>; readonly expect: FinishResult };

interface ContractCase {
  readonly name: string;
  readonly scope?: "graph" | "receiver";
  readonly ttlSeconds?: number;
  readonly steps: readonly Step[];
}

const claim = (edit: Partial<ClaimRequest>, expected: ClaimResult): Step => ({ claim: edit, expect: expected });
const finish = (edit: Partial<FinishRequest>, expected: FinishResult): Step => ({ finish: edit, expect: expected });

/** Hop 1 triage -> billing, hop 2 billing -> refunds, hop 3 refunds -> triage: the walk most cases use. */
const HOP1 = { handoffId: "h1", hopIndex: 1, producer: "triage", receiver: "billing", path: ["triage", "billing"] };
const HOP2 = { handoffId: "h2", hopIndex: 2, producer: "billing", receiver: "refunds", path: ["triage", "billing", "refunds"] };
const HOP3 = { handoffId: "h3", hopIndex: 3, producer: "refunds", receiver: "triage", path: ["triage", "billing", "refunds", "triage"] };
const CLAIMED: ClaimResult = { outcome: "claimed" };
const holder = (handoffId: string, receiver: string, at = 1000) => ({ handoffId, receiver, at });
const custody = (owner: string | null, lastHop: number | null, attempt: number, ...faults: CustodyFault[]): ClaimResult => ({ outcome: "custody", owner, lastHop, faults, attempt });
/** The graph's edges the walk travels, and one a forger may use. */
const EDGE2 = { kind: "delegate", from: "billing", to: "refunds" } as const;
const EDGE3 = { kind: "return", from: "refunds", to: "triage" } as const;
const INTAKE = { kind: "delegate", from: "intake", to: "refunds" } as const;
const END = { agent: "refunds", terminal: "refunded", outcome: "complete" };
const LONG = "x".repeat(10_000);

const cases: readonly ContractCase[] = [
  {
    name: "claims an accepted delivery and answers a redelivery of its handoff_id, at any hop, as a duplicate",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, hopIndex: 2, at: 2000 }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") })],
  },
  {
    name: "answers a redelivery under another task_id as a duplicate of the handoff",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, taskId: "other" }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") })],
  },
  {
    name: "answers the same hop from the same producer to the same receiver under a fresh id as a replay",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, handoffId: "h9", at: 5000 }, { outcome: "duplicate", of: "hop", holder: holder("h1", "billing") })],
  },
  {
    name: "a replay needs the same producer: another producer to the same receiver is out of turn",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP1, handoffId: "h9", producer: "intake", path: null }, custody("billing", 1, 1, { kind: "reset" }, { kind: "producer" })),
    ],
  },
  {
    name: "refuses a second receiver for a hop without recording it, so its id stays free",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP1, handoffId: "h2", receiver: "refunds" }, { outcome: "owner-conflict", owner: "billing", attempt: 1 }),
      claim({ ...HOP1, handoffId: "h2", receiver: "refunds", verdict: "rejected" }, { outcome: "owner-conflict", owner: "billing", attempt: 2 }),
      claim(HOP2, CLAIMED),
    ],
  },
  {
    name: "lets the owner hand the same hop number to another receiver only as the reset it is (graph scope)",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP1, handoffId: "h9", producer: "billing", receiver: "refunds", path: ["triage", "refunds"] }, custody("billing", 1, 1, { kind: "reset" }, { kind: "path", index: 1, expected: "billing" })),
    ],
  },
  {
    name: "notes rejections with their attempt, so a retry (same or fresh id) is judged afresh",
    steps: [
      claim({ ...HOP1, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, verdict: "rejected" }, { outcome: "noted", attempt: 2 }),
      claim({ ...HOP1, handoffId: "h9", verdict: "rejected" }, { outcome: "noted", attempt: 3 }),
      claim(HOP1, CLAIMED),
    ],
  },
  {
    name: "reports a rejected delivery that repeats an accepted one as the duplicate it is",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, verdict: "rejected" }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") })],
  },
  {
    name: "counts refusals per hop and per task",
    steps: [
      claim({ ...HOP1, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, taskId: "t2", handoffId: "h7", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim(HOP1, CLAIMED),
      claim({ ...HOP2, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP2, handoffId: "h9", producer: "intake" }, custody("billing", 1, 2, { kind: "producer" })),
      claim({ ...HOP1, taskId: "t2", handoffId: "h7", verdict: "rejected" }, { outcome: "noted", attempt: 2 }),
    ],
  },
  {
    name: "keeps tasks apart",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, handoffId: "h9", taskId: "t2", receiver: "refunds" }, CLAIMED)],
  },
  {
    name: "refuses a hop index that goes back (reset), with the path entry that disagrees",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      claim({ ...HOP1, handoffId: "h9", producer: "refunds", receiver: "triage", path: ["triage", "refunds"] }, custody("refunds", 2, 1, { kind: "reset" }, { kind: "path", index: 1, expected: "billing" })),
    ],
  },
  {
    name: "refuses a hop index that skips the next hop",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP3, hopIndex: 4, producer: "billing", path: ["triage", "billing", "x", "billing", "triage"] }, custody("billing", 1, 1, { kind: "skip" })),
    ],
  },
  {
    name: "refuses a producer that is not the owner, leaving the owner's own path entry to that fault",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      claim({ ...HOP3, producer: "billing", path: ["triage", "billing", "billing", "triage"] }, custody("refunds", 2, 1, { kind: "producer" })),
      claim({ ...HOP3, producer: null, path: ["triage", "billing", "billing", "triage"] }, custody("refunds", 2, 2, { kind: "producer" })),
    ],
  },
  {
    name: "refuses a path that rewrites who held the task, at the first disagreeing entry",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      claim({ ...HOP3, path: ["intake", "refunds", "refunds", "triage"] }, custody("refunds", 2, 1, { kind: "path", index: 0, expected: "triage" })),
      claim({ ...HOP3, path: ["triage", "billing", "intake", "triage"] }, custody("refunds", 2, 2, { kind: "path", index: 2, expected: "refunds" })),
      claim(HOP3, CLAIMED),
    ],
  },
  {
    name: "compares no path when the last accepted hop had none, or the delivery has none",
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP2, path: null }, CLAIMED), claim({ ...HOP3, path: ["a", "b", "c", "d"] }, CLAIMED), claim({ handoffId: "h4", hopIndex: 4, producer: "triage", receiver: "billing", path: null }, CLAIMED)],
  },
  {
    name: "a task ended by its owner takes no further handoff, but a redelivery is still a duplicate",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      finish({ ...END, at: 3000 }, { outcome: "finished", ended: { ...END, at: 3000, hopIndex: 2 } }),
      claim(HOP3, { outcome: "finished", ended: { ...END, at: 3000, hopIndex: 2 } }),
      claim({ ...HOP3, verdict: "rejected" }, { outcome: "finished", ended: { ...END, at: 3000, hopIndex: 2 } }),
      claim(HOP2, { outcome: "duplicate", of: "handoff", holder: holder("h2", "refunds") }),
      finish({ ...END, terminal: "gave-up", outcome: "fail", at: 4000 }, { outcome: "already-finished", ended: { ...END, at: 3000, hopIndex: 2 } }),
    ],
  },
  {
    name: "only the owner may end a task (graph scope); a task never handed on, only an entry agent",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      finish({ ...END, agent: "billing" }, { outcome: "not-owner", owner: "refunds", lastHop: 2 }),
      finish({ ...END, agent: "billing", entry: true }, { outcome: "not-owner", owner: "refunds", lastHop: 2 }),
      finish({ ...END, taskId: "never-seen", agent: "billing" }, { outcome: "not-owner", owner: null, lastHop: null }),
      claim({ ...HOP1, handoffId: "h9", taskId: "refused-only", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      finish({ ...END, taskId: "refused-only", agent: "billing" }, { outcome: "not-owner", owner: null, lastHop: null }),
      finish({ ...END, taskId: "never-seen", agent: "triage", entry: true }, { outcome: "finished", ended: { ...END, agent: "triage", at: 1000, hopIndex: null } }),
      claim({ ...HOP1, handoffId: "h8", taskId: "never-seen" }, { outcome: "finished", ended: { ...END, agent: "triage", at: 1000, hopIndex: null } }),
    ],
  },
  {
    name: "receiver scope: a task never handed on is ended by any agent",
    scope: "receiver",
    steps: [finish({ ...END, agent: "billing" }, { outcome: "finished", ended: { ...END, agent: "billing", at: 1000, hopIndex: null } })],
  },
  {
    name: "receiver scope: checks resets, attempts and its own ends, not owners, skips or paths",
    scope: "receiver",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP3, hopIndex: 5, producer: "intake", receiver: "billing", path: ["z"] }, CLAIMED),
      claim({ ...HOP2, receiver: "billing" }, custody("billing", 5, 1, { kind: "reset" })),
      // Both over no edge of the graph: one count for the round.
      claim({ ...HOP1, handoffId: "h8", producer: "billing", receiver: "refunds" }, { outcome: "owner-conflict", owner: "billing", attempt: 2 }),
      // Hop 1 again after this receiver's hop 5: an older hop, a reset (its latest again would be a replay).
      claim({ ...HOP1, handoffId: "h9" }, custody("billing", 5, 3, { kind: "reset" })),
      finish({ ...END, agent: "intake" }, { outcome: "finished", ended: { ...END, agent: "intake", at: 1000, hopIndex: 5 } }),
      claim({ ...HOP3, handoffId: "h10", hopIndex: 6 }, { outcome: "finished", ended: { ...END, agent: "intake", at: 1000, hopIndex: 5 } }),
    ],
  },
  {
    name: "forgets an idle task whole after the TTL, on the requests' clock; each write restarts it",
    ttlSeconds: 60,
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP2, verdict: "rejected", at: 50_000 }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, at: 109_999 }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") }),
      claim({ ...HOP1, taskId: "other", at: 109_999 }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") }),
      // A redelivery wrote nothing: the task's last write was at 50,000.
      claim({ ...HOP1, at: 110_000 }, CLAIMED),
      claim({ ...HOP2, verdict: "rejected", at: 110_000 }, { outcome: "noted", attempt: 1 }),
      finish({ ...END, agent: "billing", at: 110_000 }, { outcome: "finished", ended: { ...END, agent: "billing", at: 110_000, hopIndex: 1 } }),
      claim({ ...HOP2, at: 169_999 }, { outcome: "finished", ended: { ...END, agent: "billing", at: 110_000, hopIndex: 1 } }),
      // Forgotten: hop 2 has no recorded hop 1, so the task cannot continue.
      claim({ ...HOP2, at: 170_000 }, custody(null, null, 1, { kind: "skip" })),
      claim({ ...HOP1, at: 170_000 }, CLAIMED),
    ],
  },
  {
    name: "forgets a handoff with its task: under another task_id after the TTL it is new",
    ttlSeconds: 60,
    steps: [claim(HOP1, CLAIMED), claim({ ...HOP1, taskId: "other", at: 61_000 }, CLAIMED), claim({ ...HOP1, at: 61_000 }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing", 61_000) })],
  },
  {
    name: "takes ids holding the key separators as ids of their own",
    steps: [
      claim({ ...HOP1, taskId: "t:a:x", handoffId: "x" }, CLAIMED),
      claim({ ...HOP1, taskId: "x", handoffId: "t:a:x" }, CLAIMED),
      claim({ ...HOP1, taskId: "t#x", handoffId: "a#x" }, CLAIMED),
      claim({ ...HOP1, taskId: "t", handoffId: "t:x" }, CLAIMED),
      claim({ ...HOP1, taskId: "t:x", handoffId: "x:1" }, CLAIMED),
      // Empty ids (a schema-invalid envelope still names its hop, and is claimed as rejected).
      claim({ ...HOP1, taskId: "", handoffId: "", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, taskId: "", handoffId: "" }, CLAIMED),
      claim({ ...HOP1, taskId: "t", handoffId: "" }, { outcome: "duplicate", of: "handoff", holder: holder("", "billing") }),
    ],
  },
  {
    name: "takes long ids, and ids that differ only after their first 200 characters or in an unpaired surrogate, as different",
    steps: [
      claim({ ...HOP1, taskId: LONG, handoffId: LONG }, CLAIMED),
      claim({ ...HOP1, taskId: `${LONG}y`, handoffId: `${LONG}y` }, CLAIMED),
      claim({ ...HOP1, taskId: LONG.slice(0, 200), handoffId: LONG.slice(0, 200) }, CLAIMED),
      claim({ ...HOP1, taskId: LONG, handoffId: "h9" }, { outcome: "duplicate", of: "hop", holder: holder(LONG, "billing") }),
      claim({ ...HOP1, taskId: "t\ud800", handoffId: "u\ud800", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, taskId: "t\udc00", handoffId: "u\udc00", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, taskId: "t\ufffd", verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, taskId: "t\u0000\n\u202e", handoffId: "\u0000" }, CLAIMED),
    ],
  },
  {
    name: "keeps whole numbers exact up to the largest safe integer, and times as given, far apart",
    // One receiver's view: a first hop past 1 is a gap.
    scope: "receiver",
    steps: [
      claim({ ...HOP1, hopIndex: Number.MAX_SAFE_INTEGER - 1, path: null, at: 1.5 }, CLAIMED),
      claim({ ...HOP2, hopIndex: Number.MAX_SAFE_INTEGER - 1, producer: "intake", receiver: "billing", path: null }, custody("billing", Number.MAX_SAFE_INTEGER - 1, 1, { kind: "reset" })),
      claim({ ...HOP2, hopIndex: Number.MAX_SAFE_INTEGER, path: null, at: -2 }, CLAIMED),
      finish({ ...END, at: 2000.25 }, { outcome: "finished", ended: { ...END, at: 2000.25, hopIndex: Number.MAX_SAFE_INTEGER } }),
      finish({ ...END, at: 8.64e15 }, { outcome: "finished", ended: { ...END, at: 8.64e15, hopIndex: null } }),
    ],
  },
  {
    name: "counts refusals per producer for the hop the task awaits, whatever hop.index each claims; an accepted hop clears them",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP2, edge: EDGE2, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP2, handoffId: "h5", edge: EDGE2, hopIndex: 7, path: null }, custody("billing", 1, 2, { kind: "skip" })),
      claim({ ...HOP2, handoffId: "h6", edge: EDGE2, hopIndex: 0, path: null }, custody("billing", 1, 3, { kind: "reset" })),
      // Another producer's forgeries count in its own count, over its edge or over none.
      claim({ ...HOP2, handoffId: "h7", producer: "intake", edge: INTAKE, path: null }, custody("billing", 1, 1, { kind: "producer" })),
      claim({ ...HOP2, handoffId: "h8", producer: "intake", edge: INTAKE, hopIndex: 9, path: null }, custody("billing", 1, 2, { kind: "skip" }, { kind: "producer" })),
      claim({ ...HOP2, handoffId: "h9", producer: "stranger", path: null }, custody("billing", 1, 1, { kind: "producer" })),
      claim({ ...HOP2, handoffId: "h10", producer: "other", hopIndex: 4, path: null }, custody("billing", 1, 2, { kind: "skip" }, { kind: "producer" })),
      claim({ ...HOP2, edge: EDGE2 }, CLAIMED),
      claim({ ...HOP3, edge: EDGE3, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP3, handoffId: "h11", producer: "intake", edge: INTAKE, path: null }, custody("refunds", 2, 1, { kind: "producer" })),
    ],
  },
  {
    name: "counts a delivery with no usable handoff_id or hop index, and checks nothing else for it",
    steps: [
      claim({ ...HOP1, handoffId: null, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP1, hopIndex: null, verdict: "rejected" }, { outcome: "noted", attempt: 2 }),
      claim({ ...HOP1, handoffId: null, hopIndex: null, edge: { kind: "delegate", from: "triage", to: "billing" }, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim(HOP1, CLAIMED),
      // No duplicate, owner or turn check for what cannot be keyed: h1 again is only counted.
      claim({ ...HOP1, hopIndex: null, verdict: "rejected" }, { outcome: "noted", attempt: 1 }),
      claim({ ...HOP2, handoffId: null, producer: "intake", verdict: "rejected" }, { outcome: "noted", attempt: 2 }),
      finish({ ...END, agent: "billing" }, { outcome: "finished", ended: { ...END, agent: "billing", at: 1000, hopIndex: 1 } }),
      claim({ ...HOP2, handoffId: null, verdict: "rejected" }, { outcome: "finished", ended: { ...END, agent: "billing", at: 1000, hopIndex: 1 } }),
    ],
  },
  {
    name: "an older hop sent again after the task moved on is a reset, not a replay; the latest hop again is a replay",
    steps: [
      claim(HOP1, CLAIMED),
      claim(HOP2, CLAIMED),
      claim({ ...HOP2, handoffId: "h8" }, { outcome: "duplicate", of: "hop", holder: holder("h2", "refunds") }),
      claim(HOP3, CLAIMED),
      claim({ ...HOP1, handoffId: "h9", producer: "triage" }, custody("triage", 3, 1, { kind: "reset" })),
      claim({ ...HOP2, handoffId: "h10" }, custody("triage", 3, 2, { kind: "reset" }, { kind: "producer" })),
    ],
  },
  {
    name: "receiver scope: an older hop of its own again is a reset, its latest a replay",
    scope: "receiver",
    steps: [
      claim(HOP1, CLAIMED),
      claim({ ...HOP3, receiver: "billing" }, CLAIMED),
      claim({ ...HOP1, handoffId: "h9" }, custody("billing", 3, 1, { kind: "reset" })),
      claim({ ...HOP3, handoffId: "h8", receiver: "billing" }, { outcome: "duplicate", of: "hop", holder: holder("h3", "billing") }),
    ],
  },
  {
    name: "a task starts at hop 1 (graph scope): a first delivery past it is a skip, below it a reset, with no owner",
    steps: [
      claim(HOP3, custody(null, null, 1, { kind: "skip" })),
      claim({ ...HOP1, hopIndex: 0, path: null }, custody(null, null, 2, { kind: "reset" })),
      claim({ ...HOP3, taskId: "t ", handoffId: "h8", verdict: "rejected" }, custody(null, null, 1, { kind: "skip" })),
      claim(HOP1, CLAIMED),
    ],
  },
  {
    name: "receiver scope: a first delivery at any hop is a gap, not a fault",
    scope: "receiver",
    steps: [claim(HOP3, CLAIMED), claim({ ...HOP1, taskId: "t2", handoffId: "h9", hopIndex: 0, path: null }, CLAIMED)],
  },
  {
    name: "another producer's use of a handoff_id is not a duplicate of it: a forger cannot take an id it saw in flight",
    steps: [
      claim({ ...HOP1, producer: "intake", taskId: "junk" }, CLAIMED),
      claim(HOP1, CLAIMED),
      claim({ ...HOP1, at: 2000 }, { outcome: "duplicate", of: "handoff", holder: holder("h1", "billing") }),
    ],
  },
  {
    name: "keeps the task's last accepted budget: a later hop may not raise or drop a limit, nor lower or hide spend",
    steps: [
      claim({ ...HOP1, budget: { limit: { tokens: 100, retries: 3 }, consumed: { tokens: 10, tool_calls: 2 } } }, CLAIMED),
      claim(
        { ...HOP2, edge: EDGE2, budget: { limit: { tokens: 1000 }, consumed: { tokens: 5 } } },
        custody(
          "billing",
          1,
          1,
          { kind: "budget-limit", counter: "tokens", before: 100, hop: 1 },
          { kind: "budget-consumed", counter: "tokens", before: 10, hop: 1 },
          { kind: "budget-consumed", counter: "tool_calls", before: 2, hop: 1 },
          { kind: "budget-limit", counter: "retries", before: 3, hop: 1 },
        ),
      ),
      // The same limits or lower, the same spend or more: in turn.
      claim({ ...HOP2, edge: EDGE2, budget: { limit: { tokens: 90, retries: 3 }, consumed: { tokens: 10, tool_calls: 5 } } }, CLAIMED),
      // The hop's budget is now the one to hold to.
      claim({ ...HOP3, edge: EDGE3, budget: { limit: { tokens: 100, retries: 3 }, consumed: { tokens: 10, tool_calls: 5 } } }, custody("refunds", 2, 1, { kind: "budget-limit", counter: "tokens", before: 90, hop: 2 })),
    ],
  },
  {
    name: "holds a task that waits for approval to the resumption citing the pending handoff, which clears the wait",
    steps: [
      claim({ ...HOP1, approval: { waits: false, cites: null } }, CLAIMED),
      claim({ ...HOP2, edge: EDGE2, approval: { waits: true, cites: null } }, CLAIMED),
      // Not cited, then another handoff cited: both out of turn, counted in the producer's round.
      claim({ ...HOP3, edge: EDGE3, approval: { waits: false, cites: null } }, custody("refunds", 2, 1, { kind: "approval", pending: "h2" })),
      claim({ ...HOP3, edge: EDGE3, approval: { waits: false, cites: "h1" } }, custody("refunds", 2, 2, { kind: "approval", pending: "h2" })),
      // A rejected resumption owns nothing and leaves the wait; the accepted one ends it.
      claim({ ...HOP3, edge: EDGE3, verdict: "rejected", approval: { waits: false, cites: "h2" } }, { outcome: "noted", attempt: 3 }),
      claim({ ...HOP3, edge: EDGE3, approval: { waits: false, cites: "h2" } }, CLAIMED),
      claim({ handoffId: "h4", hopIndex: 4, producer: "triage", receiver: "billing", path: ["triage", "billing", "refunds", "triage", "billing"], approval: { waits: false, cites: null } }, CLAIMED),
    ],
  },
  {
    name: "with no approval pending, an approval cites the task's last accepted handoff; with none given (envelope 1.3) nothing is kept",
    steps: [
      claim({ ...HOP1, approval: { waits: false, cites: null } }, CLAIMED),
      claim({ ...HOP2, edge: EDGE2, approval: { waits: false, cites: "h9" } }, custody("billing", 1, 1, { kind: "approval-cite", expected: "h1" })),
      claim({ ...HOP2, edge: EDGE2, approval: { waits: true, cites: "h1" } }, CLAIMED),
      // A store asked without approval facts neither checks nor keeps the wait.
      claim({ ...HOP3, edge: EDGE3, approval: null }, CLAIMED),
    ],
  },
  {
    name: "receiver scope: a wait is held among the hops to its receiver; citations are not compared with the last handoff",
    scope: "receiver",
    steps: [
      claim({ ...HOP1, approval: { waits: true, cites: "h0" } }, CLAIMED),
      claim({ ...HOP3, handoffId: "h3", receiver: "billing", edge: EDGE3, approval: { waits: false, cites: null } }, custody("billing", 1, 1, { kind: "approval", pending: "h1" })),
      claim({ ...HOP3, handoffId: "h3", receiver: "billing", edge: EDGE3, approval: { waits: false, cites: "h1" } }, CLAIMED),
      claim({ handoffId: "h5", hopIndex: 5, producer: "triage", receiver: "billing", path: null, approval: { waits: false, cites: "h4" } }, CLAIMED),
    ],
  },
];

type StoreMaker = (options: { scope?: "graph" | "receiver"; ttlSeconds?: number }) => Promise<Required<AsyncSeenStore>>;

const BASE_CLAIM: ClaimRequest = { handoffId: "h1", taskId: "t", hopIndex: 1, producer: "triage", receiver: "billing", edge: null, verdict: "accepted", at: 1000, path: null };
const BASE_FINISH: FinishRequest = { taskId: "t", agent: "refunds", terminal: "refunded", outcome: "complete", at: 1000, entry: false };

async function run(make: StoreMaker, contract: ContractCase): Promise<void> {
  const store = await make({ ...(contract.scope === undefined ? {} : { scope: contract.scope }), ...(contract.ttlSeconds === undefined ? {} : { ttlSeconds: contract.ttlSeconds }) });
  for (const [i, step] of contract.steps.entries()) {
    const answer = "claim" in step ? await store.claim({ ...BASE_CLAIM, ...step.claim }) : await store.finish({ ...BASE_FINISH, ...step.finish });
    expect(answer, `step ${i}`).toEqual(step.expect);
  }
}

const redis = useRedis();

describe("the store contract: memory store", () => {
  const make: StoreMaker = async ({ scope, ttlSeconds }) =>
    createMemorySeenStore({ ...(scope === undefined ? {} : { scope }), ...(ttlSeconds === undefined ? {} : { ttlMs: ttlSeconds * 1000 }) });
  it.each(cases)("$name", (contract) => run(make, contract));
});

describe.skipIf(!redisAvailable)("the store contract: Redis store", () => {
  const make: StoreMaker = (options) => redis.store(options);
  it.each(cases)("$name", (contract) => run(make, contract));
});
