/** `hop.path` takes each bounded edge at most `max_rounds` times (the walk is in `bad-hop-path.ts`). */
import { ordinal } from "../ordinal.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const maxRoundsExceeded = ingestRule("max-rounds-exceeded", "graph", "/hop/path/<i>");

/** Reports step `i` (`from -> to`), taken for the `taken`th time, when that is one past `rounds`. */
export function checkRounds(i: number, from: string, to: string, taken: number, rounds: number, reasons: Reason[]): void {
  if (taken === rounds + 1) reasons.push(ruleReason(`/hop/path/${i}`, maxRoundsExceeded.id, "rounds", { from, to, nth: ordinal(taken), rounds }));
}
