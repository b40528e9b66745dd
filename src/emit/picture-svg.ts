/**
 * The graph as SVG, laid out by Graphviz (`@viz-js/viz`, a WebAssembly build) from the text of
 * {@link dotPicture}. Graphviz is imported only when an SVG is asked for: it is a large module
 * and most runs never need it.
 *
 * Size limit. Graphviz's `dot` layout recurses along long paths, and the WebAssembly build has a
 * fixed stack: measured with @viz-js/viz 3.31 on Node 20, a chain of 10,000 agents renders
 * (about 2.5 s) and one of 15,000 overflows the stack; a star of 3,000 agents already takes 14 s.
 * Terminals are drawn as nodes too (one agent with 10,000 terminals takes 35 s), so graphs of more
 * than {@link SVG_MAX_NODES} nodes (agents plus terminals) are refused up front, and a stack
 * overflow or WebAssembly trap below that is still caught and returned as a refusal, never thrown.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { dotPicture } from "./picture-dot.js";

type VizInstance = Awaited<ReturnType<typeof import("@viz-js/viz").instance>>;
let viz: Promise<VizInstance> | undefined;

/** Most nodes (agents plus terminals) {@link svgPicture} lays out by default: half the longest
 * chain measured to work. */
export const SVG_MAX_NODES = 5000;

/** Options of {@link svgPicture}. */
export interface SvgOptions {
  /** Refuse graphs with more nodes (agents plus terminals) than this (default {@link SVG_MAX_NODES}). */
  readonly maxNodes?: number;
}

/**
 * An SVG document, or why the graph was not drawn: `too-many-nodes` (over the limit, Graphviz
 * not run) or `layout-failed` (Graphviz overflowed its stack or trapped). `nodes` counts agents
 * plus terminals.
 */
export type SvgResult =
  | { readonly ok: true; readonly svg: string }
  | { readonly ok: false; readonly reason: "too-many-nodes" | "layout-failed"; readonly nodes: number; readonly maxNodes: number };

/**
 * Renders `graph` to a standalone SVG document with the `dot` layout.
 *
 * @throws Error when Graphviz rejects the DOT text: {@link dotPicture} escapes every name, so
 *   that would be a bug in Seam. A graph too large to lay out is a result, not an error.
 */
export async function svgPicture(graph: CheckedGraph, options: SvgOptions = {}): Promise<SvgResult> {
  const maxNodes = options.maxNodes ?? SVG_MAX_NODES;
  let nodes = graph.agents.length;
  for (const agent of graph.agents) nodes += agent.terminals.length;
  if (nodes > maxNodes) return { ok: false, reason: "too-many-nodes", nodes, maxNodes };
  const dot = dotPicture(graph);
  viz ??= import("@viz-js/viz").then((module) => module.instance());
  const instance = await viz;
  try {
    return { ok: true, svg: instance.renderString(dot, { format: "svg", engine: "dot" }) };
  } catch (error) {
    // RangeError: the JavaScript stack overflowed inside the module; RuntimeError: a WebAssembly trap.
    if (!(error instanceof RangeError || (error instanceof Error && error.name === "RuntimeError"))) throw error;
    // The module's memory may be left inconsistent by the unwound call: start afresh next time.
    viz = undefined;
    return { ok: false, reason: "layout-failed", nodes, maxNodes };
  }
}
