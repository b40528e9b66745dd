/**
 * `textDocument/hover`: an agent's role, version, terminals and edges; an edge's kind, bound and
 * required fields with what each means (the envelope schema's descriptions); a graph's entries,
 * size and hop limit; a field path's meaning; a terminal's outcome. Markdown, with every text
 * taken from the graph escaped and bounded ({@link markdownText}).
 */
import type { Hover } from "vscode-languageserver/node";
import { countOf } from "../analysis/describe.js";
import { describeField, splitFieldPath } from "../analysis/field-paths.js";
import type { CheckedEdge, CheckedFloor, CheckedGraph, CheckedJoin } from "../analysis/model.js";
import { EDGE_SETTINGS, type SettingSpec } from "../core/settings.js";
import { guardText } from "../parser/print.js";
import type { FieldPath } from "../parser/ast.js";
import { DEFAULT_CONTRACTS, type AgentNode, type Analysis, type EdgeNode, type GraphNode, type TerminalNode } from "./front-end.js";
import { locate } from "./locate.js";
import { boundedList, markdownText } from "./markdown.js";
import type { NameOccurrence } from "./names.js";
import { toLspRange } from "./positions.js";

/** The hover at `offset`, or `null` where there is nothing to explain. */
export function hoverAt(analysis: Analysis, offset: number): Hover | null {
  const found = locate(analysis, offset);
  if (found === undefined) return null;
  let text: string | undefined;
  let range;
  switch (found.kind) {
    case "name":
      text = found.occurrence.kind === "graph" ? graphHover(found.occurrence.graph, found.checked) : agentHover(found.occurrence, found.checked);
      range = found.occurrence.range;
      break;
    case "edge": {
      const { edge } = found;
      text = edgeHover(edge, found.checked);
      range = { start: edge.range.start, end: (edge.to ?? edge.from ?? edge.edgeKind)?.range.end ?? edge.range.end };
      break;
    }
    case "field":
      text = fieldHover(found.path);
      range = found.path.range;
      break;
    case "terminal":
      text = terminalHover(found.terminal, found.agent);
      range = found.terminal.name?.range ?? found.terminal.range;
      break;
    case "setting":
      text = `**${found.setting.keyword}** (${found.block} setting): ${found.setting.summary}`;
      range = found.range;
      break;
  }
  if (text === undefined) return null;
  return { contents: { kind: "markdown", value: text }, range: toLspRange(analysis.file, range) };
}

function agentHover(occurrence: NameOccurrence, checked: CheckedGraph | undefined): string {
  const agent = checked?.agents.find((a) => a.id === occurrence.name);
  if (agent === undefined) {
    return `**agent** \`${occurrence.name}\`: not declared in graph \`${occurrence.graph.name?.name ?? ""}\``;
  }
  const version = agent.version === undefined ? "" : `, version ${markdownText(agent.version)}`;
  const lines = [`**agent** \`${agent.id}\`: ${agent.role}${version}`];
  if (!agent.reachable) lines.push("", "No entry reaches this agent.");
  if (agent.join !== undefined) lines.push("", joinHover(agent.join));
  lines.push("", agent.terminals.length === 0 ? "No terminals." : "Terminals:");
  lines.push(
    ...boundedList(
      agent.terminals.map((t) => `- \`${t.id}\` (${t.outcome})${t.description === undefined ? "" : `: ${markdownText(t.description)}`}`),
    ),
  );
  const edges = checked?.edges ?? [];
  const out = edges
    .filter((e) => e.from === agent.id)
    .map((e) => `- ${e.kind} to \`${e.to}\`${roundsNote(e.maxRounds)}${e.fanOut === undefined ? "" : `, a branch of fan-out \`${e.fanOut}\``}`);
  const into = edges.filter((e) => e.to === agent.id).map((e) => `- ${e.kind} from \`${e.from}\`${roundsNote(e.maxRounds)}`);
  // Edges naming an agent the graph lacks are not in the model (unknown-agent): listed from the text.
  const declared = new Set(checked?.agents.map((a) => a.id));
  for (const item of occurrence.graph.items ?? []) {
    if (item.kind !== "Edge" || item.from === undefined || item.to === undefined) continue;
    const kind = item.edgeKind?.value ?? "edge";
    if (item.from.name === agent.id && !declared.has(item.to.name)) out.push(`- ${kind} to \`${item.to.name}\`, which is no agent of the graph`);
    if (item.to.name === agent.id && !declared.has(item.from.name)) into.push(`- ${kind} from \`${item.from.name}\`, which is no agent of the graph`);
  }
  lines.push("", out.length === 0 ? "Hands off to no one." : "Hands off:", ...boundedList(out));
  lines.push("", into.length === 0 ? "Receives from no one." : "Receives:", ...boundedList(into));
  return lines.join("\n");
}

