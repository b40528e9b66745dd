/**
 * Envelopes of the ledger conformance suite's graph (`conformance/ledger/`), built from its
 * `handoff.json` for any task and walk: shared by the JavaScript and Python ledger tests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkedGraph, clone, projectRoot } from "../emit/helpers.js";

export type Envelope = Record<string, any>;

const suite = join(projectRoot, "conformance", "ledger");
/** The suite's graph, checked. */
export const ledgerGraph = checkedGraph(readFileSync(join(suite, "graph.seam"), "utf8"), "ledger/graph.seam");
const base = JSON.parse(readFileSync(join(suite, "envelopes", "handoff.json"), "utf8")) as Envelope;
const roles = new Map(ledgerGraph.agents.map((agent) => [agent.id, agent.role]));

/**
 * The envelope of task `task` along `path` (its last two entries are producer and receiver, the
 * hop index is the path's handoffs), under `handoffId`, then changed by `edit`.
 */
export function ledgerEnvelope(task: unknown, path: readonly string[], handoffId: string, edit: (e: Envelope) => void = () => {}): Envelope {
  const envelope = clone(base);
  envelope["handoff_id"] = handoffId;
  envelope["task_id"] = task;
  envelope["hop"] = { index: path.length - 1, limit: 14, path: [...path] };
  const from = path[path.length - 2] as string;
  const to = path[path.length - 1] as string;
  envelope["from_agent"] = { id: from, role: roles.get(from) };
  envelope["to_agent"] = { id: to, role: roles.get(to) };
  edit(envelope);
  return envelope;
}
