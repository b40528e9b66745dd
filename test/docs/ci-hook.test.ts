/**
 * The pre-commit hook of docs/ci.md (its ```` ```sh hook ```` block), installed in a fresh git
 * repository whose `node_modules/.bin/seam` runs this checkout: a commit that stages a graph with
 * errors is stopped, one whose staged graphs are clean (a name with a space included) goes through.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";
import { codeBlocks, root } from "./markdown.js";

const PAGE = "docs/ci.md";
const hasGit = spawnSync("git", ["--version"], { stdio: "ignore" }).status === 0;
const repo = mkdtempSync(join(tmpdir(), "seam-hook-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=Seam", "-c", "user.email=seam@example.org", ...args], { cwd: repo, env, encoding: "utf8" });

const CLEAN = "graph desk {\n  entry lead\n  agent lead: supervisor { terminal done }\n}\n";
const BROKEN = "graph desk {\n  entry lead\n  agent lead: supervisor { terminal done }\n  delegate lead -> nobody\n}\n";

describe.skipIf(!hasGit && process.env["CI"] !== "true")(`${PAGE}: the pre-commit hook`, () => {
  it("stops a commit that stages a graph with errors and lets a clean one through", () => {
    ensureBuilt();
    const hook = codeBlocks(PAGE).find((b) => b.lang === "sh" && b.tags === "hook");
    expect(hook, "a ```sh hook block").toBeDefined();
    expect(git("init", "-q").status).toBe(0);
    writeFileSync(join(repo, ".git", "hooks", "pre-commit"), hook?.text ?? "");
    chmodSync(join(repo, ".git", "hooks", "pre-commit"), 0o755);
    // The project's own `seam`, as `npm install` would link it, running this checkout.
    mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(repo, "node_modules", ".bin", "seam"), `#!/bin/sh\nexec '${process.execPath}' '${join(root, "bin", "seam.js")}' "$@"\n`);
    chmodSync(join(repo, "node_modules", ".bin", "seam"), 0o755);
    writeFileSync(join(repo, ".gitignore"), "node_modules\n");

    writeFileSync(join(repo, "front desk.seam"), CLEAN);
    writeFileSync(join(repo, "back.seam"), BROKEN);
    git("add", ".");
    const refused = git("commit", "-q", "-m", "a graph with an unknown agent");
    expect(refused.status).not.toBe(0);
    // git passes a hook's output on to its own stderr.
    expect(refused.stderr).toContain("back.seam:4:20 - error unknown-agent:");

    writeFileSync(join(repo, "back.seam"), CLEAN);
    git("add", ".");
    const accepted = git("commit", "-q", "-m", "clean graphs");
    expect([accepted.status, accepted.stderr]).toEqual([0, "no problems in 2 files\n"]);
  }, 60_000);
});
if (!hasGit && process.env["CI"] !== "true") console.log("skipped: needs git (apt-get install git)");
