import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleCatalog } from "../../src/analysis/rules/index.js";
import type { JsonDiagnostic } from "../../src/cli/format/json.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

const fixtures = fileURLToPath(new URL("../fixtures/cli/", import.meta.url));

async function check(argv: string[], cwd = fixtures) {
  const io = createFakeIo(cwd);
  const code = await run(["check", ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

async function checkJson(argv: string[], cwd = fixtures) {
  const result = await check([...argv, "--format", "json"], cwd);
  return { ...result, diagnostics: JSON.parse(result.out) as JsonDiagnostic[] };
}

describe("seam check: exit codes", () => {
  it("0 for a clean file", async () => {
    const r = await check(["clean.seam"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("no problems in 1 file\n");
    expect(r.err).toBe("");
  });

  it("0 for warnings only", async () => {
    const r = await checkJson(["warning.seam"]);
    expect(r.code).toBe(0);
    expect(r.diagnostics.map((d) => [d.rule, d.severity])).toEqual([["unreachable-agent", "warning"]]);
  });

  it("1 when a file has errors", async () => {
    const r = await checkJson(["error.seam"]);
    expect(r.code).toBe(1);
    expect(r.diagnostics.some((d) => d.rule === "unknown-agent" && d.severity === "error")).toBe(true);
  });

  it("1 for syntax errors", async () => {
    const r = await checkJson(["syntax.seam"]);
    expect(r.code).toBe(1);
    expect(r.diagnostics.find((d) => d.rule === "syntax")).toMatchObject({ line: 3, column: 14 });
  });

  it("1 when warnings exceed --max-warnings, 0 when they do not", async () => {
    const over = await check(["warning.seam", "error.seam", "--max-warnings", "1"]);
    expect(over.code).toBe(1);
    const exceeded = await check(["warning.seam", "clean.seam", "--max-warnings", "0"]);
    expect(exceeded.code).toBe(1);
    expect(exceeded.err).toBe("seam: 1 warning found, more than the 0 that --max-warnings allows\n");
    const within = await check(["warning.seam", "clean.seam", "--max-warnings", "1"]);
    expect(within.code).toBe(0);
    expect(within.err).toBe("");
  });
});

describe("seam check: folders", () => {
  it("searches recursively, sorted, skipping node_modules, dot-folders and other extensions", async () => {
    const r = await checkJson(["tree"]);
    expect(r.code).toBe(0);
    // tree/a.seam is clean; tree/sub/b.seam has a warning; the error files are in skipped folders.
    expect(r.diagnostics.map((d) => d.file)).toEqual(["tree/sub/b.seam"]);
    const pretty = await check(["tree"]);
    expect(pretty.out).toMatch(/1 warning in 2 files\n$/);
  });

  it("checks a file named twice (or inside a named folder) once", async () => {
    const r = await check(["tree", "tree/sub/b.seam", "./tree/sub"]);
    expect(r.out).toMatch(/1 warning in 2 files\n$/);
  });

  it("prints paths relative to the working folder with / separators", async () => {
    const r = await checkJson(["cli/tree"], join(fixtures, ".."));
    expect(r.diagnostics.map((d) => d.file)).toEqual(["cli/tree/sub/b.seam"]);
    const absolute = await checkJson([join(fixtures, "tree")], join(fixtures, "tree", "sub"));
    expect(absolute.diagnostics.map((d) => d.file)).toEqual(["b.seam"]);
  });
});

describe("seam check: --format json", () => {
  it("prints every field, 1-based with an exclusive end column", async () => {
    const r = await checkJson(["error.seam"]);
    const unknown = r.diagnostics.find((d) => d.rule === "unknown-agent");
    // line 8 is `  transfer lead -> helpr`; `helpr` spans columns 20-24.
    expect(unknown).toEqual({
      file: "error.seam",
      rule: "unknown-agent",
      severity: "error",
      message: expect.stringContaining("helper") as unknown as string,
      line: 8,
      column: 20,
      endLine: 8,
      endColumn: 25,
    });
    expect(Object.keys(unknown ?? {})).toEqual(["file", "rule", "severity", "message", "line", "column", "endLine", "endColumn"]);
  });

  it("prints [] for clean files", async () => {
    const r = await check(["clean.seam", "--format", "json"]);
    expect(r.out).toBe("[]\n");
  });

  it("orders by file, then position", async () => {
    const r = await checkJson(["warning.seam", "error.seam"]);
    const keys = r.diagnostics.map((d) => `${d.file}:${String(d.line).padStart(3, "0")}:${String(d.column).padStart(3, "0")}`);
    expect(keys).toEqual([...keys].sort());
    expect(r.diagnostics[0]?.file).toBe("error.seam");
  });
});

describe("seam check: --format sarif and --format github", () => {
  it("prints one SARIF run with the package version, every rule and one result per diagnostic", async () => {
    const version = (JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
    const json = await checkJson(["error.seam", "warning.seam"]);
    const r = await check(["error.seam", "warning.seam", "--format", "sarif"]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out) as {
      version: string;
      runs: { tool: { driver: { version: string; rules: unknown[] } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver.version).toBe(version);
    expect(log.runs[0]?.tool.driver.rules.length).toBe(ruleCatalog.length);
    expect(log.runs[0]?.results.map((x) => [x.ruleId, x.locations[0]?.physicalLocation.artifactLocation.uri])).toEqual(
      json.diagnostics.map((d) => [d.rule, d.file]),
    );
  });

  it("prints one workflow command per diagnostic", async () => {
    const r = await check(["error.seam", "warning.seam", "--format", "github"]);
    expect(r.code).toBe(1);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^::error file=error\.seam,line=8,endLine=8,col=20,endColumn=25,title=seam unknown-agent::unknown agent 'helpr'/);
    expect(lines[0]).toMatch(/^::warning file=error\.seam,/);
  });
});

describe("seam check: pretty output", () => {
  it("shows the location, rule, source line, caret underline and a summary", async () => {
    const r = await check(["error.seam", "warning.seam"]);
    expect(r.out).toMatchSnapshot();
  });

  it("has no ANSI codes when not a TTY, and colour on a TTY unless NO_COLOR", async () => {
    const plain = createFakeIo(fixtures);
    await run(["check", "error.seam"], plain);
    expect(plain.out()).not.toContain("\u001b[");

    const tty = createFakeIo(fixtures, { tty: true });
    await run(["check", "error.seam"], tty);
    expect(tty.out()).toContain("\u001b[31merror");

    const noColor = createFakeIo(fixtures, { tty: true, env: { NO_COLOR: "1" } });
    await run(["check", "error.seam"], noColor);
    expect(noColor.out()).not.toContain("\u001b[");

    const forced = createFakeIo(fixtures, { env: { FORCE_COLOR: "1" } });
    await run(["check", "error.seam"], forced);
    expect(forced.out()).toContain("\u001b[");

    const forcedOff = createFakeIo(fixtures, { tty: true, env: { FORCE_COLOR: "0" } });
    await run(["check", "error.seam"], forcedOff);
    expect(forcedOff.out()).not.toContain("\u001b[");
  });
});

describe("seam check: inputs that cannot be read (exit 2, other files still checked)", () => {
  let temp: string;
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), "seam-cli-"));
    await writeFile(join(temp, "latin1.seam"), Buffer.from("graph caf\xe9 {}\n", "latin1"));
    await writeFile(join(temp, "huge.seam"), "");
    await truncate(join(temp, "huge.seam"), 50 * 1024 * 1024); // sparse: no 50 MB written
    await mkdir(join(temp, "empty", "nested"), { recursive: true });
    await writeFile(join(temp, "empty", "nested", "readme.md"), "no graphs here\n");
    await mkdir(join(temp, "loop", "inner"), { recursive: true });
    await writeFile(join(temp, "loop", "inner", "g.seam"), "graph g {\n  entry a\n  agent a: peer {\n    terminal t\n  }\n}\n");
    await symlink(join(temp, "loop"), join(temp, "loop", "inner", "back"), "dir");
    await symlink(join(temp, "loop", "inner"), join(temp, "loop", "again"), "dir");
    await symlink(join(temp, "missing-target"), join(temp, "dangling.seam"));
    await mkdir(join(temp, "leak", "sub"), { recursive: true });
    await writeFile(join(temp, "secret.txt"), "KEY=s3cr3t\n");
    await writeFile(join(temp, "leak", "sub", "g.seam"), "graph g {\n  entry a\n  agent a: peer {\n    terminal t\n  }\n}\n");
    await symlink(join(temp, "secret.txt"), join(temp, "leak", "evil.seam"));
    await symlink(join(temp, "loop"), join(temp, "leak", "elsewhere"), "dir");
    await symlink(join(temp, "leak", "sub", "g.seam"), join(temp, "leak", "same.seam"));
    await writeFile(join(temp, "bom.seam"), "\ufeffgraph g {\n  entry a\n  agent a: peer {\n    terminal t\n  }\n}\n");
    await writeFile(join(temp, "bom-finding.seam"), "\ufeffgraph g { entry zz agent a: worker { terminal t } }\n");
  });
  afterAll(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  const expectOneLineError = (err: string, path: string, what: RegExp): void => {
    const line = err.split("\n").find((l) => l.startsWith(`seam: ${path}: `));
    expect(line, err).toBeDefined();
    expect(line).toMatch(what);
    expect(line).toMatch(/ \([^)]+\)$/); // what to do, in parentheses
  };

  it("a path that does not exist", async () => {
    const r = await checkJson(["nope.seam", join(fixtures, "error.seam")], temp);
    expect(r.code).toBe(2);
    expectOneLineError(r.err, "nope.seam", /no such file or folder/);
    expect(r.diagnostics.some((d) => d.rule === "unknown-agent")).toBe(true);
  });

  it("a dangling symbolic link given explicitly", async () => {
    const r = await check(["dangling.seam"], temp);
    expect(r.code).toBe(2);
    expectOneLineError(r.err, "dangling.seam", /no such file or folder/);
  });

  it("a file that is not UTF-8", async () => {
    const r = await checkJson(["latin1.seam", join(fixtures, "clean.seam")], temp);
    expect(r.code).toBe(2);
    expect(r.err).toContain("seam: latin1.seam:1:10: is not valid UTF-8 text from here on (byte 0xE9) (save the file as UTF-8)\n");
    expect(r.diagnostics).toEqual([]);
  });

  it("a 50 MB file", async () => {
    const r = await check(["huge.seam", join(fixtures, "warning.seam")], temp);
    expect(r.code).toBe(2);
    expectOneLineError(r.err, "huge.seam", /is 50 MB, over the 10 MB limit/);
    expect(r.out).toMatch(/1 warning in 1 file\n$/);
  });

  it("a folder with no .seam files", async () => {
    const r = await check(["empty", join(fixtures, "clean.seam")], temp);
    expect(r.code).toBe(2);
    expectOneLineError(r.err, "empty", /no \.seam files in this folder/);
    expect(r.out).toBe("no problems in 1 file\n");
  });

  it("prints no summary in pretty format when nothing could be read", async () => {
    const r = await check(["nope.seam"], temp);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
  });

  it("folder symlink loops end, and each file is checked once", async () => {
    const r = await check(["loop"], temp);
    expect(r.code).toBe(0);
    expect(r.out).toBe("no problems in 1 file\n");
  });

  it("a link out of the folder is reported and not read; one inside it is followed", async () => {
    const r = await check(["leak"], temp);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "seam: leak/elsewhere: is a symbolic link to a place outside the folder being checked, so it was not read (name the file itself to check it)\n" +
        "seam: leak/evil.seam: is a symbolic link to a place outside the folder being checked, so it was not read (name the file itself to check it)\n",
    );
    expect(r.out).toBe("no problems in 1 file\n");
    expect(r.out + r.err).not.toContain("s3cr3t");
    // Named itself, a link is read as the user asked.
    expect((await check([join("leak", "same.seam")], temp)).code).toBe(0);
  });

  it("a byte order mark is accepted", async () => {
    const r = await checkJson(["bom.seam"], temp);
    expect(r.code).toBe(0);
    expect(r.diagnostics).toEqual([]);
  });

  it("a byte order mark takes no column: line 1 findings are where an editor shows them, in every format", async () => {
    const json = await checkJson(["bom-finding.seam"], temp);
    expect(json.diagnostics.map((d) => [d.rule, d.line, d.column, d.endLine, d.endColumn])).toEqual([["unknown-agent", 1, 17, 1, 19]]);
    const github = await check(["bom-finding.seam", "--format", "github"], temp);
    expect(github.out).toContain("line=1,endLine=1,col=17,endColumn=19,");
    const sarif = await check(["bom-finding.seam", "--format", "sarif"], temp);
    const region = (JSON.parse(sarif.out) as { runs: { results: { locations: { physicalLocation: { region: unknown } }[] }[] }[] }).runs[0]?.results[0]?.locations[0]?.physicalLocation.region;
    expect(region).toMatchObject({ startLine: 1, startColumn: 17, endLine: 1, endColumn: 19 });
  });
});

describe("seam check: a file with more than 120,000 diagnostics", () => {
  let temp: string;
  /** `graphs` graphs, each delegating to `edges` undeclared agents: one unknown-agent error per edge. */
  const unknownAgents = (graphs: number, edges: number): string => {
    const lines: string[] = [];
    for (let g = 0; g < graphs; g++) {
      lines.push(`graph g${g} {`, "  entry a", "  agent a: supervisor { terminal done }");
      for (let i = 0; i < edges; i++) lines.push(`  delegate a -> z${i}`);
      lines.push("}");
    }
    return lines.join("\n") + "\n";
  };
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), "seam-cli-"));
    // Four graphs of 32,000: each graph's findings stay under what one spread can take, the file's do not.
    await writeFile(join(temp, "many.seam"), unknownAgents(4, 32_000));
    await writeFile(join(temp, "some.seam"), unknownAgents(1, 2_500));
  });
  afterAll(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  it("lists every one in JSON (no stack overflow while collecting them)", async () => {
    const r = await checkJson(["many.seam"], temp);
    expect(r.err).toBe("");
    expect(r.code).toBe(1);
    expect(r.diagnostics.filter((d) => d.rule === "unknown-agent")).toHaveLength(128_000);
  });

  it("prints at most 1,000 per file in pretty format, says how many more, and counts all in the summary", async () => {
    const all = (await checkJson(["some.seam"], temp)).diagnostics;
    expect(all.length).toBeGreaterThanOrEqual(2_500);
    const errors = all.filter((d) => d.severity === "error").length;
    const r = await check(["some.seam"], temp);
    expect(r.code).toBe(1);
    expect(r.out.match(/^some\.seam:\d+:\d+ - (error|warning|info) /gm)).toHaveLength(1000);
    expect(r.out).toContain(`\n... and ${all.length - 1000} more in some.seam (use seam check --format json to see all)\n`);
    expect(r.out).toMatch(new RegExp(`\\n${errors} errors(, \\d+ warnings?)?(, \\d+ info)? in 1 file\\n$`));
  });
});
