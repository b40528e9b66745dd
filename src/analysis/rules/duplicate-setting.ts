import type { RepeatedSetting } from "../bind.js";
import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `duplicate-setting` (error): a setting written twice where only one value can hold: a graph's
 * `envelope`, `hop_limit`, `on_hop_limit`, `loop_signature` or `contract KIND`, an agent's
 * `version`, an edge's `max_rounds`. Binding keeps the first and lists the others; this rule says
 * so rather than silently choosing.
 */
export const duplicateSettingRule = defineRule({
  meta: {
    id: "duplicate-setting",
    severity: "error",
    description: "A setting that takes one value is written more than once.",
  },
  check({ model, report }) {
    for (const setting of model.bound.dropped.settings) {
      report({
        range: setting.range,
        message: `${setting.label} is set twice in ${ownerName(setting.owner)}: keep one line (the first is the one used).`,
        related: [{ message: `first ${setting.label}`, range: setting.firstRange }],
      });
    }
  },
});

function ownerName(owner: RepeatedSetting["owner"]): string {
  switch (owner.kind) {
    case "Graph":
      return `graph '${owner.name.name}'`;
    case "Agent":
      return `agent '${owner.name.name}'`;
    case "Edge":
      return describeEdge(owner);
  }
}
