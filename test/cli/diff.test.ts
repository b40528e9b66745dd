/**
 * `seam diff` on the command line: two files, the formats and exit codes of `seam check`, bad
 * input (exit 2 with file:line:column), and `--against` on a real git repository made in a
 * temporary folder (the `git` program; the tests skip, saying so, when it is missing).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { MAX_SOURCE_BYTES, sizeProblem } from "../../src/core/source-limit.js";
import { BASE, edit } from "../diff/helpers.js";
import { createFakeIo } from "./fake-io.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "seam-diff-"));
  dirs.push(dir);
  return dir;
}

const TIGHTER = edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 1 }"]);
const FIELD = edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 require goal.out_of_scope }"]);
const ROUNDS_MESSAGE =
  "max_rounds of boss -> analyst fell from 2 to 1: every agent counts rounds in hop.path, so a task in flight that already took boss -> analyst once is refused the next time it does";

async function seam(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = createFakeIo(cwd);
  const code = await run(["diff", ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

function files(texts: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(texts)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("seam diff <old> <new>", () => {
  it("exits 1 on a breaking change and prints it as seam check does", async () => {
    const dir = files({ "old.seam": BASE, "new.seam": TIGHTER });
    const { code, out, err } = await seam(dir, "old.seam", "new.seam");
    expect(code).toBe(1);
    expect(err).toBe("");
    expect(out).toBe(
      `new.seam:22:41 - error max-rounds-lowered: ${ROUNDS_MESSAGE}\n\n` +
        "  22 |   delegate boss -> analyst { max_rounds 1 }\n" +
        "     |                                         ^\n\n" +
        "1 error in 1 file\n",
    );
  });

  it("exits 0 when only deploy-order and safe changes are found", async () => {
    const dir = files({ "old.seam": BASE, "new.seam": FIELD });
    const { code, out } = await seam(dir, "old.seam", "new.seam", "--format", "json");
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([
      {
        file: "new.seam",
        rule: "required-field-added",
        severity: "warning",
        message:
          "analyst now requires goal.out_of_scope on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it",
        line: 22,
        column: 51,
        endLine: 22,
        endColumn: 68,
        class: "sender-first",
        graph: "desk",
        owner: "analyst",
        subject: { in: "new", edge: { kind: "delegate", from: "boss", to: "analyst" }, field: "goal.out_of_scope" },
      },
    ]);
  });

  it("prints nothing but the summary for the same graph, reordered", async () => {
    const dir = files({ "old.seam": BASE, "new.seam": BASE.replace("  return analyst -> boss\n", "").replace("  agent lead: supervisor\n", "  agent lead: supervisor\n  return analyst -> boss // moved\n") });
    expect(await seam(dir, "old.seam", "new.seam")).toEqual({ code: 0, out: "no changes to the handoff contracts in 1 file\n", err: "" });
  });

  it("github and sarif formats", async () => {
    const dir = files({ "old.seam": BASE, "new.seam": TIGHTER });
    const github = await seam(dir, "old.seam", "new.seam", "--format", "github");
    expect(github.out).toBe(
      `::error file=new.seam,line=22,endLine=22,col=41,endColumn=42,title=seam max-rounds-lowered::${ROUNDS_MESSAGE}\n`,
    );
    const sarif = JSON.parse((await seam(dir, "old.seam", "new.seam", "--format", "sarif")).out);
    const rules = sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id);
    expect(rules).toContain("max-rounds-lowered");
    expect(rules).toContain("major-bump-missing");
    expect(sarif.runs[0].results).toHaveLength(1);
    expect(sarif.runs[0].results[0]).toMatchObject({ ruleId: "max-rounds-lowered", level: "error", message: { text: ROUNDS_MESSAGE } });
    expect(sarif.runs[0].results[0].ruleIndex).toBe(rules.indexOf("max-rounds-lowered"));
    // Each finding's help is its page among the diff findings' docs, not a rule page of check.
    for (const rule of sarif.runs[0].tool.driver.rules as { id: string; helpUri: string; help: { text: string } }[]) {
      expect(rule.helpUri).toBe(new URL(`../../docs/diff/${rule.id}.md`, import.meta.url).href);
      expect(existsSync(fileURLToPath(rule.helpUri))).toBe(true);
      expect(rule.help.text).toContain(`Rule \`${rule.id}\` of \`seam diff\``);
    }
  });

  it("--fail-on missing-version-bump passes an announced break and fails an unannounced one", async () => {
    const dir = files({ "old.seam": BASE, "new.seam": TIGHTER, "bumped.seam": edit(TIGHTER, ['version "1.0.0"', 'version "2.0.0"']) });
    expect((await seam(dir, "old.seam", "bumped.seam", "--fail-on", "missing-version-bump")).code).toBe(0);
    expect((await seam(dir, "old.seam", "bumped.seam")).code).toBe(1);
    const failed = await seam(dir, "old.seam", "new.seam", "--fail-on", "missing-version-bump", "--format", "json");
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out).map((f: { rule: string }) => f.rule)).toEqual(["major-bump-missing", "max-rounds-lowered"]);
  });

  it("exits 2 with file:line:column when a side does not parse", async () => {
    const dir = files({ "old.seam": "graph g {\n  entry a\n  agent a: peer {\n", "new.seam": BASE });
    const { code, out, err } = await seam(dir, "old.seam", "new.seam");
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(/^old\.seam:3:\d+ - error syntax: /);
    expect(err).toContain("seam: old.seam: has errors, so its contract cannot be compared (fix them first; seam check shows them)\n");
  });

  it("exits 2 for a missing file and for a wrong number of files", async () => {
    const dir = files({ "old.seam": BASE });
    expect(await seam(dir, "old.seam", "gone.seam")).toEqual({ code: 2, out: "", err: "seam: gone.seam: no such file or folder (check the path)\n" });
    const one = await seam(dir, "old.seam");
    expect(one.code).toBe(2);
    expect(one.err).toBe("seam: diff takes two files, <old.seam> <new.seam>, or --against <ref> [files or folders...] (see 'seam diff --help')\n");
  });

  it("rejects an unknown --fail-on level", async () => {
    const dir = files({ "old.seam": BASE });
    const { code, err } = await seam(dir, "old.seam", "old.seam", "--fail-on", "warnings");
    expect(code).toBe(2);
    expect(err).toContain("Allowed choices are breaking, missing-version-bump");
  });
});

const hasGit = spawnSync("git", ["--version"]).status === 0;
if (!hasGit) console.log("skipping seam diff --against tests: the git program is missing (apt-get install git)");

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: cwd } });
}

/** A repository with graphs/desk.seam at tags v1 (BASE), v2 (TIGHTER) and a work tree given. */
function repository(work: string): string {
  const dir = tempDir();
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "t@example.com");
  git(dir, "config", "user.name", "t");
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs", "desk.seam"), BASE);
  writeFileSync(join(dir, "graphs", "old-only.seam"), "graph gone {\n  entry solo\n  agent solo: peer {\n    terminal t\n  }\n}\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "v1");
  git(dir, "tag", "v1");
  writeFileSync(join(dir, "graphs", "desk.seam"), edit(BASE, ["hop_limit 9", "hop_limit 8"]));
  git(dir, "commit", "-q", "-am", "v2");
  git(dir, "tag", "v2");
  writeFileSync(join(dir, "graphs", "desk.seam"), work);
  unlinkSync(join(dir, "graphs", "old-only.seam"));
  return dir;
}

