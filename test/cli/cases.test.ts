import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { JsonDiagnostic } from "../../src/cli/format/json.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

// The shared cases state what `seam check --format json NAME.seam` prints and exits with; this
// runs exactly that command in-process on the project's copies of them.
const casesDir = fileURLToPath(new URL("../fixtures/cases/graphs/", import.meta.url));
const examplesDir = fileURLToPath(new URL("../../examples/", import.meta.url));

interface Expectation {
  readonly exit: number;
  readonly rules: readonly string[];
  readonly absent: readonly string[];
  readonly messageMentions?: Readonly<Record<string, readonly string[]>>;
}

const names = readdirSync(casesDir)
  .filter((f) => f.endsWith(".seam"))
  .map((f) => f.slice(0, -".seam".length))
  .sort();

describe("seam check --format json on the shared graph cases", () => {
  it("finds the cases", () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
  });

  for (const name of names) {
    it(name, async () => {
      const expected = JSON.parse(readFileSync(`${casesDir}${name}.expect.json`, "utf8")) as Expectation;
      const io = createFakeIo(casesDir);
      const code = await run(["check", "--format", "json", `${name}.seam`], io);
      const printed = JSON.parse(io.out()) as JsonDiagnostic[];
      expect(code).toBe(expected.exit);
      const rules = new Set(printed.map((d) => d.rule));
      for (const rule of expected.rules) expect(rules, `${rule} reported`).toContain(rule);
      for (const rule of expected.absent) expect(rules, `${rule} absent`).not.toContain(rule);
      for (const [rule, words] of Object.entries(expected.messageMentions ?? {})) {
        const messages = printed.filter((d) => d.rule === rule).map((d) => d.message).join("\n");
        for (const word of words) expect(messages).toContain(word);
      }
      for (const d of printed) expect(d.file).toBe(`${name}.seam`);
    });
  }
});

describe("seam check examples", () => {
  it("finds at least six examples, every one clean (no errors, no warnings)", async () => {
    const io = createFakeIo(examplesDir);
    expect(await run(["check", ".", "--max-warnings", "0"], io)).toBe(0);
    expect(io.out()).toMatch(/^no problems in \d+ files\n$/);
    expect(Number(/in (\d+) files/.exec(io.out())?.[1])).toBeGreaterThanOrEqual(6);
    const json = createFakeIo(examplesDir);
    await run(["check", ".", "--format", "json"], json);
    expect(JSON.parse(json.out())).toEqual([]);
  });
});
