import type { TerminalDecl } from "../../parser/ast.js";
import { defineRule } from "../rule.js";

/** `duplicate-terminal` (error): one agent declares the same terminal id twice. */
export const duplicateTerminalRule = defineRule({
  meta: {
    id: "duplicate-terminal",
    severity: "error",
    description: "An agent declares the same terminal id more than once.",
  },
  check({ model, report }) {
    for (const item of model.bound.decl.items) {
      if (item.kind !== "Agent") continue;
      const first = new Map<string, TerminalDecl>();
      for (const terminal of item.items) {
        if (terminal.kind !== "Terminal") continue;
        const earlier = first.get(terminal.name.name);
        if (earlier === undefined) {
          first.set(terminal.name.name, terminal);
          continue;
        }
        report({
          range: terminal.name.range,
          message: `agent '${item.name.name}' declares terminal '${terminal.name.name}' twice: rename one or remove it.`,
          related: [{ message: `first terminal '${terminal.name.name}'`, range: earlier.name.range }],
        });
      }
    }
  },
});
