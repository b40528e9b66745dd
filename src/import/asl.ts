/**
 * AWS Step Functions: an Amazon States Language definition (`StartAt`, `States`). Each state
 * that does work (`Task`, `Pass`, `Wait`, `Map`, `Parallel`) is an agent; `StartAt` is the
 * entry. `Next` is an edge; `End: true` a terminal `done`; a transition into a `Succeed` state a
 * terminal named after it (complete), into a `Fail` state a terminal `failed` with its `Cause`
 * (all exact). A `Choice` state is no agent: the state that enters it routes, each `Choices[].Next`
 * and `Default` a conditional edge from it. `Catch[].Next` edges are routes too (labelled with
 * the errors). A `Parallel` state's branches are imported with it: its edges to each branch's
 * `StartAt` are a fan-out, each branch's end hands off to the state's `Next`, and that state
 * joins them (all of them; `K of` when a branch can end at several states); a branch state whose
 * name is taken is prefixed with its Parallel state's name.
 */
import type { SourceFile } from "../core/source-file.js";
import { array, object, optionalText, readJson, readShape, ShapeError, text } from "./json-source.js";
import { MAX_IMPORTED_EDGES, type ImportedEdge, type ImportedEnd, type ImportedGraph, type ImportedJoin, type ImportResult } from "./model.js";

const HINT = "give an Amazon States Language definition (a JSON object with StartAt and States)";
const AGENT_TYPES = new Set(["Task", "Pass", "Wait", "Map", "Parallel"]);
/** How deep Choice states may chain and Parallel states nest before the input is refused. */
const MAX_DEPTH = 64;

/** Reads an ASL definition. */
export function importAsl(file: SourceFile, name: string): ImportResult {
  const json = readJson(file, "state machine");
  if (!json.ok) return json;
  const shaped = readShape(() => fromJson(json.value, name), HINT);
  return shaped.ok ? { ok: true, graph: shaped.value } : shaped;
}

interface MachineNode {
  readonly id: string;
  readonly ends: ImportedEnd[];
  waits?: ImportedJoin;
}

interface Machine {
  readonly nodes: MachineNode[];
  /** The same nodes by id. */
  readonly byId: Map<string, MachineNode>;
  readonly edges: ImportedEdge[];
  readonly taken: Set<string>;
  /** What the graph leaves out (`ImportedGraph.notes`), each once. */
  readonly notes: string[];
}

function fromJson(value: unknown, name: string): ImportedGraph {
  const machine: Machine = { nodes: [], byId: new Map(), edges: [], taken: new Set(), notes: [] };
  const root = object(value, "the definition");
  const entries = readStates(machine, root, "", 0, undefined);
  return { source: "AWS Step Functions", name, nodes: machine.nodes, edges: machine.edges, entries, notes: machine.notes };
}

/**
 * Reads one state machine (the top level or a Parallel branch) into `machine`; returns the agents
 * its `StartAt` leads to. `exit` is where a branch's ends go (its Parallel state's `Next`).
 */
