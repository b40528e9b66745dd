/**
 * `seam import`: a framework's graph (LangGraph, the OpenAI Agents SDK, AutoGen GraphFlow,
 * CrewAI, AWS Step Functions, Mermaid) as a `.seam` graph. Each format's module reads its
 * source into the neutral {@link ImportedGraph}; `decide.ts` makes and marks the guesses and
 * `write.ts` prints the file. Pure: the CLI reads the inputs and runs the helpers.
 */
import type { SourceFile } from "../core/source-file.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { importAsl } from "./asl.js";
import { importAutoGen } from "./autogen.js";
import { decideGraph, type DecidedGraph } from "./decide.js";
import { importLangGraph } from "./langgraph.js";
import { importMermaid } from "./mermaid.js";
import type { ImportedGraph, ImportResult } from "./model.js";
import { importOpenAiAgents } from "./openai-agents.js";
import { writeSeam } from "./write.js";

export type { ImportedGraph, ImportProblem, ImportResult } from "./model.js";
export { importCrewAi, type CrewInput, type CrewProcess } from "./crewai.js";
export { driftFindings, DRIFT_RULES } from "./drift.js";

/** The formats `seam import` reads, in the order the docs list them. */
export const IMPORT_FORMATS = ["langgraph", "openai-agents", "autogen", "crewai", "asl", "mermaid"] as const;
/** A format of `seam import`. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * Reads one input file of a single-file format (all but `crewai`, which has two files).
 *
 * @param name - the graph's name when the source has none (the input file's base name)
 */
export function importFile(format: Exclude<ImportFormat, "crewai">, file: SourceFile, name: string): ImportResult {
  switch (format) {
    case "langgraph":
      return importLangGraph(file, name);
    case "openai-agents":
      return importOpenAiAgents(file, name);
    case "autogen":
      return importAutoGen(file, name);
    case "asl":
      return importAsl(file, name);
    case "mermaid":
      return importMermaid(file, name);
  }
}

/** The first node id given to two nodes, or undefined. */
function nameGivenTwice(nodes: ImportedGraph["nodes"]): string | undefined {
  const seen = new Set<string>();
  for (const node of nodes) {
    if (seen.has(node.id)) return node.id;
    seen.add(node.id);
  }
  return undefined;
}

/** A graph as `.seam` text, and what was decided on the way (guesses, renamed names, notes). */
export interface SeamOutput {
  readonly text: string;
  readonly decided: DecidedGraph;
  /** How many `seam-guess` markers the text holds. */
  readonly guesses: number;
}

/**
 * Turns an imported graph into a formatted `.seam` file. A graph without agents is refused (it
 * says nothing to check), and so is one with two agents of one name (the OpenAI Agents SDK allows
 * it, but a handoff names its agent by name, so which one it means is unknown, and a file with the
 * name twice would not check); a graph without entries gets its first agent as the entry, marked.
 *
 * @returns the file, or the problem (`message`) and what to do (`hint`)
 */
export function toSeam(graph: ImportedGraph): { ok: true; output: SeamOutput } | { ok: false; message: string; hint: string } {
  if (graph.nodes.length === 0) return { ok: false, message: `${graph.source} gives no agents`, hint: "give a graph with at least one agent" };
  const twice = nameGivenTwice(graph.nodes);
  if (twice !== undefined) {
    return {
      ok: false,
      message: `${graph.source} gives two agents the name ${quoteUntrusted(twice)}, and a handoff names its agent only by name`,
      hint: "give each agent a name of its own",
    };
  }
  const withEntry: ImportedGraph =
    graph.entries.length > 0
      ? graph
      : { ...graph, entries: [(graph.nodes[0] as { id: string }).id], entryGuess: graph.entryGuess ?? "the source names no start: its first agent" };
  const decided = decideGraph(withEntry);
  const text = writeSeam(decided);
  const guesses = text.split("\n").filter((line) => /^\s*\/\/ seam-guess /.test(line)).length;
  return { ok: true, output: { text, decided, guesses } };
}
