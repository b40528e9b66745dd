/**
 * The reasons for a delivery the task ledger found out of turn (a `custody` claim): one per
 * fault, each at the field that is wrong, each naming the task's owner and last accepted hop (or,
 * for a task with no accepted hop, that it starts at hop 1).
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { ContentVerdict } from "./envelope-check.js";
import { reason, type Reason } from "./reason.js";
import type { ClaimResult, CustodyFault } from "./seen-store.js";

type Custody = Extract<ClaimResult, { outcome: "custody" }>;

/**
 * Words the faults of a `custody` claim.
 *
 * @param content - the delivery's content verdict (its header names the task and hop)
 * @param claimed - the store's answer
 */
export function custodyReasons(content: ContentVerdict, claimed: Custody): Reason[] {
  const task = quoteUntrusted(content.taskId);
  const index = content.hopIndex as number;
  const { lastHop } = claimed;
  if (claimed.owner === null || lastHop === null) return claimed.faults.map((fault) => unstartedReason(fault, task, index));
  const owner = quoteUntrusted(claimed.owner);
  const last = `hop ${lastHop} was accepted last, by ${owner}, so the next hop is ${lastHop + 1}`;
  return claimed.faults.map((fault) => {
    switch (fault.kind) {
      case "reset":
        return reason("/hop/index", "hop-reset", `hop ${index} of task ${task} goes back: ${last} (a counter that is reset disables the hop limit)`);
      case "skip": {
        const missing = index - 1 === lastHop + 1 ? `hop ${lastHop + 1}` : `hops ${lastHop + 1} to ${index - 1}`;
        return reason("/hop/index", "hop-skipped", `hop ${index} of task ${task} skips ${missing}, which no one accepted: ${last}`);
      }
      case "producer":
        return reason(
          "/from_agent/id",
          "not-owner",
          `${content.producer === undefined ? "a producer with no from_agent.id" : quoteUntrusted(content.producer)} does not own task ${task}: ${owner} accepted its last hop (${lastHop}), so only ${owner} may hand it on`,
        );
      case "path":
        return reason(
          `/hop/path/${fault.index}`,
          "path-disagrees",
          `says ${quoteUntrusted(content.path?.[fault.index])}, but the ledger of task ${task} records ${quoteUntrusted(fault.expected)} at this step (${last})`,
        );
      default:
        return unknownFault(fault);
    }
  });
}

/** A fault of a task with no accepted hop (graph scope): it starts at hop 1. */
function unstartedReason(fault: CustodyFault, task: string, index: number): Reason {
  switch (fault.kind) {
    case "reset":
      return reason("/hop/index", "hop-reset", `hop ${index} of task ${task} goes back: no hop of the task is recorded, so its first hop is 1 (a counter that is reset disables the hop limit)`);
    case "skip":
      return reason(
        "/hop/index",
        "hop-skipped",
        `hop ${index} of task ${task} cannot be its first: no earlier hop of the task is recorded, and a task starts at hop 1 (a task forgotten after its idle TTL cannot continue either)`,
      );
    default:
      return unknownFault(fault);
  }
}

function unknownFault(fault: CustodyFault): never {
  throw new TypeError(`options.seen.claim returned an unknown custody fault ${quoteUntrusted((fault as { kind?: unknown }).kind)}`);
}
