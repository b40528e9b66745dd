/**
 * `textDocument/codeAction` quick fixes for the diagnostics under the cursor: take the "did you
 * mean" name or path; add `max_rounds 2` to an edge of an unbounded cycle; add a terminal to an
 * agent trapped with no way to a terminal; for a router with a gap (`guard-gap`), add the
 * missing values to its last guard, or make its last route the default (`otherwise`); suppress the finding on its line or in the whole file
 * with a `seam-disable-next-line` / `seam-disable` comment whose reason the author then writes
 * after `--` (until then `suppression-reason` asks for it). Each action carries the diagnostic
 * it fixes.
 */
import { CodeActionKind, type CodeAction } from "vscode-languageserver/node";
import type { Diagnostic } from "../core/diagnostic.js";
import type { Range } from "../core/source-file.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { checkRouter, gateAwareRouter, OTHER_STEP } from "../analysis/guards.js";
import type { CheckedGuard } from "../analysis/model.js";
import { isSuppressible, proposedReplacement, type AgentNode, type Analysis, type EdgeNode } from "./front-end.js";
import { toLspRange, toPosition } from "./positions.js";

/** The bound the `unbounded-cycle` fix writes: the smallest that lets a task come back once. */
const FIX_MAX_ROUNDS = 2;

/** Quick fixes for the diagnostics that overlap `range`, in diagnostic order. */
export function codeActionsFor(analysis: Analysis, uri: string, range: Range): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of analysis.diagnostics) {
    if (diagnostic.range.end < range.start || diagnostic.range.start > range.end) continue;
    const fix = (title: string, at: Range, newText: string, isPreferred = false): void => {
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLspDiagnostic(analysis, uri, diagnostic)],
        ...(isPreferred ? { isPreferred } : {}),
        edit: { changes: { [uri]: [{ range: toLspRange(analysis.file, at), newText }] } },
      });
    };
    const replacement = proposedReplacement(diagnostic);
    if (replacement !== undefined && !repeatsAnEdge(analysis, diagnostic, replacement)) fix(`Change to '${replacement}'`, diagnostic.range, replacement, true);
    if (diagnostic.rule === "unbounded-cycle") {
      for (const edge of edgesOnCycle(analysis, diagnostic)) {
        const { edgeKind, from, to } = edge;
        if (edgeKind === undefined || from === undefined || to === undefined) continue;
        const insert = insertIntoBlock(analysis, edge.range, edge.observe?.end ?? to.range.end, `max_rounds ${FIX_MAX_ROUNDS}`);
        fix(`Add 'max_rounds ${FIX_MAX_ROUNDS}' to ${edgeKind.value} ${from.name} -> ${to.name}`, insert.at, insert.text);
      }
    }
    if (diagnostic.rule === "no-terminal-path") {
      const agent = declAt<AgentNode>(analysis, "Agent", diagnostic.range.start, (a) => a.name?.range.start);
      if (agent?.name !== undefined && agent.role !== undefined) {
        const insert = insertIntoBlock(analysis, agent.range, agent.role.range.end, "terminal done");
        fix(`Add a terminal 'done' to agent '${agent.name.name}'`, insert.at, insert.text);
      }
    }
    if (diagnostic.rule === "guard-gap") {
      const edge = declAt<EdgeNode>(analysis, "Edge", diagnostic.range.start, (e) => (e.guard === undefined ? undefined : e.guard.range.start));
      const guard = edge?.guard;
      if (edge !== undefined && guard !== undefined && edge.from !== undefined && edge.to !== undefined) {
        const name = `${edge.edgeKind?.value ?? ""} ${edge.from.name} -> ${edge.to.name}`;
        const missing = missingValues(analysis, edge);
        const only = guard.conditions.length === 1 ? guard.conditions[0] : undefined;
        if (missing !== undefined && only?.test === "is" && only.subject.name === missing.subject) {
          const end = (only.values[only.values.length - 1] ?? only.subject).range.end;
          fix(`Add ${missing.values.join(", ")} to the guard of ${name}`, { start: end, end }, `, ${missing.values.join(", ")}`, true);
        }
        fix(`Make ${name} the default route (otherwise)`, guard.range, "otherwise");
      }
    }
    if (isSuppressible(diagnostic.rule)) {
      const line = toPosition(analysis.file, diagnostic.range.start).line;
      const lineStart = analysis.file.lineStarts[line] as number;
      const indent = /^[ \t]*/.exec(analysis.file.text.slice(lineStart, diagnostic.range.start))?.[0] ?? "";
      const at = { start: lineStart, end: lineStart };
      const { text } = analysis.file;
      fix(`Suppress '${diagnostic.rule}' on this line (then say why after '--')`, at, `${indent}// seam-disable-next-line ${diagnostic.rule} -- ${lineBreakAt(text, lineStart)}`);
      fix(`Suppress '${diagnostic.rule}' in this file (then say why after '--')`, { start: 0, end: 0 }, `// seam-disable ${diagnostic.rule} -- ${lineBreakAt(text, 0)}`);
    }
  }
  return actions;
}

