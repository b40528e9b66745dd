import { ENVELOPE_MINOR_VERSIONS } from "../../core/envelope-schema.js";
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
    const gates = [
      ...model.bound.items.agents.flatMap((agent) => agent.items.filter((item) => item.kind === "Gate" && !item.hasError).map((item) => item.range)),
      ...model.bound.items.gates.map((g) => g.range),
    ].sort((a, b) => a.start - b.start);
    for (const range of gates) {
      report({
        range,
        message: `an approval gate needs envelope 1.${APPROVAL_MINOR}, whose approval record says who approved, when and which handoff: this graph targets envelope ${envelope.major}.${envelope.minor}; write \`envelope 1.${APPROVAL_MINOR}\``,
      });
    }
  },
});
