/** `from_agent.version` and `to_agent.version` fit the agents' declared versions (the caret rule of `core/agent-version.ts`). */
import { checkClaimedVersion, type AgentVersion, type VersionMismatch } from "../../core/agent-version.js";
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const agentVersion = ingestRule("agent-version", "graph", "/<side>/version");

/** An agent's declared version and the verdict on the last version claimed for it (producers repeat one). */
export interface VersionMemo {
  readonly version: AgentVersion | undefined;
  lastClaimed: string | undefined;
  lastMismatch: VersionMismatch | undefined;
}

export function checkAgentVersion(side: "from_agent" | "to_agent", id: string, agent: VersionMemo, claimed: unknown, reasons: Reason[]): void {
  if (agent.version === undefined || typeof claimed !== "string") return;
  if (claimed !== agent.lastClaimed) {
    agent.lastMismatch = checkClaimedVersion(agent.version, claimed);
    agent.lastClaimed = claimed;
  }
  const mismatch = agent.lastMismatch;
  if (mismatch !== undefined) reasons.push(ruleReason(`/${side}/version`, agentVersion.id, "version", { agent: id, claimed: quoteUntrusted(claimed), why: mismatch.message }));
}
