/**
 * `seam graph <file> [--format mermaid|dot|svg] [--name <graph>]`: prints a picture of a graph
 * on stdout. Analysis findings are drawn, not refused (the picture is how you look at them),
 * but a file with syntax errors is: its graph may be missing pieces, so the errors are printed
 * on stderr and the exit code is 1.
 */
import { checkGraphFile, printDiagnosticsOnStderr } from "../check-graph-file.js";
import type { GraphFormat } from "../formats.js";
import type { CliIo } from "../io.js";
import { pickGraph } from "../pick-graph.js";
import { PROBLEM_PART_LIMIT, reportProblem } from "../report-problem.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";

/** Options of {@link graphCommand}, as parsed from the command line. */
export interface GraphOptions {
  /** The `.seam` file, relative to `io.cwd` or absolute. */
  readonly file: string;
  readonly format: GraphFormat;
  /** The graph to draw when the file holds several. */
  readonly name?: string;
  /** Milliseconds the SVG layout may take (default `SVG_TIME_BUDGET_MS`); set by tests. */
  readonly svgTimeBudgetMs?: number;
}

/**
 * Runs `seam graph`; returns 0 (picture printed), 1 (syntax errors) or 2 (unreadable file, no
 * such graph, or a graph too large for SVG: over `SVG_MAX_NODES` nodes or `SVG_MAX_EDGES` edges,
 * a layout past its time budget, or one too deep for Graphviz).
 */
export async function graphCommand(options: GraphOptions, io: CliIo): Promise<number> {
  const result = await checkGraphFile(options.file, io);
  if (result === undefined) return 2;
  const syntaxErrors = result.diagnostics.filter((d) => d.rule === "syntax");
  if (syntaxErrors.length > 0) {
    await printDiagnosticsOnStderr(syntaxErrors, io);
    io.stderr(`seam: ${escapeUntrusted(options.file, PROBLEM_PART_LIMIT)}: not drawn because of syntax errors (fix them, then draw again)\n`);
    return 1;
  }
  const picked = pickGraph(result.graphs, options.file, options.name);
  if (!picked.ok) {
    reportProblem(io, picked.problem);
    return 2;
  }
  const graph = picked.graph;
  if (options.format === "svg") {
    const { svgPicture } = await import("../../emit/picture-svg.js");
    const svg = await svgPicture(graph, options.svgTimeBudgetMs === undefined ? {} : { timeBudgetMs: options.svgTimeBudgetMs });
    if (!svg.ok) {
      const why =
        svg.reason === "too-many-nodes"
          ? `${svg.nodes} nodes (agents and terminals), more than the ${svg.maxNodes} it lays out`
          : svg.reason === "too-many-edges"
            ? `${svg.edges} edges (handoffs, terminals and entries), more than the ${svg.maxEdges} it lays out`
            : svg.reason === "timeout"
              ? `Graphviz's layout ran past its budget of ${svg.timeBudgetMs} ms and was stopped`
              : `Graphviz could not lay out its ${svg.nodes} nodes (agents and terminals)`;
      reportProblem(io, {
        path: options.file,
        problem: `the graph is too large for SVG rendering: ${why}`,
        hint: "use --format dot or mermaid",
      });
      return 2;
    }
    io.stdout(svg.svg);
  } else if (options.format === "dot") {
    io.stdout((await import("../../emit/picture-dot.js")).dotPicture(graph));
  } else {
    io.stdout((await import("../../emit/picture-mermaid.js")).mermaidPicture(graph));
  }
  return 0;
}
