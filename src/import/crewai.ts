/**
 * CrewAI: a crew's `agents.yaml` and `tasks.yaml` (the `config/` files of `crewai create crew`)
 * and its process, which lives in code (`Process.sequential` or `Process.hierarchical`) and is
 * given on the command line. Agents are the keys of `agents.yaml`; only those a task names take
 * part (the others are noted).
 *
 * - **sequential**: the tasks run in file order, each agent handing its output to the next
 *   task's agent: an edge between the agents of consecutive tasks (a second task of the same
 *   agent adds none), the first task's agent is the entry, the last one's ends the crew.
 * - **hierarchical**: a manager (`--manager`, default `manager`) plans the tasks and hands each
 *   to an agent, checking the result: the manager is a supervisor and the entry, it delegates
 *   to every agent of a task (workers) and they return to it (exact), and the crew ends at it.
 *
 * YAML is read with the `yaml` package (YAML 1.2 core schema, unique keys, at most 100 alias
 * expansions), loaded only when this importer runs.
 */
import { getLineAndColumn, type SourceFile } from "../core/source-file.js";
import { object, optionalText, readShape, ShapeError } from "./json-source.js";
import type { ImportedEdge, ImportedGraph, ImportedNode, ImportProblem, ImportResult } from "./model.js";

/** How a crew runs its tasks. */
export type CrewProcess = "sequential" | "hierarchical";

/** The files and settings of a crew. */
export interface CrewInput {
  readonly agents: SourceFile;
  readonly tasks: SourceFile;
  readonly process: CrewProcess;
  /** The manager's name in a hierarchical crew. */
  readonly manager: string;
}

/** A problem in one of the two files: which one, and the problem. */
export type CrewResult = ImportResult | { readonly ok: false; readonly problem: ImportProblem; readonly file: SourceFile };

/** Reads a crew. */
export async function importCrewAi(input: CrewInput, name: string): Promise<CrewResult> {
  // `yaml` is CommonJS: bundled, its exports sit on the namespace's default.
  const loaded = (await import("yaml")) as typeof import("yaml") & { readonly default?: typeof import("yaml") };
  const parseDocument = loaded.default?.parseDocument ?? loaded.parseDocument;
  const read = (file: SourceFile): { ok: true; value: unknown } | { ok: false; problem: ImportProblem; file: SourceFile } => {
    const doc = parseDocument(file.text, { uniqueKeys: true, prettyErrors: false });
    const error = doc.errors[0];
    if (error !== undefined) {
      const { line, column } = getLineAndColumn(file, error.pos[0]);
      return { ok: false, file, problem: { message: `is not valid YAML: ${error.message.split("\n")[0] ?? ""}`, line, column, hint: "fix the YAML" } };
    }
    try {
      return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
    } catch (e) {
      return { ok: false, file, problem: { message: `cannot be read: ${e instanceof Error ? e.message : String(e)}`, hint: "fix the YAML" } };
    }
  };
  const agents = read(input.agents);
  if (!agents.ok) return agents;
  const tasks = read(input.tasks);
  if (!tasks.ok) return tasks;
  const shaped = readShape(() => fromYaml(agents.value, tasks.value, input, name), "give a crew's agents.yaml and tasks.yaml (mappings of names to settings)");
  return shaped.ok ? { ok: true, graph: shaped.value } : shaped;
}

function fromYaml(agentsValue: unknown, tasksValue: unknown, input: CrewInput, name: string): ImportedGraph {
  const agents = Object.keys(object(agentsValue, "agents.yaml"));
  const tasks = object(tasksValue, "tasks.yaml");
  const order: string[] = [];
  for (const task of Object.keys(tasks)) {
    const agent = optionalText(object(tasks[task], `tasks.yaml ${task}`)["agent"]);
    if (agent === undefined) {
      if (input.process === "sequential") throw new ShapeError(`tasks.yaml ${task}.agent`, "the agent that does the task (a sequential crew needs one per task)");
      continue;
    }
    if (!agents.includes(agent)) throw new ShapeError(`tasks.yaml ${task}.agent`, "a key of agents.yaml");
    order.push(agent);
  }
  if (order.length === 0 && input.process === "sequential") throw new ShapeError("tasks.yaml", "at least one task");
  const used = agents.filter((a) => input.process === "hierarchical" || order.includes(a));
  const unused = agents.filter((a) => !used.includes(a));
  const notes = unused.map((a) => `agent ${JSON.stringify(a)} of agents.yaml, which no task names`);
  if (input.process === "sequential") {
    const edges: ImportedEdge[] = [];
    for (let i = 1; i < order.length; i++) {
      const from = order[i - 1] as string;
      const to = order[i] as string;
      if (from !== to) edges.push({ from, to });
    }
    const last = order[order.length - 1] as string;
    const nodes: ImportedNode[] = used.map((id) => ({ id, ends: id === last ? [{ name: "done", outcome: "complete" }] : [] }));
    return { source: "CrewAI", name, nodes, edges, entries: [order[0] as string], notes };
  }
  if (agents.includes(input.manager)) throw new ShapeError(`agents.yaml ${input.manager}`, "left to the manager (pick another name with --manager)");
  const nodes: ImportedNode[] = [
    { id: input.manager, role: "supervisor", ends: [{ name: "done", outcome: "complete" }] },
    ...used.map((id): ImportedNode => ({ id, role: "worker", ends: [] })),
  ];
  const edges: ImportedEdge[] = used.flatMap((id): ImportedEdge[] => [
    { from: input.manager, to: id, kind: "delegate" },
    { from: id, to: input.manager, kind: "return" },
  ]);
  return { source: "CrewAI", name, nodes, edges, entries: [input.manager], notes };
}
