import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram, EXIT_USAGE, run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

const fixtures = fileURLToPath(new URL("../fixtures/cli/", import.meta.url));
const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("run: version and help", () => {
  it("prints the package version on stdout and exits 0", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["--version"], io)).toBe(0);
    expect(io.out()).toBe(`${version}\n`);
    expect(io.err()).toBe("");
  });

  it("prints help listing every command and exits 0", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["--help"], io)).toBe(0);
    for (const command of ["check", "compile", "validate", "graph"]) expect(io.out()).toContain(command);
    expect(io.out()).toContain("Exit codes");
  });

  it("prints a command's help with its options", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["check", "--help"], io)).toBe(0);
    expect(io.out()).toContain("--max-warnings");
    expect(io.out()).toMatch(/--format <format>[\s\S]*"sarif",\s+"github"/);
  });

  it("has a help command", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["help", "graph"], io)).toBe(0);
    expect(io.out()).toContain("Usage: seam graph");
    expect(io.out()).toContain("--name <graph>");
  });

  it("shows help on stderr and exits 2 without a command", async () => {
    const io = createFakeIo(fixtures);
    expect(await run([], io)).toBe(2);
    expect(io.err()).toContain("Usage: seam");
    expect(io.out()).toBe("");
  });
});

describe("run: usage errors exit 2 with one line on stderr", () => {
  const cases: { name: string; argv: string[]; mentions: string }[] = [
    { name: "unknown option", argv: ["check", "clean.seam", "--colour"], mentions: "unknown option '--colour'" },
    { name: "misspelt option (with a suggestion)", argv: ["check", "clean.seam", "--formt", "json"], mentions: "Did you mean --format?" },
    { name: "unknown command", argv: ["lint", "clean.seam"], mentions: "unknown command 'lint'" },
    { name: "bad --format for check", argv: ["check", "clean.seam", "--format", "xml"], mentions: "Allowed choices are pretty, json, sarif, github" },
    { name: "bad --format for graph", argv: ["graph", "clean.seam", "--format", "png"], mentions: "Allowed choices are mermaid, dot, svg" },
    { name: "bad --format for validate", argv: ["validate", "e.json", "--graph", "clean.seam", "--as", "lead", "--format", "sarif"], mentions: "Allowed choices are pretty, json" },
    { name: "negative --max-warnings", argv: ["check", "clean.seam", "--max-warnings", "-1"], mentions: "--max-warnings" },
    { name: "fractional --max-warnings", argv: ["check", "clean.seam", "--max-warnings", "1.5"], mentions: "whole number" },
    { name: "word as --max-warnings", argv: ["check", "clean.seam", "--max-warnings", "many"], mentions: "whole number" },
    { name: "check without paths", argv: ["check"], mentions: "missing required argument 'paths'" },
    { name: "compile without --out", argv: ["compile", "clean.seam"], mentions: "--out <dir>" },
    { name: "validate without --as", argv: ["validate", "e.json", "--graph", "clean.seam"], mentions: "--as <agent>" },
    { name: "graph with two files", argv: ["graph", "clean.seam", "error.seam"], mentions: "too many arguments" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const io = createFakeIo(fixtures);
      expect(await run(c.argv, io)).toBe(2);
      const lines = io.err().split("\n").filter((line) => line !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^seam: /);
      expect(lines[0]).toContain(c.mentions);
      expect(io.out()).toBe("");
    });
  }
});

describe("run: arguments quoted in an error are escaped and bounded", () => {
  it("escapes a control sequence in a refused option value and an unknown command", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["check", "clean.seam", "--format", "\u001b]0;PWNED\u0007"], io)).toBe(2);
    expect(io.err()).toBe(
      "seam: option '--format <format>' argument '\\u001b]0;PWNED\\u0007' is invalid. Allowed choices are pretty, json, sarif, github. (see 'seam check --help')\n",
    );
    const command = createFakeIo(fixtures);
    expect(await run(["\u001b[2Jlint"], command)).toBe(2);
    expect(command.err()).not.toContain("\u001b");
  });

  it("cuts a long value, and a long path, to a bounded line", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["check", "clean.seam", "--format", "x".repeat(100_000)], io)).toBe(2);
    expect(io.err().length).toBeLessThan(1200);
    const path = createFakeIo(fixtures);
    expect(await run(["check", "y".repeat(100_000)], path)).toBe(2);
    expect(path.err()).toBe(`seam: ${"y".repeat(1000)}\u2026 (99000 more characters): the name is too long (check the path)\n`);
  });
});

describe("run: dispatch", () => {
  it("runs check with the parsed options", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["check", "warning.seam", "--format", "json", "--max-warnings", "0"], io)).toBe(1);
    expect(JSON.parse(io.out())).toHaveLength(1);
  });

  it("accepts --max-warnings=N", async () => {
    const io = createFakeIo(fixtures);
    expect(await run(["check", "warning.seam", "--max-warnings=1"], io)).toBe(0);
  });
});

describe("run: only the command named first is defined", () => {
  /** `argv` parsed by the program with every command, as run() parses it. */
  async function runWhole(argv: string[], io: ReturnType<typeof createFakeIo>): Promise<number> {
    let exitCode = 0;
    try {
      await createProgram(io, (code) => (exitCode = code)).parseAsync(argv, { from: "user" });
      return exitCode;
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
      throw error;
    }
  }

  it("defines one command when the first argument names it, every command otherwise", () => {
    const io = createFakeIo(fixtures);
    const names = (argv?: string[]) => createProgram(io, () => {}, argv).commands.map((c) => c.name());
    expect(names(["check", "a.seam"])).toEqual(["check"]);
    expect(names(["lsp"])).toEqual(["lsp"]);
    const all = names();
    expect(all.length).toBeGreaterThan(8);
    for (const argv of [[], ["help", "check"], ["--version"], ["chek", "a.seam"], ["a.seam"]]) expect(names(argv)).toEqual(all);
    for (const name of all) expect(names([name])).toEqual([name]);
  });

  it.each([
    ["check", "clean.seam"],
    ["check", "error.seam", "--format", "json"],
    ["check"],
    ["check", "--help"],
    ["check", "--fromat", "json", "clean.seam"],
    ["check", "--format", "xml", "clean.seam"],
    ["check", "--max-warnings", "-1", "clean.seam"],
    ["check", "clean.seam", "--version"],
    ["compile", "--help"],
    ["compile", "clean.seam"],
    ["validate", "x.json"],
    ["graph", "clean.seam", "--format", "dot"],
    ["diff", "--fail-on", "never", "clean.seam", "clean.seam"],
    ["fmt", "--check", "clean.seam"],
    ["report", "--help"],
    ["import", "nothing"],
    ["lsp", "--help"],
  ])("seam %s ... prints and exits as with every command defined", async (...argv) => {
    const one = createFakeIo(fixtures);
    const whole = createFakeIo(fixtures);
    expect(await run(argv, one)).toBe(await runWhole(argv, whole));
    expect([one.out(), one.err()]).toEqual([whole.out(), whole.err()]);
  });
});
