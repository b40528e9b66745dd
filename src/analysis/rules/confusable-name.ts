import { defineRule } from "../rule.js";
import { codePointsBeyondAscii } from "../unicode/describe-characters.js";
import { hasNonAscii, skeleton } from "../unicode/skeleton.js";

/**
 * `confusable-name` (warning): two agents of one graph whose names differ but look alike (the
 * same UTS #39 skeleton: `editor` and `еditor` with a Cyrillic `е`), so a picture, a log line
 * or a review shows two agents as one. As Rust's `confusable_idents`, a pair of ASCII names is
 * not reported (`rn` and `m` share a skeleton, but ASCII is read as ASCII), and the table is
 * read only when a name beyond ASCII exists.
 */
export const confusableNameRule = defineRule({
  meta: {
    id: "confusable-name",
    severity: "warning",
    description: "Two agents have different names that look alike (the same Unicode UTS #39 skeleton).",
  },
  check({ model, report }) {
    const agents = model.bound.agents;
    if (!agents.some((a) => hasNonAscii(a.id))) return;
    const first = new Map<string, (typeof agents)[number]>();
    for (const agent of agents) {
      const key = skeleton(agent.id);
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, agent);
        continue;
      }
      if (!hasNonAscii(agent.id) && !hasNonAscii(earlier.id)) continue;
      const odd = codePointsBeyondAscii(`${earlier.id}${agent.id}`);
      report({
        range: agent.decl.name.range,
        message: `agent '${agent.id}' looks like agent '${earlier.id}' but is another name (they differ in look-alike characters: ${odd}): rename one so that the two can be told apart.`,
        related: [{ message: `'${earlier.id}' is declared here`, range: earlier.decl.name.range }],
      });
    }
  },
});
