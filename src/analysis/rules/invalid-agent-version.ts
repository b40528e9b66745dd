import type { AgentDecl } from "../../parser/ast.js";
import { parseAgentVersion } from "../../core/agent-version.js";
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { defineRule } from "../rule.js";

/**
 * `invalid-agent-version` (error): an agent's `version` is not a version, so ingest could not
 * compare the versions envelopes claim for it. The form and the comparison are Semantic
 * Versioning 2.0.0's (https://semver.org), as `src/core/agent-version.ts` defines them.
 */
export const invalidAgentVersionRule = defineRule({
  meta: {
    id: "invalid-agent-version",
    severity: "error",
    description: "An agent's version is not MAJOR.MINOR.PATCH, so envelopes cannot be checked against it.",
  },
  check({ model, report }) {
    const { agents } = model.bound.items;
    // Index loops: see docs/performance.md, "Loops over a large graph".
    for (let a = 0; a < agents.length; a++) {
      const agent = agents[a] as AgentDecl;
      for (let k = 0; k < agent.items.length; k++) {
        const item = agent.items[k] as AgentDecl["items"][number];
        if (item.kind !== "AgentVersion" || item.hasError || parseAgentVersion(item.value.value) !== undefined) continue;
        report({
          range: item.value.range,
          message: `version ${quoteUntrusted(item.value.value)} of agent '${agent.name.name}' is not a version: write MAJOR.MINOR.PATCH as Semantic Versioning does, such as "2.4.0" (numbers without leading zeros, optionally -prerelease and +build).`,
        });
      }
    }
  },
});
