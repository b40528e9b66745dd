import { lines, ruleTable } from "./rule-table.js";

ruleTable("unsupported-envelope", {
  valid: [
    { name: "1.3", code: lines("graph g {", "  envelope 1.3", "  entry a", "  agent a: peer { terminal t }", "}") },
    { name: "1.4", code: lines("graph g {", "  envelope 1.4", "  entry a", "  agent a: peer { terminal t }", "}") },
    { name: "1.0", code: lines("graph g {", "  envelope 1.0", "  entry a", "  agent a: peer { terminal t }", "}") },
  ],
  invalid: [
    {
      name: "a newer minor and another major",
      code: lines("graph g {", "  envelope «1.5", "  entry a", "  agent a: peer { terminal t }", "}", "graph h {", "  envelope «2.0", "  entry a", "  agent a: peer { terminal t }", "}"),
      errors: [{ mentions: ["1.5", "envelope 1.4"] }, { mentions: ["2.0"] }],
    },
  ],
});
