/** `from_agent.role` and `to_agent.role` are the roles the graph gives the agents. */
import type { Role } from "../graph-data.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const roleMismatch = ingestRule("role-mismatch", "graph", "/<side>/role");

const ROLES: ReadonlySet<unknown> = new Set(["supervisor", "worker", "peer"]);

export function checkRole(side: "from_agent" | "to_agent", id: string, role: Role, claimed: unknown, graphName: string, reasons: Reason[]): void {
  // Not a role at all: the schema says so.
  if (claimed !== role && ROLES.has(claimed)) {
    reasons.push(ruleReason(`/${side}/role`, roleMismatch.id, "role", { agent: id, role, graph: graphName, claimed: String(claimed) }));
  }
}