/**
 * The values no route out of `edge`'s agent takes, when its router tests one subject with `is`
 * (`status`; next steps no guard names cannot be listed): what the "add the missing case" fix
 * writes. Undefined otherwise.
 */
function missingValues(analysis: Analysis, edge: EdgeNode): { subject: string; values: string[] } | undefined {
  const checked = analysis.graphs.find((g) => g.edges.some((e) => e.decl === edge));
  if (checked === undefined) return undefined;
  const router = checked.edges.filter((e) => e.from === edge.from?.name && e.guard !== undefined);
  const agentGate = checked.agents.some((a) => a.id === edge.from?.name && a.gate === true);
  const gate = gateAwareRouter(
    router.map((e) => e.guard as CheckedGuard),
    agentGate,
    router.map((e) => e.gate === true),
  );
  // A router too large to check has no guard-gap finding to fix.
  const check = checkRouter(gate.guards, gate.statuses);
  if (!check.checked) return undefined;
  const [subject, ...others] = check.coverage.domain.subjects;
  if (subject === undefined || others.length > 0 || subject === "confidence") return undefined;
  const values = check.findings.gaps.map((state) => state[subject]);
  if (values.some((v) => v === undefined || v === OTHER_STEP)) return undefined;
  return { subject, values: values as string[] };
}

/**
 * Whether taking `replacement` for the unknown agent an `unknown-agent` finding is on would make
 * its edge one the graph already has (same kind and ends): that fix would trade the finding for a
 * `duplicate-edge` error, so it is not offered.
 */
function repeatsAnEdge(analysis: Analysis, diagnostic: Diagnostic, replacement: string): boolean {
  if (diagnostic.rule !== "unknown-agent") return false;
  const { start } = diagnostic.range;
  for (const graph of analysis.ast.graphs) {
    if (start < graph.range.start || start > graph.range.end) continue;
    const edges = (graph.items ?? []).filter((item): item is EdgeNode => item.kind === "Edge");
    const edge = edges.find((e) => e.from?.range.start === start || e.to?.range.start === start);
    if (edge?.from === undefined || edge.to === undefined || edge.edgeKind === undefined) return false;
    const from = edge.from.range.start === start ? replacement : edge.from.name;
    const to = edge.to.range.start === start ? replacement : edge.to.name;
    return edges.some((e) => e !== edge && e.edgeKind?.value === edge.edgeKind?.value && e.from?.name === from && e.to?.name === to);
  }
  return false;
}

/** The edge the diagnostic is on, then the edges its related information names, each once. */
function edgesOnCycle(analysis: Analysis, diagnostic: Diagnostic): EdgeNode[] {
  const starts = [diagnostic.range.start, ...(diagnostic.related ?? []).map((r) => r.range.start)];
  const edges = starts.map((s) => declAt<EdgeNode>(analysis, "Edge", s, (e) => e.edgeKind?.range.start));
  return [...new Set(edges.filter((e): e is EdgeNode => e !== undefined))];
}

/** The declaration of `kind` whose `anchor` (its name, its keyword) starts at `start`. */
function declAt<T extends AgentNode | EdgeNode>(analysis: Analysis, kind: T["kind"], start: number, anchor: (decl: T) => number | undefined): T | undefined {
  for (const graph of analysis.ast.graphs) {
    if (start < graph.range.start || start > graph.range.end) continue;
    for (const item of graph.items ?? []) if (item.kind === kind && anchor(item as T) === start) return item as T;
  }
  return undefined;
}

/**
 * Where and what to insert so that `item` becomes the first item of the block of the declaration
 * spanning `range` whose header ends at `headerEnd`: a new ` { item }` when it has no block; else
 * right after its `{`, on a line of its own (indented like the block's items) when the block
 * spans several lines.
 */
function insertIntoBlock(analysis: Analysis, range: Range, headerEnd: number, item: string): { at: Range; text: string } {
  const { text } = analysis.file;
  const open = analysis.tokens.find((t) => t.start >= headerEnd && t.start < range.end && t.text === "{");
  if (open === undefined) return { at: { start: headerEnd, end: headerEnd }, text: ` { ${item} }` };
  const at = { start: open.end, end: open.end };
  const openLine = toPosition(analysis.file, open.start).line;
  if (toPosition(analysis.file, range.end).line === openLine) return { at, text: ` ${item}` };
  const lineStart = analysis.file.lineStarts[openLine] as number;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
  return { at, text: `${lineBreakAt(text, lineStart)}${indent}  ${item}` };
}

/**
 * The line break that ends the line starting at `lineStart` (`\r\n`, `\r` or `\n`; `\n` for the
 * last line when it has none), so that a line a fix inserts ends as its neighbours do and a CRLF
 * file does not get mixed line endings.
 */
function lineBreakAt(text: string, lineStart: number): string {
  let at = lineStart;
  while (at < text.length && text[at] !== "\n" && text[at] !== "\r") at++;
  if (text[at] !== "\r") return "\n";
  return text[at + 1] === "\n" ? "\r\n" : "\r";
}
