/**
 * The graph as SVG, laid out by Graphviz (`@viz-js/viz`, a WebAssembly build) from the text of
 * {@link dotPicture}. Graphviz is loaded only when an SVG is asked for, and only inside a
 * worker thread: it is a large module, and its layout cannot be interrupted from JavaScript
 * while it runs, so it runs where it can be stopped.
 *
 * Limits. The cost of the `dot` layout grows with edges as much as with nodes (measured with
 * @viz-js/viz 3.31 on Node 20: 120 agents with three labelled edges each, about 240 nodes, ran
 * past 60 s; a chain of 15,000 agents overflows the module's fixed stack). So three guards, in
 * order: more than {@link SVG_MAX_NODES} nodes (agents plus terminals) or
 * {@link SVG_MAX_EDGES} edges (handoffs, terminal and entry arrows) are refused up front;
 * the layout then runs in a worker that is terminated when {@link SVG_TIME_BUDGET_MS} pass, so
 * it cannot overrun its budget; and a stack overflow or WebAssembly trap is a refusal, never a
 * throw.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { CheckedGraph } from "../analysis/model.js";
import { dotPicture } from "./picture-dot.js";

/** Most nodes (agents plus terminals) {@link svgPicture} lays out by default: half the longest
 * chain measured to work. */
export const SVG_MAX_NODES = 5000;

/** Most edges (handoffs plus terminal and entry arrows) {@link svgPicture} lays out by default. */
export const SVG_MAX_EDGES = 600;

/** Milliseconds the layout may take by default before it is stopped. */
export const SVG_TIME_BUDGET_MS = 10_000;

/** Options of {@link svgPicture}. */
export interface SvgOptions {
  /** Refuse graphs with more nodes (agents plus terminals) than this (default {@link SVG_MAX_NODES}). */
  readonly maxNodes?: number;
  /** Refuse graphs with more edges than this (default {@link SVG_MAX_EDGES}). */
  readonly maxEdges?: number;
  /** Stop the layout after this many milliseconds (default {@link SVG_TIME_BUDGET_MS}). */
  readonly timeBudgetMs?: number;
}

/**
 * An SVG document, or why the graph was not drawn: `too-many-nodes` or `too-many-edges` (over a
 * limit, Graphviz not run), `timeout` (the layout was stopped at the time budget) or
 * `layout-failed` (Graphviz overflowed its stack or trapped). `nodes` counts agents plus
 * terminals, `edges` handoffs plus terminal and entry arrows.
 */
export type SvgResult =
  | { readonly ok: true; readonly svg: string }
  | {
      readonly ok: false;
      readonly reason: "too-many-nodes" | "too-many-edges" | "timeout" | "layout-failed";
      readonly nodes: number;
      readonly edges: number;
      readonly maxNodes: number;
      readonly maxEdges: number;
      readonly timeBudgetMs: number;
    };

// The worker's whole program. It is evaluated as CommonJS, imports Graphviz from the path the
// main thread resolved, and answers with one message.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.viz)
  .then((module) => module.instance())
  .then((viz) => parentPort.postMessage({ ok: true, svg: viz.renderString(workerData.dot, { format: "svg", engine: "dot" }) }))
  .catch((error) => parentPort.postMessage({ ok: false, name: error && error.name, message: String(error && error.message) }));
`;

type WorkerAnswer = { ok: true; svg: string } | { ok: false; name?: string; message: string };

/**
 * Renders `graph` to a standalone SVG document with the `dot` layout.
 *
 * @throws Error when Graphviz rejects the DOT text: {@link dotPicture} escapes every name, so
 *   that would be a bug in Seam. A graph too large or too slow to lay out is a result, not an error.
 */
export async function svgPicture(graph: CheckedGraph, options: SvgOptions = {}): Promise<SvgResult> {
  const maxNodes = options.maxNodes ?? SVG_MAX_NODES;
  const maxEdges = options.maxEdges ?? SVG_MAX_EDGES;
  const timeBudgetMs = options.timeBudgetMs ?? SVG_TIME_BUDGET_MS;
  let nodes = graph.agents.length;
  for (const agent of graph.agents) nodes += agent.terminals.length;
  const edges = graph.edges.length + graph.entries.length + (nodes - graph.agents.length);
  const refusal = (reason: "too-many-nodes" | "too-many-edges" | "timeout" | "layout-failed"): SvgResult => ({
    ok: false,
    reason,
    nodes,
    edges,
    maxNodes,
    maxEdges,
    timeBudgetMs,
  });
  if (nodes > maxNodes) return refusal("too-many-nodes");
  if (edges > maxEdges) return refusal("too-many-edges");
  const answer = await layoutInWorker(dotPicture(graph), timeBudgetMs);
  if (answer === "timeout") return refusal("timeout");
  if (answer.ok) return { ok: true, svg: answer.svg };
  // RangeError: the JavaScript stack overflowed inside the module; RuntimeError: a WebAssembly trap.
  if (answer.name === "RangeError" || answer.name === "RuntimeError") return refusal("layout-failed");
  throw new Error(`internal: Graphviz rejected the DOT text: ${answer.message}`);
}

/** Runs the layout in a fresh worker, terminated after `timeBudgetMs` ("timeout"). */
function layoutInWorker(dot: string, timeBudgetMs: number): Promise<WorkerAnswer | "timeout"> {
  const viz = pathToFileURL(createRequire(import.meta.url).resolve("@viz-js/viz")).href;
  return new Promise((resolve, reject) => {
    // The stack of the main thread (about 1 MB), so the measured limits above hold in the worker.
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dot, viz }, resourceLimits: { stackSizeMb: 1 } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve("timeout");
    }, timeBudgetMs);
    const finish = (): void => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once("message", (answer: WorkerAnswer) => {
      finish();
      resolve(answer);
    });
    worker.once("error", (error) => {
      finish();
      reject(error);
    });
  });
}
