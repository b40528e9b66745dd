/**
 * Routers that lost a route at binding. A second declaration of an edge is dropped (the first
 * wins, and `duplicate-edge` reports the second), its guard with it; `return b -> a when ...`
 * beside `return b -> a otherwise` is one such pair. The guard rules leave those routers alone:
 * without the dropped route they would show gaps and shadows that nobody wrote, and
 * `duplicate-edge` already says what to fix.
 */
import type { BoundGraph } from "./bind.js";

/** The ids of the agents out of which binding dropped a guarded edge declared twice; empty for most graphs. */
export function agentsWithLostRoutes(bound: BoundGraph): ReadonlySet<string> {
  const agents = new Set<string>();
  for (const { decl } of bound.dropped.edges) if (decl.guard !== undefined) agents.add(decl.from.name);
  return agents;
}
