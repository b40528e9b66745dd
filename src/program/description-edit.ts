/**
 * A letter typed inside a terminal's description (`terminal done complete "the customer has an
 * answer"`): no rule reads a description, so the check is the old one with the description's
 * string node and the checked terminal that copies its value swapped for new ones. This file
 * finds those two objects; `token-edit.ts` decides the rest of the edit is harmless and
 * `moved-check.ts` moves the offsets. A property test holds the result to a fresh check.
 */
import type { Range } from "../core/source-file.js";
import type { CheckedTerminal, CheckResult } from "../analysis/model.js";
import type { AgentDecl, StringLiteral } from "../parser/ast.js";
import { decodeString } from "../parser/decode-string.js";
import { containingNode } from "../parser/navigate.js";
import { syntaxRule } from "../parser/syntax-rule.js";

/**
 * The objects of `previous` to swap when the well-formed string literal at `range` (as the
 * previous check's tree has it) now reads `image` (quotes included) and ends where the edit moved
 * its end: its node and the checked terminal of the same agent. `undefined` when that literal
 * is not the description of a terminal the checked model holds exactly once (a description
 * elsewhere, an agent with two terminals of that name, a graph that was not analysed), since
 * other strings (versions, effects, guard values) are read by rules, and in a file with syntax
 * errors, whose messages may quote it.
 */
export function descriptionEdit(previous: CheckResult, range: Range, image: string): Map<object, unknown> | undefined {
  const decoded = decodeString(image);
  // A syntax error's message may quote the token before it as written, a description included.
  if (decoded.problems.length > 0 || previous.diagnostics.some((d) => d.rule === syntaxRule.id)) return undefined;
  const graph = containingNode(previous.ast.graphs, range);
  if (graph === undefined || graph.hasError) return undefined;
  const agent = containingNode(graph.items, range);
  if (agent?.kind !== "Agent" || agent.hasError) return undefined;
  const terminal = agent.items.find((item) => item.kind === "Terminal" && item.description?.range.start === range.start && item.description.range.end === range.end);
  if (terminal?.kind !== "Terminal" || terminal.hasError || terminal.description === undefined) return undefined;
  const name = terminal.name.name;
  if (agent.items.filter((item) => item.kind === "Terminal" && item.name?.name === name).length !== 1) return undefined;
  const checked = previous.graphs.find((g) => g.decl === graph)?.agents.find((a) => a.decl === (agent as AgentDecl));
  const old = checked?.terminals.find((t) => t.id === name);
  if (old === undefined || old.description !== terminal.description.value) return undefined;
  const newRange = { start: range.start, end: range.start + image.length };
  const node: StringLiteral = { kind: "StringLiteral", value: decoded.value, range: newRange };
  const updated: CheckedTerminal = { id: old.id, outcome: old.outcome, description: decoded.value };
  return new Map<object, unknown>([
    [terminal.description, node],
    [terminal.description.range, newRange],
    [old, updated],
  ]);
}
