import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { MAX_GUARD_STEPS } from "../../../src/analysis/guards.js";
import { lines, ruleTable } from "./rule-table.js";

/** A router of `n` transfers out of r, each on its own next step and confidence floor; the first guard marked. */
function router(n: number, mark: boolean): string {
  const out = ["graph g {", "  envelope 1.3", "  entry r", "  agent r: peer"];
  for (let i = 0; i < n; i++) out.push(`  agent a${i}: peer { terminal t }`);
  for (let i = 0; i < n; i++) {
    const guard = `when allowed_next_step is s${i} and confidence >= 0.${String(i + 1).padStart(4, "0")}`;
    out.push(`  transfer r -> a${i} ${i === 0 && mark ? `«${guard}»` : guard}`);
  }
  out.push("}");
  return lines(...out);
}

ruleTable("guards-unchecked", {
  // 101 next steps x 203 confidence pieces x 100 guards: 2,050,300 tests, and few overlaps: checked.
  valid: [{ name: "a router of 100 guards on two subjects", code: router(100, false) }],
  invalid: [
    {
      // Tests alone: 151 next steps x 303 confidence pieces (cut at 0, 1 and 150 floors) x 150 guards = 6,862,950 tests.
      name: "a router of 150 guards on two subjects",
      code: router(150, true),
      errors: [
        {
          severity: "warning",
          message:
            "the 150 guarded edges out of r need more than the 4,000,000 steps the exact check makes (45,753 cases, each tried against every guard, and each pair of guards that match one case): " +
            "gaps, overlaps and unreachable guards are not checked for them; route in two steps (on status or allowed_next_step first, then on confidence) so that each agent's guards test fewer values",
        },
      ],
    },
    {
      // 2,003 confidence pieces x 1,000 guards is 2,003,000 tests, but the guards all overlap: about
      // 1,000 x 1,000 / 2 pairs in each of the top thousand pieces.
      name: "a router of 1,000 confidence floors",
      code: lines(
        "graph g {",
        "  entry r",
        "  agent r: peer",
        ...Array.from({ length: 1000 }, (_, i) => `  agent a${i}: peer { terminal t }`),
        ...Array.from({ length: 1000 }, (_, i) => `  transfer r -> a${i} ${i === 0 ? "«" : ""}when confidence >= 0.${String(i + 1).padStart(4, "0")}${i === 0 ? "»" : ""}`),
        "}",
      ),
      errors: [{ severity: "warning", mentions: ["the 1,000 guarded edges out of r need more than the 4,000,000 steps", "(2,003 cases,"] }],
    },
  ],
});

it("states the bound in the docs as the check has it", () => {
  const bound = MAX_GUARD_STEPS.toLocaleString("en-US");
  for (const page of ["../../../docs/rules/guards-unchecked.md", "../../../docs/cli.md"]) {
    expect(readFileSync(new URL(page, import.meta.url), "utf8")).toContain(`${bound} `);
  }
});
