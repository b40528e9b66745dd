/**
 * The neutral graph every importer produces from its source (LangGraph JSON, an ASL state
 * machine, a Mermaid flowchart...), before anything is guessed: nodes, directed edges, entries
 * and ends, each with what the source states exactly. A field left undefined is one the source
 * does not state; `decide.ts` fills it in and marks the guess. Names are the source's own
 * (`names.ts` maps them to Seam identifiers).
 */
import type { EdgeKind, Outcome, Role } from "../core/vocabulary.js";
import { MAX_SOURCE_BYTES } from "../core/source-limit.js";

/** A way a task ends at a node (an edge to LangGraph's `__end__`, an ASL `Succeed` state). */
export interface ImportedEnd {
  /** The terminal's name in the source (mapped to an identifier by the writer). */
  readonly name: string;
  /** Undefined: not stated (`complete` is written and marked as a guess). */
  readonly outcome?: Outcome;
  /** A description to keep (an ASL `Fail` state's `Cause`). */
  readonly description?: string;
}

/** One agent of the source graph. */
export interface ImportedNode {
  /** The source's id (LangGraph node id, ASL state name, CrewAI agent key...). */
  readonly id: string;
  /** Undefined: not stated (inferred from the edges and marked). */
  readonly role?: Role;
  /** The agent's version, when the source states one (Seam's own pictures). */
  readonly version?: string;
  /** An approval gate (Seam's own pictures). */
  readonly gate?: boolean;
  /** What the agent does outside the graph (Seam's own pictures). */
  readonly effect?: string;
  /** The agent's join as Seam writes it after `join` (`all of a, b within 60 seconds`), from Seam's own pictures. */
  readonly join?: string;
  /** The join the source states or implies, with source ids (frameworks; `decide.ts` writes it). */
  readonly waits?: ImportedJoin;
  readonly ends: readonly ImportedEnd[];
}

/**
 * A branch of a fan-out: every edge out of the same node with the same `group` is taken at once,
 * one task each. Written as `fan_out NAME` delegations when the roles allow it (`decide.ts`).
 */
export interface ImportedBranch {
  /** The fan-out's name in the source: the Parallel state, the condition, the node that fans out. */
  readonly group: string;
  /** Why the fan-out is guessed or loses something (a condition Seam does not write); undefined: exact. */
  readonly guess?: string;
}

/** A node that waits for handoffs from several agents of one fan-out before it runs. */
export interface ImportedJoin {
  /** `all`, `any` (the first), or how many of the inputs. */
  readonly wait: "all" | "any" | number;
  /** The nodes it waits for (source ids), each with an edge to it. */
  readonly inputs: readonly string[];
  /** The fan-out whose branches it waits for (its node and group); undefined when no one fan-out starts them all. */
  readonly after?: { readonly from: string; readonly group: string };
  /** Why the join is a guess; undefined: the source states it. */
  readonly guess?: string;
}

/** One handoff of the source graph. */
export interface ImportedEdge {
  readonly from: string;
  readonly to: string;
  /** Undefined: not stated (inferred from the roles and marked). */
  readonly kind?: EdgeKind;
  /**
   * The edge is one branch of a router the source decides at run time (a LangGraph conditional
   * edge, an ASL `Choice`, an AutoGen edge `condition`); `label` is the branch's name when the
   * source gives one. Written as a guarded route and marked.
   */
  readonly conditional?: { readonly label?: string };
  /** Fields the source states the receiver needs (an Agents SDK handoff's `input_type` schema). */
  readonly require?: readonly string[];
  /** Set when some of `require` was guessed: why. */
  readonly requireGuess?: string;
  /** The bound the source states on taking the edge (Seam's own pictures). */
  readonly maxRounds?: number;
  /** Validated, only warns (Seam's own pictures). */
  readonly observe?: boolean;
  /** The guard as Seam writes it (`when status is ready`, `otherwise`), read from Seam's own pictures. */
  readonly guard?: string;
  /** `min_confidence` as written (`0.9`, `0.8 for price`), from Seam's own pictures. */
  readonly minConfidence?: string;
  /** An approval gate on the edge (Seam's own pictures). */
  readonly gate?: boolean;
  /** The named fan-out the edge is a branch of, stated (`fan_out NAME`, from Seam's own pictures). */
  readonly fanOutName?: string;
  /** The edge is one branch of a fan-out of its source (LangGraph, ASL `Parallel`, AutoGen). */
  readonly parallel?: ImportedBranch;
}

/**
 * The most edges an importer makes: more could not be written in a `.seam` file under the 10 MB
 * limit ({@link MAX_SOURCE_BYTES}; the shortest edge line, `  return a -> b`, takes 16 bytes).
 * Sources where a few lines stand for many edges (Mermaid's `a & b --> c & d`, an ASL Choice
 * reached from many states) are refused when they pass it, before the edges are made.
 */
export const MAX_IMPORTED_EDGES = Math.floor(MAX_SOURCE_BYTES / 16);

/** A whole source graph, in the source's order (which the output keeps). */
export interface ImportedGraph {
  /** The framework's name as the docs and messages say it: `LangGraph`, `AWS Step Functions`... */
  readonly source: string;
  /** The graph's name (the source's, or one made from the input file's name). */
  readonly name: string;
  readonly nodes: readonly ImportedNode[];
  readonly edges: readonly ImportedEdge[];
  /** Where tasks start (node ids). */
  readonly entries: readonly string[];
  /** Set when the entries were guessed (the source has no start marker): why. */
  readonly entryGuess?: string;
  /**
   * The source states every edge's `max_rounds` (Seam's own pictures): an edge without one is
   * unbounded, and no bound is guessed.
   */
  readonly boundsStated?: boolean;
  /** A hop limit the source states. */
  readonly hopLimit?: number;
  /**
   * Things of the source the graph leaves out, one sentence each (an edge from a node to itself,
   * a tool loop): printed by `seam import` and written as comments at the top of the graph.
   */
  readonly notes: readonly string[];
}

/** An importer's answer: the graph, or why the input cannot be read (with its place when it has lines). */
export type ImportResult =
  | { readonly ok: true; readonly graph: ImportedGraph }
  | { readonly ok: false; readonly problem: ImportProblem };

/** An unusable input: what is wrong, where (1-based line and column, when the input has lines), what to do. */
export interface ImportProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint: string;
}
