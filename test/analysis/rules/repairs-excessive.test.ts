import { lines, ruleTable } from "./rule-table.js";

const graph = (edgeLine: string): string =>
  lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", edgeLine, "}");

ruleTable("repairs-excessive", {
  valid: [
    { name: "the default", code: graph("  transfer a -> b") },
    { name: "three repairs", code: graph("  transfer a -> b { repairs 3 }") },
    { name: "none: the first refusal escalates", code: graph("  transfer a -> b { repairs 0 }") },
  ],
  invalid: [
    {
      name: "four repairs",
      code: graph("  transfer a -> b { max_rounds 2\n    repairs «4 }"),
      errors: [{ severity: "warning", mentions: ["repairs 4 on transfer a -> b", "validation loop", "at most 3 (the default is 1)"] }],
    },
  ],
});
