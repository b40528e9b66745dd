/**
 * The graph as SVG, laid out by Graphviz (`@viz-js/viz`, a WebAssembly build) from the text of
 * {@link dotPicture}. Graphviz is imported only when an SVG is asked for: it is a large module
 * and most runs never need it.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { dotPicture } from "./picture-dot.js";

type VizInstance = Awaited<ReturnType<typeof import("@viz-js/viz").instance>>;
let viz: Promise<VizInstance> | undefined;

/**
 * Renders `graph` to a standalone SVG document with the `dot` layout.
 *
 * @throws Error when Graphviz rejects the DOT text: {@link dotPicture} escapes every name, so
 *   that would be a bug in Seam.
 */
export async function svgPicture(graph: CheckedGraph): Promise<string> {
  viz ??= import("@viz-js/viz").then((module) => module.instance());
  return (await viz).renderString(dotPicture(graph), { format: "svg", engine: "dot" });
}