/** What a join waits for, how long, and what then, in a sentence. */
function joinHover(join: CheckedJoin): string {
  const wait = join.wait === "all" ? "all" : join.wait === "any" ? "the first" : String(join.wait);
  const inputs = join.inputs.map((i) => `\`${i}\``).join(", ");
  const within = join.within === undefined ? "" : ` within ${join.within} seconds`;
  const otherwise = join.otherwise === "escalate" ? "escalates to a person" : `ends at \`${join.otherwise.terminal}\``;
  return `Join: waits for ${wait} of ${inputs}${within} before the task goes on; otherwise the task ${otherwise}.`;
}

function roundsNote(maxRounds: number | undefined): string {
  return maxRounds === undefined ? "" : ` (max_rounds ${maxRounds})`;
}

function graphHover(decl: GraphNode, checked: CheckedGraph | undefined): string {
  if (checked === undefined) return `**graph** \`${decl.name?.name ?? ""}\``;
  const { hopLimit } = checked;
  const limit =
    hopLimit.declared !== undefined
      ? `${hopLimit.declared} (declared)`
      : hopLimit.value !== undefined
        ? `${hopLimit.value} (auto)`
        : "auto, cannot be computed";
  const entries = checked.entries.length === 0 ? "none" : checked.entries.map((e) => `\`${e}\``).join(", ");
  return [
    `**graph** \`${checked.name}\`: ${countOf(checked.agents.length, "agent")}, ${countOf(checked.edges.length, "edge")}`,
    "",
    `- entry: ${entries}`,
    `- envelope: ${checked.envelope.major}.${checked.envelope.minor}`,
    `- hop limit: ${limit}, then ${checked.onHopLimit}`,
  ].join("\n");
}

/** An edge, whole or half-written (`…` stands for a part not written yet). */
function edgeHover(edge: EdgeNode, checked: CheckedGraph | undefined): string | undefined {
  const kind = edge.edgeKind?.value;
  if (kind === undefined) return undefined;
  const bound = checked?.edges.find((e) => e.decl === edge);
  const own = (edge.items ?? []).flatMap((item) => (item.kind === "Require" ? (item.paths ?? []).map((p) => p.text) : []));
  const contract = checked?.contracts[kind] ?? DEFAULT_CONTRACTS[kind];
  const required = bound?.require ?? [...new Set([...contract, ...own])].sort();
  const settings = bound === undefined ? "" : EDGE_SETTINGS.map((spec) => settingNote(spec, bound)).join("");
  const guard = edge.guard === undefined || edge.guard.hasError ? "" : ` · ${guardText(edge.guard)}`;
  const observe = edge.observe === undefined ? "" : " · observe (violations are warnings)";
  const lines = [`**${kind}** \`${edge.from?.name ?? "…"} -> ${edge.to?.name ?? "…"}\`${guard}${settings}${observe}`];
  if (checked !== undefined && bound === undefined) lines.push("", "Not part of the checked graph: see this edge's diagnostics.");
  lines.push("", "Required fields:");
  for (const path of required) {
    const info = describeField(splitFieldPath(path));
    lines.push(`- \`${path}\`${info === undefined ? "" : ` (${info.type})${info.description === undefined ? "" : `: ${info.description}`}`}`);
  }
  return lines.join("\n");
}

/**
 * ` · keyword value` for a setting of the settings table that the edge has (` · unbounded` and
 * the like where the table says what its absence means); the required fields are listed apart.
 */
function settingNote(spec: SettingSpec, edge: CheckedEdge): string {
  if (spec.value === "paths") return "";
  const value = (edge as unknown as Record<string, unknown>)[spec.model];
  if (value === undefined) return spec.whenAbsent === undefined ? "" : ` · ${spec.whenAbsent}`;
  if (spec.value === "flag") return ` · ${spec.keyword}`;
  if (spec.value === "floor") {
    const floor = value as CheckedFloor;
    return ` · ${spec.keyword} ${floor.value}${floor.decisions.length === 0 ? "" : ` for ${floor.decisions.join(", ")}`}`;
  }
  return ` · ${spec.keyword} ${String(value)}`;
}

function fieldHover(path: FieldPath): string | undefined {
  const info = describeField(path.segments);
  if (info === undefined) return undefined;
  return `\`${path.text}\` (${info.type})${info.description === undefined ? "" : `: ${info.description}`}`;
}

function terminalHover(terminal: TerminalNode, agent: AgentNode): string {
  const outcome = terminal.outcome?.value ?? "complete";
  const description = terminal.description === undefined ? "" : `\n\n${markdownText(terminal.description.value)}`;
  return `**terminal** \`${terminal.name?.name ?? ""}\` of agent \`${agent.name?.name ?? ""}\`: ${outcome}${description}`;
}
