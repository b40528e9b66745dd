/**
 * The drift check (`seam import --check`): the structure of a framework's graph against a `.seam`
 * graph, one finding (error) for each agent, edge, entry or end that one has and the other lacks.
 * Roles, edge kinds, guards and required fields are the contract's own (the source cannot state
 * them), so they are not compared; an edge counts by its two agents. Agents and edges are matched
 * as `seam diff` matches two versions (`diff/graph-pair.ts`): the framework's graph is the old
 * side, the `.seam` graph the new, and an agent's edges go with it (one finding for the agent).
 * Findings point into the `.seam` file.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { createDiagnostic, type Diagnostic, type RuleMeta } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import { graphSide, matchGraphs } from "../diff/graph-pair.js";
import { edgePlace, graphPlace, nearestAgentPlace } from "../diff/places.js";

const driftAgent: RuleMeta = { id: "drift-agent", severity: "error", description: "An agent is in the framework's graph or the .seam graph, not both." };
const driftEdge: RuleMeta = { id: "drift-edge", severity: "error", description: "An edge is in the framework's graph or the .seam graph, not both." };
const driftEntry: RuleMeta = { id: "drift-entry", severity: "error", description: "An entry is in the framework's graph or the .seam graph, not both." };
const driftEnd: RuleMeta = { id: "drift-end", severity: "error", description: "An agent ends tasks in the framework's graph or the .seam graph, not both." };

/** The finding ids of the drift check (for SARIF's rule list and the docs). */
export const DRIFT_RULES: readonly RuleMeta[] = [driftAgent, driftEdge, driftEntry, driftEnd];

/** One side of the check. */
export interface DriftSide {
  readonly file: SourceFile;
  readonly graph: CheckedGraph;
}

/**
 * The drift findings between the framework's graph (as imported, `code`) and the `.seam` graph,
 * in the `.seam` file's order (agents, edges, entries, ends).
 *
 * @param source - the framework, as messages name it (`LangGraph`)
 */
export function driftFindings(source: string, code: DriftSide, seam: DriftSide): Diagnostic[] {
  const codeSide = graphSide(code.file, code.graph);
  const seamSide = graphSide(seam.file, seam.graph);
  const pair = matchGraphs(codeSide, seamSide);
  const out: Diagnostic[] = [];
  const report = (rule: RuleMeta, range: Range, message: string): void => {
    out.push(createDiagnostic(rule, { file: seam.file, range, message }));
  };
  // "the LangGraph graph", "the OpenAI Agents SDK graph", "the seam graph picture".
  const named = source.replace(/^(?:the|a) /, "");
  const the = named.endsWith(" picture") ? `the ${named}` : `the ${named} graph`;
  for (const agent of pair.removedAgents) {
    report(driftAgent, graphPlace(seamSide).range, `${the} has agent '${agent.id}', which this graph lacks: add it, or remove it from the code`);
  }
  for (const agent of pair.addedAgents) {
    report(driftAgent, agent.decl.name.range, `agent '${agent.id}' is not in ${the}: remove it, or add it to the code`);
  }
  for (const edge of pair.removedEdges) {
    report(driftEdge, nearestAgentPlace(seamSide, edge.from).range, `${the} has an edge ${edge.from} -> ${edge.to}, which this graph lacks: add it, or remove it from the code`);
  }
  for (const edge of pair.addedEdges) {
    if (!codeSide.agents.has(edge.from) || !codeSide.agents.has(edge.to)) continue;
    report(driftEdge, edgePlace(seamSide, edge).range, `the edge ${edge.from} -> ${edge.to} is not in ${the}: remove it, or add it to the code`);
  }
  const entryDecl = seam.graph.decl.items.find((item) => item.kind === "Entry" && !item.hasError);
  const entryNames = entryDecl?.kind === "Entry" ? (entryDecl.agents ?? []) : [];
  for (const id of code.graph.entries) {
    if (!seam.graph.entries.includes(id) && seamSide.agents.has(id)) {
      report(driftEntry, (entryDecl ?? seam.graph.decl.name).range, `${the} starts tasks at '${id}', which this graph's entry does not name: add it, or change the code`);
    }
  }
  for (const id of seam.graph.entries) {
    if (!code.graph.entries.includes(id) && codeSide.agents.has(id)) {
      const at = entryNames.find((name) => name.name === id);
      report(driftEntry, (at ?? seam.graph.decl.name).range, `${the} does not start tasks at '${id}': remove it from entry, or change the code`);
    }
  }
  for (const { old, new: mine } of pair.keptAgents) {
    if (old.terminals.length > 0 && mine.terminals.length === 0) {
      report(driftEnd, mine.decl.name.range, `${the} can end tasks at '${mine.id}', which has no terminal here: add one, or change the code`);
    } else if (old.terminals.length === 0 && mine.terminals.length > 0) {
      const first = mine.decl.items.find((item) => item.kind === "Terminal");
      report(driftEnd, (first ?? mine.decl.name).range, `${the} never ends tasks at '${mine.id}': remove its terminals, or change the code`);
    }
  }
  return out;
}