function readStates(machine: Machine, root: Record<string, unknown>, where: string, depth: number, exit: ((from: string) => void) | undefined): string[] {
  if (depth > MAX_DEPTH) throw new ShapeError(where || "States", `nested at most ${MAX_DEPTH} Parallel states deep`);
  const states = object(root["States"], `${where}States`);
  const startAt = text(root["StartAt"], `${where}StartAt`);
  const names = Object.keys(states);
  if (!names.includes(startAt)) throw new ShapeError(`${where}StartAt`, "the name of a state");
  const id = new Map<string, string>();
  for (const state of names) {
    const type = text(object(states[state], `${where}States.${state}`)["Type"], `${where}States.${state}.Type`);
    if (!AGENT_TYPES.has(type)) continue;
    const parallel = where === "" ? "" : `${where.split(".")[1] ?? ""}.`;
    let unique = state;
    for (let n = 1; machine.taken.has(unique); n++) unique = `${parallel}${state}${n > 1 ? n : ""}`;
    machine.taken.add(unique);
    id.set(state, unique);
    const created: MachineNode = { id: unique, ends: [] };
    machine.nodes.push(created);
    machine.byId.set(unique, created);
  }
  const addEnd = (from: string, end: ImportedEnd): void => {
    const ends = (machine.byId.get(from) as MachineNode).ends;
    if (!ends.some((e) => e.name === end.name)) ends.push(end);
  };

  /**
   * What a transition from the agent `from` (an id) to state `target` means, following Choice
   * states; `chain` holds the Choice states passed on the way. A Choice state met again on the
   * way loops with no working state between: it adds no route, and the loop is noted.
   */
  const transition = (from: string | undefined, target: string, at: string, label: string | undefined, chain: readonly string[], sink: string[]): void => {
    if (chain.length > MAX_DEPTH) throw new ShapeError(at, `a transition that reaches a working state within ${MAX_DEPTH} Choice states`);
    const raw = states[target];
    if (raw === undefined) throw new ShapeError(at, `the name of a state, not ${JSON.stringify(target).slice(0, 80)}`);
    const state = object(raw, `${where}States.${target}`);
    const type = state["Type"];
    if (type === "Choice") {
      const loopsAt = chain.indexOf(target);
      if (loopsAt >= 0) {
        // Told from the same state whichever way in it was found: the least name first.
        const cycle = chain.slice(loopsAt);
        const first = cycle.indexOf([...cycle].sort()[0] as string);
        const turned = [...cycle.slice(first), ...cycle.slice(0, first)];
        const loop = `the loop of Choice states ${[...turned, turned[0] as string].map((s) => JSON.stringify(s)).join(" -> ")}, with no working state in it`;
        if (!machine.notes.includes(loop)) machine.notes.push(loop);
        return;
      }
      const passed = [...chain, target];
      const choices = array(state["Choices"], `${where}States.${target}.Choices`);
      choices.forEach((c, i) => {
        const next = text(object(c, `${where}States.${target}.Choices[${i}]`)["Next"], `${where}States.${target}.Choices[${i}].Next`);
        transition(from, next, `${where}States.${target}.Choices[${i}].Next`, label ?? next, passed, sink);
      });
      const fallback = optionalText(state["Default"]);
      if (fallback !== undefined) transition(from, fallback, `${where}States.${target}.Default`, label ?? fallback, passed, sink);
      return;
    }
    if (type === "Succeed" || type === "Fail") {
      if (from === undefined) return;
      const cause = optionalText(state["Cause"]) ?? optionalText(state["Error"]);
      addEnd(from, type === "Succeed" ? { name: target, outcome: "complete" } : { name: target, outcome: "failed", ...(cause === undefined ? {} : { description: cause }) });
      return;
    }
    const to = id.get(target) as string;
    if (from === undefined) sink.push(to);
    else {
      if (machine.edges.length >= MAX_IMPORTED_EDGES) throw new ShapeError(at, `part of a machine of at most ${MAX_IMPORTED_EDGES} transitions (Choice states reached from many states multiply them), more than a .seam file can hold`);
      machine.edges.push({ from, to, ...(label === undefined ? {} : { conditional: { label } }) });
    }
  };

  const starts: string[] = [];
  transition(undefined, startAt, `${where}StartAt`, undefined, [], starts);
  for (const state of names) {
    if (!id.has(state)) continue;
    const body = object(states[state], `${where}States.${state}`);
    const at = `${where}States.${state}`;
    const next = optionalText(body["Next"]);
    // The States Language gives a working state one way on: Step Functions refuses a definition
    // with both, so which one was meant is not known here either.
    if (next !== undefined && body["End"] === true) throw new ShapeError(at, "a state with Next or End: true, not both");
    const self = id.get(state) as string;
    if (body["Type"] === "Parallel") {
      const branches = array(body["Branches"], `${at}.Branches`);
      // Where the branches go on to: one working state is the join.
      const after: string[] = [];
      if (next !== undefined) transition(undefined, next, `${at}.Next`, undefined, [], after);
      const tails: string[][] = [];
      branches.forEach((b, i) => {
        const ends: string[] = [];
        const exitBranch = (from: string): void => {
          ends.push(from);
          if (next !== undefined) transition(from, next, `${at}.Next`, undefined, [], []);
          else addEnd(from, { name: "done", outcome: "complete" });
        };
        const heads = readStates(machine, object(b, `${at}.Branches[${i}]`), `${at}.Branches[${i}].`, depth + 1, exitBranch);
        tails.push(ends);
        // A branch that starts at a Choice state starts at one of its heads: those are routes.
        for (const to of heads) machine.edges.push({ from: self, to, ...(heads.length === 1 ? { parallel: { group: state } } : { conditional: { label: to } }) });
      });
      const join = after.length === 1 ? machine.byId.get(after[0] as string) : undefined;
      if (join !== undefined && tails.every((t) => t.length > 0)) {
        join.waits = { wait: tails.every((t) => t.length === 1) ? "all" : tails.length, inputs: [...new Set(tails.flat())], after: { from: self, group: state } };
      }
    } else if (next !== undefined) {
      transition(self, next, `${at}.Next`, undefined, [], []);
    }
    if (body["End"] === true) {
      if (exit !== undefined) exit(self);
      else addEnd(self, { name: "done", outcome: "complete" });
    }
    const catches = body["Catch"] === undefined ? [] : array(body["Catch"], `${at}.Catch`);
    catches.forEach((c, i) => {
      const handler = object(c, `${at}.Catch[${i}]`);
      const errors = array(handler["ErrorEquals"] ?? [], `${at}.Catch[${i}].ErrorEquals`).filter((e): e is string => typeof e === "string");
      transition(self, text(handler["Next"], `${at}.Catch[${i}].Next`), `${at}.Catch[${i}].Next`, `${errors.join(" ") || "error"}`, [], []);
    });
  }
  return starts;
}
