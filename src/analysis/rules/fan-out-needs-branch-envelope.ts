import type { CheckedEdge } from "../model.js";
import { ENVELOPE_MINOR_VERSIONS } from "../../core/envelope-schema.js";
import { hasFanOut } from "../fan-outs.js";
import { defineRule } from "../rule.js";
import { fanOutLine } from "./fan-out-invalid.js";

/** The minor envelope version that carries `hop.branch`. */
const BRANCH_MINOR = ENVELOPE_MINOR_VERSIONS.find((v) => v.adds.includes("hop.branch"))?.minor as number;

/**
 * `fan-out-needs-branch-envelope` (error): a `fan_out` delegation in a graph whose envelope
 * version has no `hop.branch` (older than 1.4). No envelope could say which branch it travels
 * in, so ingest would check each branch as a plain delegation of the same hop: the second is a
 * second owner, and no join, budget split or branch is enforced.
 */
export const fanOutNeedsBranchEnvelopeRule = defineRule({
  meta: {
    id: "fan-out-needs-branch-envelope",
    severity: "error",
    description: `A fan_out delegation in a graph whose envelope version is older than 1.${BRANCH_MINOR}, which has no hop.branch.`,
  },
  check({ model, report }) {
    const { envelope } = model.graph;
    if (envelope.major !== 1 || envelope.minor >= BRANCH_MINOR || !hasFanOut(model.graph)) return;
    // An index loop: see docs/performance.md, "Loops over a large graph".
    for (let e = 0; e < model.graph.edges.length; e++) {
      const edge = model.graph.edges[e] as CheckedEdge;
      // fan_out on another kind of edge is fan-out-invalid's finding.
      if (edge.fanOut === undefined || edge.kind !== "delegate") continue;
      const line = fanOutLine(edge);
      if (line === undefined) continue;
      report({
        range: line.range,
        message: `fan-out '${edge.fanOut}' of '${edge.from}' needs envelope 1.${BRANCH_MINOR}, whose hop.branch names the branch each handoff travels in: this graph targets envelope ${envelope.major}.${envelope.minor}, where ingest checks each branch as a plain delegation of the same hop (the second is refused as a second owner); write \`envelope 1.${BRANCH_MINOR}\``,
      });
    }
  },
});
