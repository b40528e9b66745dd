// The handoffs of the Redis race and fault tests, shared by the workers and the test.
/** How many handoffs every worker delivers. */
export const HANDOFFS = 1000;

/**
 * Worker w's delivery of handoff i: even workers send the original id, odd ones a fresh id (a
 * replay of the same hop); workers 0, 1, 4, 5... are receiver `billing`, the others
 * `billing-standby` (an owner conflict). Handoff i is hop 1 of task i: the first hop the ledger
 * sees of its task, so every worker races for the same hop and nothing else.
 */
export function delivery(i, w) {
  return {
    handoffId: w % 2 === 0 ? `h-${i}` : `h-${i}-replay-${w}`,
    taskId: `task-${i}`,
    hopIndex: 1,
    producer: "triage",
    receiver: w % 4 < 2 ? "billing" : "billing-standby",
    edge: null,
    verdict: "accepted",
    at: Date.now(),
  };
}
