/** Each `hop.path` entry the ledger recorded is the agent it recorded. */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const pathDisagrees = ingestRule("path-disagrees", "ledger", "/hop/path/<i>");

/** `agent`, `task` and `expected` are quoted already. */
export function pathDisagreesReason(index: number, agent: string, task: string, expected: string, ledger: string): Reason {
  return ruleReason(`/hop/path/${index}`, pathDisagrees.id, "step", { agent, task, expected, ledger });
}
