import { lines, ruleTable } from "./rule-table.js";

const loop = ["  agent a: peer { terminal t }", "  agent b: peer", "  transfer a -> b", "  transfer b -> a"];

ruleTable("hop-limit-unbounded", {
  valid: [
    { name: "an explicit hop_limit", code: lines("graph g {", "  entry a", "  hop_limit 10", ...loop, "}") },
    {
      name: "auto with every loop bounded",
      code: lines("graph g {", "  entry a", "  hop_limit auto", "  agent a: peer { terminal t }", "  agent b: peer", "  transfer a -> b", "  transfer b -> a { max_rounds 3 }", "}"),
    },
  ],
  invalid: [
    {
      name: "hop_limit auto",
      code: lines("graph g {", "  entry a", "  hop_limit «auto", ...loop, "}"),
      errors: [{ mentions: ["a -> b -> a", "max_rounds", "hop_limit N"] }],
    },
    {
      name: "no hop_limit line",
      code: lines("graph «g {", "  entry a", ...loop, "}"),
      errors: [{ mentions: ["a -> b -> a"] }],
    },
    {
      name: "a computed limit beyond the largest exact JSON integer",
      code: lines(
        "graph g {",
        "  entry a",
        "  hop_limit «auto",
        "  agent a: peer { terminal t }",
        "  agent b: peer",
        "  transfer a -> b { max_rounds 4503599627370496 }",
        "  transfer b -> a { max_rounds 4503599627370496 }",
        "}",
      ),
      errors: [{ mentions: ["9007199254740991", "Lower the max_rounds"] }],
    },
  ],
});