describe.skipIf(!hasGit)("seam diff --against <ref>", () => {
  it("compares the work tree with a tag, file by file, and reports a removed file's graphs", async () => {
    const dir = repository(edit(BASE, ["hop_limit 9", "hop_limit 8"], ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 1 }"]));
    const { code, out, err } = await seam(dir, "--against", "v2", "graphs", "--format", "json");
    expect(err).toBe("");
    expect(code).toBe(1);
    expect(JSON.parse(out).map((f: { file: string; rule: string; line: number }) => [f.file, f.rule, f.line])).toEqual([
      ["graphs/desk.seam", "max-rounds-lowered", 22],
      ["v2:graphs/old-only.seam", "graph-removed", 1],
    ]);
  });

  it("several refs: every version still in flight, each finding naming the refs it holds against", async () => {
    const dir = repository(edit(BASE, ["hop_limit 9", "hop_limit 8"], ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 1 }"]));
    writeFileSync(join(dir, "graphs", "old-only.seam"), "graph gone {\n  entry solo\n  agent solo: peer {\n    terminal t\n  }\n}\n");
    const { code, out } = await seam(join(dir, "graphs"), "--against", "v1", "--against", "v2", "--format", "json");
    expect(code).toBe(1);
    const found = JSON.parse(out) as { rule: string; against: string[]; message: string }[];
    expect(found.map((f) => [f.rule, f.against])).toEqual([
      ["hop-limit-lowered", ["v1"]],
      ["max-rounds-lowered", ["v1", "v2"]],
    ]);
    expect(found[0]?.message).toBe(
      "the hop limit fell from 9 to 8: tasks in flight carry the old hop.limit, which every agent on the new graph refuses, and a task already past hop 7 cannot go on (against v1)",
    );
  });

  it("refuses a file at the ref over the size limit, before reading it, as it refuses one in the work tree", async () => {
    const dir = repository(BASE);
    writeFileSync(join(dir, "graphs", "desk.seam"), `${BASE}${" ".repeat(MAX_SOURCE_BYTES)}`);
    git(dir, "commit", "-q", "-am", "big");
    git(dir, "tag", "big");
    writeFileSync(join(dir, "graphs", "desk.seam"), BASE);
    const { code, err } = await seam(dir, "--against", "big", "graphs/desk.seam");
    expect(code).toBe(2);
    expect(err).toBe(`seam: big:graphs/desk.seam: ${sizeProblem(Buffer.byteLength(BASE) + MAX_SOURCE_BYTES, MAX_SOURCE_BYTES)} (split the graphs into smaller files)\n`);
  });

  it("takes a path deleted from the work tree when the ref has it, and refuses one that neither side has", async () => {
    const dir = repository(BASE);
    const { code, out } = await seam(dir, "--against", "v1", "graphs/old-only.seam", "--format", "json");
    expect(code).toBe(1);
    expect(JSON.parse(out).map((f: { file: string; rule: string }) => [f.file, f.rule])).toEqual([["v1:graphs/old-only.seam", "graph-removed"]]);
    expect(await seam(dir, "--against", "v1", "graphs/never.seam")).toEqual({
      code: 2,
      out: "",
      err: "seam: graphs/never.seam: no such file or folder (check the path)\n",
    });
  });

  it("exits 2 for a ref that names no commit, and for an option-like ref", async () => {
    const dir = repository(BASE);
    expect(await seam(dir, "--against", "v9", "graphs")).toEqual({
      code: 2,
      out: "",
      err: "seam: v9: names no commit of this repository (pass a branch, tag or commit that exists (git log --oneline))\n",
    });
    expect((await seam(dir, "--against=--output=/tmp/x", "graphs")).code).toBe(2);
  });

  it("exits 2 outside a git work tree", async () => {
    const dir = files({ "a.seam": BASE });
    const { code, err } = await seam(dir, "--against", "HEAD", ".");
    expect(code).toBe(2);
    expect(err).toMatch(/^seam: .+: is not in a git work tree \(not a git repository.*\) \(run seam diff --against inside a repository, or pass two files\)\n$/);
  });

  it("refuses a path outside the work tree at once, naming the work tree, without walking it", async () => {
    const dir = repository(BASE);
    const elsewhere = files({ "a.seam": BASE });
    // A link that a walk of the folder would report: the refusal comes first, and alone.
    symlinkSync(join(dir, "graphs", "desk.seam"), join(elsewhere, "link.seam"));
    const hint = "pass files or folders inside it, or run seam diff in the repository they belong to";
    for (const path of [elsewhere, relative(dir, elsewhere), join(elsewhere, "gone.seam")]) {
      expect(await seam(dir, "--against", "v1", path)).toEqual({
        code: 2,
        out: "",
        err: `seam: ${path}: is outside the git work tree ${realpathSync(dir)} (${hint})\n`,
      });
    }
    const both = await seam(dir, "--against", "v1", "graphs", elsewhere);
    expect(both).toEqual({ code: 2, out: "", err: `seam: ${elsewhere}: is outside the git work tree ${realpathSync(dir)} (${hint})\n` });
  });

  it("takes a path inside the work tree given as an absolute path, or from a folder below the top", async () => {
    const dir = repository(TIGHTER);
    for (const [cwd, path] of [[dir, join(dir, "graphs", "desk.seam")], [join(dir, "graphs"), "desk.seam"]] as const) {
      const { code, out, err } = await seam(cwd, "--against", "v1", path, "--format", "json");
      expect(err).toBe("");
      expect(code).toBe(1);
      expect(JSON.parse(out).map((f: { rule: string }) => f.rule)).toEqual(["max-rounds-lowered"]);
    }
  });

  it("takes a path that climbs out of the work tree and back in, as git would not", async () => {
    const dir = repository(TIGHTER);
    const back = `../${basename(dir)}`;
    const cases: [string, string, string[][]][] = [
      [dir, `${back}/graphs/desk.seam`, [["graphs/desk.seam", "max-rounds-lowered"]]],
      [join(dir, "graphs"), `../${back}/graphs/../graphs/desk.seam`, [["desk.seam", "max-rounds-lowered"]]],
      [dir, `${back}/graphs`, [["graphs/desk.seam", "max-rounds-lowered"], ["v1:graphs/old-only.seam", "graph-removed"]]],
    ];
    for (const [cwd, path, findings] of cases) {
      const { code, out, err } = await seam(cwd, "--against", "v1", path, "--format", "json");
      expect(err).toBe("");
      expect(code).toBe(1);
      expect(JSON.parse(out).map((f: { file: string; rule: string }) => [f.file, f.rule])).toEqual(findings);
    }
    // A file deleted from the work tree, named by a path that climbs out and back in.
    const gone = await seam(dir, "--against", "v1", `${back}/graphs/old-only.seam`, "--format", "json");
    expect([gone.err, gone.code]).toEqual(["", 1]);
    expect(JSON.parse(gone.out).map((f: { file: string; rule: string }) => [f.file, f.rule])).toEqual([["v1:graphs/old-only.seam", "graph-removed"]]);
  });

  it("takes a file whose name reads as git pathspec magic as that file", async () => {
    const dir = repository(BASE);
    writeFileSync(join(dir, ":(exclude)desk.seam"), BASE);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "magic");
    git(dir, "tag", "magic");
    writeFileSync(join(dir, ":(exclude)desk.seam"), TIGHTER);
    const { code, out, err } = await seam(dir, "--against", "magic", ":(exclude)desk.seam", "--format", "json");
    expect(err).toBe("");
    expect(code).toBe(1);
    expect(JSON.parse(out).map((f: { file: string; rule: string }) => [f.file, f.rule])).toEqual([[":(exclude)desk.seam", "max-rounds-lowered"]]);
  });

  it("exits 2 when the old side has errors, naming it ref:path:line:column", async () => {
    const dir = repository(BASE);
    writeFileSync(join(dir, "graphs", "desk.seam"), "graph broken {\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "broken");
    git(dir, "tag", "broken");
    writeFileSync(join(dir, "graphs", "desk.seam"), BASE);
    const { code, err } = await seam(dir, "--against", "broken", "graphs/desk.seam");
    expect(code).toBe(2);
    expect(err).toMatch(/^broken:graphs\/desk\.seam:1:15 - error syntax: /);
    expect(readFileSync(join(dir, "graphs", "desk.seam"), "utf8")).toBe(BASE);
  });
});
