import type { Range } from "../../core/source-file.js";
import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `duplicate-setting` (error): a setting written twice where only one value can hold: a graph's
 * `envelope`, `hop_limit`, `on_hop_limit`, `loop_signature` or `contract KIND`, an agent's
 * `version`, an edge's `max_rounds`. Binding keeps the first; this rule says so rather than
 * silently choosing.
 */
export const duplicateSettingRule = defineRule({
  meta: {
    id: "duplicate-setting",
    severity: "error",
    description: "A setting that takes one value is written more than once.",
  },
  check({ model, report }) {
    const seen = new Map<string, Range>();
    const note = (key: string, label: string, owner: string, range: Range): void => {
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, range);
        return;
      }
      report({
        range,
        message: `${label} is set twice in ${owner}: keep one line (the first is the one used).`,
        related: [{ message: `first ${label}`, range: first }],
      });
    };
    const graph = `graph '${model.bound.name}'`;
    for (const item of model.bound.decl.items) {
      switch (item.kind) {
        case "Envelope":
          note("envelope", "envelope", graph, item.range);
          break;
        case "HopLimit":
          note("hop_limit", "hop_limit", graph, item.range);
          break;
        case "OnHopLimit":
          note("on_hop_limit", "on_hop_limit", graph, item.range);
          break;
        case "LoopSignature":
          note("loop_signature", "loop_signature", graph, item.range);
          break;
        case "Contract":
          note(`contract ${item.edgeKind.value}`, `contract ${item.edgeKind.value}`, graph, item.range);
          break;
        case "Agent":
          for (const agentItem of item.items) {
            if (agentItem.kind === "AgentVersion") {
              note(`version of ${item.name.name} ${item.range.start}`, "version", `agent '${item.name.name}'`, agentItem.range);
            }
          }
          break;
        case "Edge":
          for (const edgeItem of item.items) {
            if (edgeItem.kind === "MaxRounds") {
              note(`max_rounds of ${item.range.start}`, "max_rounds", describeEdge(item), edgeItem.range);
            }
          }
          break;
        case "Entry":
          break;
      }
    }
  },
});
