/**
 * File names, git refs and the tokens quoted in syntax errors are text an attacker chooses (a
 * pull request can add a file called `a<ESC>]0;pwned<BEL>.seam`). No command may send their
 * control characters to the terminal or a CI log raw: they are written as escapes
 * (`core/untrusted-text.ts`), in the pretty and the `github` formats and on stderr alike.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

/** ESC ] 0 ; ... BEL sets the terminal's title; the line break would forge a second line. */
const HOSTILE = "a\u001b]0;pwned\u0007\nb";
const SHOWN = "a\\u001b]0;pwned\\u0007\\nb";
/** In a GitHub workflow command the line break is the command's own escape, which the runner undoes. */
const SHOWN_GITHUB = "a\\u001b]0;pwned\\u0007%0Ab";
/** Any C0 control but the line feed that ends each line, DEL or a C1 control. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** RIGHT-TO-LEFT OVERRIDE: makes a terminal show the rest of the line reversed. */
const BIDI = "\u202e";
const RAW_BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const GOOD = "seam 1\n\ngraph g {\n  envelope 1.3\n  entry a\n\n  agent a: worker { terminal done complete \"done\" }\n}\n";
/** A syntax error whose found token is a string holding ESC and BEL. */
const BAD_TOKEN = 'seam 1\n\ngraph g {\n  agent "\u001b[31mred\u0007" \n}\n';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "seam-hostile-"));
  await writeFile(join(folder, `${HOSTILE}.seam`), GOOD.replace("entry a\n", "entry a\n  agent unused: worker { terminal t complete \"t\" }\n"));
  await writeFile(join(folder, `${HOSTILE}-bad.seam`), BAD_TOKEN);
  await writeFile(join(folder, `${HOSTILE}-messy.seam`), GOOD.replace("  entry a", "    entry   a"));
  await writeFile(join(folder, "good.seam"), GOOD);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function seam(argv: string[]) {
  const io = createFakeIo(folder);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe("hostile file names and tokens are escaped on their way to the terminal", () => {
  it("seam check (pretty): the file name in the header, the token in the message", async () => {
    const r = await seam(["check", `${HOSTILE}-bad.seam`]);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(RAW_CONTROL);
    expect(r.out.split("\n")[0]).toBe(
      `${SHOWN}-bad.seam:4:9 - error syntax: expected a name after 'agent', found '"\\u001b[31mred\\u0007"'`,
    );
  });

  it("seam check --format github: the file property and the message", async () => {
    const r = await seam(["check", `${HOSTILE}-bad.seam`, "--format", "github"]);
    expect(r.out).toBe(
      `::error file=${SHOWN_GITHUB}-bad.seam,line=4,endLine=4,col=9,endColumn=20,title=seam syntax::` +
        `expected a name after 'agent', found '"\\u001b[31mred\\u0007"'\n`,
    );
  });

  it("seam check --format json keeps the name itself (JSON escapes it)", async () => {
    const r = await seam(["check", `${HOSTILE}-bad.seam`, "--format", "json"]);
    expect(r.out).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(r.out)[0].file).toBe(`${HOSTILE}-bad.seam`);
  });

  it("seam check --format json and sarif write a bidi control in a file name or message as \\uXXXX", async () => {
    const name = `b${BIDI}evil.seam`;
    await writeFile(join(folder, name), BAD_TOKEN.replace("\u001b[31mred\u0007", `x${BIDI}y`));
    const r = await seam(["check", name, "--format", "json"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe("");
    expect(r.out).toBe(
      "[\n  {\n" +
        '    "file": "b\\u202eevil.seam",\n' +
        '    "rule": "syntax",\n    "severity": "error",\n' +
        `    "message": "expected a name after 'agent', found '\\"x\\\\u202ey\\"'",\n` +
        '    "line": 4,\n    "column": 9,\n    "endLine": 4,\n    "endColumn": 14\n  }\n]\n',
    );
    expect(JSON.parse(r.out)[0].file).toBe(name);
    const sarif = await seam(["check", name, "--format", "sarif"]);
    expect(sarif.code).toBe(1);
    expect(sarif.out).not.toMatch(RAW_BIDI);
    expect(sarif.out).toContain('"text": "expected a name after');
  });

  it("seam check --format json of a file without such characters is the plain JSON.stringify", async () => {
    const r = await seam(["check", "good.seam", "--format", "json"]);
    expect(r).toEqual({ code: 0, out: "[]\n", err: "" });
    const bad = await seam(["check", `${HOSTILE}-bad.seam`, "--format", "json"]);
    expect(bad.out).toBe(`${JSON.stringify(JSON.parse(bad.out), null, 2)}\n`);
  });

  it("seam fmt: the path of each file it rewrites, and its refusal of a file with errors", async () => {
    const check = await seam(["fmt", "--check", `${HOSTILE}-messy.seam`]);
    expect(check).toEqual({ code: 1, out: `${SHOWN}-messy.seam\n`, err: "" });
    const bad = await seam(["fmt", `${HOSTILE}-bad.seam`]);
    expect(bad.code).toBe(2);
    expect(bad.err).not.toMatch(RAW_CONTROL);
    expect(bad.err.split("\n")[0]).toBe(`seam: ${SHOWN}-bad.seam: has syntax errors and was not formatted (fix the errors below first)`);
  });

  it("seam compile: the refusal line and the paths it writes", async () => {
    const bad = await seam(["compile", `${HOSTILE}-bad.seam`, "--out", "out"]);
    expect(bad.code).toBe(1);
    expect(bad.err).not.toMatch(RAW_CONTROL);
    expect(bad.err).toContain(`seam: ${SHOWN}-bad.seam: not compiled: 1 error (fix it, then compile again)\n`);
    const good = await seam(["compile", "good.seam", "--out", `${HOSTILE}-out`]);
    expect(good.code).toBe(0);
    expect(good.out).not.toMatch(RAW_CONTROL);
    expect(good.out.split("\n")[0]).toMatch(new RegExp(`^${SHOWN.replace(/\\/g, "\\\\")}-out/`));
  });

  it("a missing file: the one-line problem on stderr", async () => {
    const r = await seam(["check", `${HOSTILE}-missing.seam`]);
    expect(r).toEqual({ code: 2, out: "", err: `seam: ${SHOWN}-missing.seam: no such file or folder (check the path)\n` });
  });

  it("a name without control characters prints as it is", async () => {
    const r = await seam(["check", "good.seam", "--format", "github"]);
    expect(r).toEqual({ code: 0, out: "", err: "" });
    const missing = await seam(["check", "nothing-here.seam"]);
    expect(missing.err).toBe("seam: nothing-here.seam: no such file or folder (check the path)\n");
  });
});

const hasGit = spawnSync("git", ["--version"]).status === 0;
if (!hasGit) console.log("skipping the seam diff hostile-name tests: the git program is missing (apt-get install git)");

describe.skipIf(!hasGit)("seam diff: hostile refs and file names in git", () => {
  const git = (...args: string[]): void => {
    execFileSync("git", args, { cwd: folder, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: folder } });
  };

  it("a ref that names no commit is shown escaped", async () => {
    git("init", "-q");
    const r = await seam(["diff", "--against", `${HOSTILE}-ref`, "good.seam"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `seam: ${SHOWN}-ref: names no commit of this repository (pass a branch, tag or commit that exists (git log --oneline))\n`,
    );
  });

  it("a finding in a file with a hostile name, against a commit", async () => {
    git("add", "--", `${HOSTILE}.seam`);
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x");
    await writeFile(join(folder, `${HOSTILE}.seam`), GOOD);
    for (const format of ["pretty", "github"]) {
      const r = await seam(["diff", "--against", "HEAD", `${HOSTILE}.seam`, "--format", format]);
      expect(r.err).toBe("");
      expect(r.out).not.toMatch(RAW_CONTROL);
      expect(r.out).toContain(format === "pretty" ? `${SHOWN}.seam:` : `file=${SHOWN_GITHUB}.seam,`);
    }
  });
});
