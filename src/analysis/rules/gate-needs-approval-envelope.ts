import { ENVELOPE_MINOR_VERSIONS } from "../../core/envelope-schema.js";
import type { Range } from "../../core/source-file.js";
import type { AgentDecl } from "../../parser/ast.js";
import { defineRule } from "../rule.js";

/** The minor envelope version that carries approval records. */
const APPROVAL_MINOR = ENVELOPE_MINOR_VERSIONS.find((v) => v.adds.includes("approval"))?.minor as number;

/**
 * `gate-needs-approval-envelope` (error): a `gate` in a graph whose envelope version has no
 * approval record (older than 1.4), so no envelope could carry the approval the gate gives.
 */
export const gateNeedsApprovalEnvelopeRule = defineRule({
  meta: {
    id: "gate-needs-approval-envelope",
    severity: "error",
    description: `An approval gate in a graph whose envelope version is older than 1.${APPROVAL_MINOR}, which has no approval record.`,
  },
  check({ model, report }) {
    const { envelope } = model.graph;
    if (envelope.major !== 1 || envelope.minor >= APPROVAL_MINOR) return;
    const { agents, gates: edgeGates } = model.bound.items;
    const gates: Range[] = [];
    // Index loops, and no list per agent: this reads every agent of a graph whose envelope is
    // older than the approval record (docs/performance.md, "Loops over a large graph").
    for (let a = 0; a < agents.length; a++) {
      const { items } = agents[a] as AgentDecl;
      for (let k = 0; k < items.length; k++) {
        const item = items[k] as AgentDecl["items"][number];
        if (item.kind === "Gate" && !item.hasError) gates.push(item.range);
      }
    }
    for (let g = 0; g < edgeGates.length; g++) gates.push((edgeGates[g] as (typeof edgeGates)[number]).range);
    gates.sort((a, b) => a.start - b.start);
    for (const range of gates) {
      report({
        range,
        message: `an approval gate needs envelope 1.${APPROVAL_MINOR}, whose approval record says who approved, when and which handoff: this graph targets envelope ${envelope.major}.${envelope.minor}; write \`envelope 1.${APPROVAL_MINOR}\``,
      });
    }
  },
});
