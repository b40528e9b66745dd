import type { Identifier } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import type { CheckedEdge } from "../model.js";
import { defineRule } from "../rule.js";
import { hasFanOut } from "../fan-outs.js";
import { fanOutLine } from "./fan-out-invalid.js";
import { codePointsBeyondAscii } from "../unicode/describe-characters.js";
import { hasNonAscii, mixedScripts } from "../unicode/skeleton.js";

/**
 * `mixed-script-name` (warning): a graph, agent or fan-out name written in more than one script
 * (`еditor`: a Cyrillic `е`, then Latin), UTS #39 mixed-script detection, as Rust's
 * `mixed_script_confusables`. A fan-out's name travels in every branch's `hop.branch`, so it is
 * read in envelopes and logs like an agent's; it is reported once, at its first `fan_out` line. One script per name is what every writing system needs; a
 * mixture is how a name passes for another. Names in ASCII are never mixed, and the script
 * data is read only for a name beyond ASCII.
 */
export const mixedScriptNameRule = defineRule({
  meta: {
    id: "mixed-script-name",
    severity: "warning",
    description: "A graph, agent or fan-out name mixes characters of several scripts (Unicode UTS #39), as look-alike names do.",
  },
  check({ model, report }) {
    const consider = (what: string, name: Identifier): void => {
      if (!hasNonAscii(name.name)) return;
      const parts = mixedScripts(name.name);
      if (parts === undefined) return;
      const shown = parts.map((p) => `${p.script.replace(/_/g, " ")} '${p.text}'`).join(", ");
      report({
        range: name.range,
        message: `${what} name '${name.name}' mixes scripts (${shown}; ${codePointsBeyondAscii(name.name)}), so it can pass for a name it is not: write it in one script.`,
      });
    };
    consider("graph", model.graph.decl.name);
    const { agents } = model.bound;
    // Index loops: see docs/performance.md, "Loops over a large graph".
    for (let a = 0; a < agents.length; a++) consider("agent", (agents[a] as BoundAgent).decl.name);
    if (!hasFanOut(model.graph)) return;
    const fanOuts = new Set<string>();
    for (let e = 0; e < model.graph.edges.length; e++) {
      const edge = model.graph.edges[e] as CheckedEdge;
      // `fanOut` is the name of the edge's first complete fan_out line: an edge without one is
      // passed over without reading its items.
      if (edge.fanOut === undefined || fanOuts.has(edge.fanOut)) continue;
      const line = fanOutLine(edge);
      if (line === undefined) continue;
      fanOuts.add(line.name.name);
      consider("fan-out", line.name);
    }
  },
});
