import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";

// Copies of /work/shared/cases/graphs (the shared folder is not read by tests).
const folder = fileURLToPath(new URL("../fixtures/cases/graphs/", import.meta.url));

interface Expectation {
  readonly exit: number;
  readonly rules: readonly string[];
  readonly absent: readonly string[];
  readonly hopLimit?: number;
  readonly messageMentions?: Readonly<Record<string, readonly string[]>>;
}

const names = readdirSync(folder)
  .filter((f) => f.endsWith(".seam"))
  .map((f) => f.slice(0, -".seam".length))
  .sort();

describe("shared graph cases", () => {
  it("finds the cases", () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
  });

  for (const name of names) {
    it(name, () => {
      const text = readFileSync(`${folder}${name}.seam`, "utf8");
      const expected = JSON.parse(readFileSync(`${folder}${name}.expect.json`, "utf8")) as Expectation;
      const result = checkText(`${name}.seam`, text);
      const reported = new Set(result.diagnostics.map((d) => d.rule));
      for (const rule of expected.rules) expect(reported, `${rule} reported`).toContain(rule);
      for (const rule of expected.absent) expect(reported, `${rule} absent`).not.toContain(rule);
      for (const [rule, words] of Object.entries(expected.messageMentions ?? {})) {
        const messages = result.diagnostics.filter((d) => d.rule === rule).map((d) => d.message).join("\n");
        for (const word of words) expect(messages).toContain(word);
      }
      if (expected.hopLimit !== undefined) expect(result.graphs[0]?.hopLimit.value).toBe(expected.hopLimit);
      const errors = result.diagnostics.some((d) => d.severity === "error");
      expect(errors ? 1 : 0).toBe(expected.exit);
    });
  }
});
