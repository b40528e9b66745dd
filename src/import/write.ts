/**
 * The one writer of every import: a {@link DecidedGraph} as `.seam` text, each guess preceded by
 * its `seam-guess` marker, then parsed and printed by the project's own printer
 * (`parser/print.ts`), so the output is in the canonical layout of `seam fmt` and the same input
 * always gives the same bytes. Text from the source (names in reasons, descriptions) is escaped
 * and bounded on its way into comments and strings.
 */
import { guessComment, type GuessSubject } from "../core/guess-marker.js";
import { createSourceFile } from "../core/source-file.js";
import { escapeUntrusted, isFormatCharacter } from "../core/untrusted-text.js";
import { parse } from "../parser/parse.js";
import { printFile } from "../parser/print.js";
import type { DecidedEdge, DecidedGraph, Guessed } from "./decide.js";

/** Longest comment text the writer puts on one line, in code points (a reason quoting long names). */
const COMMENT_LIMIT = 300;

/**
 * The `.seam` file for `graph`, formatted.
 *
 * @throws Error when the text written does not parse: a bug in Seam, never a property of the input
 */
export function writeSeam(graph: DecidedGraph): string {
  const lines: string[] = ["seam 1", ""];
  lines.push(comment(`Imported from ${graph.source} by seam import. Each seam-guess comment marks a guess: check the line below it, then delete the comment.`));
  for (const note of graph.notes) lines.push(comment(`Left out: ${note}.`));
  lines.push(`graph ${graph.name} {`);
  // A fan-out's branches are told apart by hop.branch, which envelope 1.4 adds (fan-out-needs-branch-envelope).
  if (graph.edges.some((edge) => edge.fanOutName !== undefined)) lines.push("envelope 1.4");
  marked(lines, graph.entries, "entry");
  lines.push(`entry ${graph.entries.value.join(", ")}`);
  if (graph.hopLimit !== undefined) lines.push(`hop_limit ${graph.hopLimit}`);
  lines.push("");
  const renamed = new Map(graph.renamed.map((r) => [r.name, r.source]));
  for (const agent of graph.agents) {
    const was = renamed.get(agent.name);
    if (was !== undefined) lines.push(comment(`named ${JSON.stringify(was)} in the source`));
    marked(lines, agent.role, "role");
    lines.push(`agent ${agent.name}: ${agent.role.value} {`);
    if (agent.version !== undefined) lines.push(`version ${seamString(agent.version)}`);
    if (agent.gate === true) lines.push("gate");
    if (agent.effect !== undefined) lines.push(`effect ${seamString(agent.effect)}`);
    if (agent.join !== undefined) {
      if (agent.join.guess !== undefined) lines.push(comment(guessComment("join", agent.join.guess)));
      lines.push(`join ${agent.join.text}`);
    }
    for (const terminal of agent.terminals) {
      marked(lines, terminal.outcome, "terminal");
      const description = terminal.description === undefined ? "" : ` ${seamString(terminal.description)}`;
      lines.push(`terminal ${terminal.name} ${terminal.outcome.value}${description}`);
    }
    lines.push("}");
  }
  if (graph.edges.length > 0) lines.push("");
  for (const edge of graph.edges) writeEdge(lines, edge);
  lines.push("}");
  const text = `${lines.join("\n")}\n`;
  const parsed = parse(createSourceFile("<import>", text));
  if (parsed.diagnostics.length > 0) {
    throw new Error(`internal: seam import wrote text that does not parse: ${parsed.diagnostics[0]?.message ?? ""}`);
  }
  return printFile(text, parsed.ast);
}

function writeEdge(lines: string[], edge: DecidedEdge): void {
  if (edge.fanOut !== undefined) lines.push(comment(guessComment("fan-out", edge.fanOut)));
  marked(lines, edge.kind, "kind");
  if (edge.guard?.guess !== undefined) lines.push(comment(guessComment("guard", edge.guard.guess)));
  const guard = edge.guard === undefined ? "" : ` ${edge.guard.text}`;
  lines.push(`${edge.kind.value} ${edge.from} -> ${edge.to}${guard}${edge.observe ? " observe" : ""} {`);
  if (edge.require !== undefined) {
    marked(lines, edge.require, "require");
    lines.push(`require ${edge.require.value.join(", ")}`);
  }
  if (edge.maxRounds !== undefined) {
    marked(lines, edge.maxRounds, "max_rounds");
    lines.push(`max_rounds ${edge.maxRounds.value}`);
  }
  if (edge.minConfidence !== undefined) lines.push(`min_confidence ${edge.minConfidence}`);
  if (edge.gate === true) lines.push("gate");
  if (edge.fanOutName !== undefined) {
    if (edge.fanOutName.guess !== undefined) lines.push(comment(guessComment("fan-out", edge.fanOutName.guess)));
    lines.push(`fan_out ${edge.fanOutName.name}`);
  }
  lines.push("}");
}

/** Pushes the marker of a guessed value. */
function marked(lines: string[], value: Guessed<unknown>, subject: GuessSubject): void {
  if (value.guess !== undefined) lines.push(comment(guessComment(subject, value.guess)));
}

/** A `//` comment line, escaped (no control, bidirectional or line-breaking character) and bounded. */
function comment(text: string): string {
  const body = text.startsWith("// ") ? text.slice(3) : text;
  return `// ${escapeUntrusted(body, COMMENT_LIMIT)}`;
}

/**
 * A Seam string literal (docs/language.md): `"` and `\` escaped, tab and line feed as `\t` and
 * `\n`, every other control, format or lone surrogate character as `\uXXXX`; cut after
 * {@link COMMENT_LIMIT} code points.
 */
function seamString(value: string): string {
  let body = "";
  let count = 0;
  for (const char of value) {
    if (++count > COMMENT_LIMIT) {
      body += "…";
      break;
    }
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === "\\") body += `\\${char}`;
    else if (char === "\n") body += "\\n";
    else if (char === "\t") body += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || isFormatCharacter(code)) {
      body += `\\u${code.toString(16).padStart(4, "0")}`;
    } else body += char;
  }
  return `"${body}"`;
}
