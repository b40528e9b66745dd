import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** Runs `bin/seam.js` as a user would (stdout is a pipe, not a TTY); never rejects. */
async function seam(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  // The test runner may set colour variables of its own; the child sees only the ones given.
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv["FORCE_COLOR"];
  delete childEnv["NO_COLOR"];
  Object.assign(childEnv, env);
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/seam.js", ...args], { cwd: root, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("bin/seam.js (built with npm run build)", () => {
  // `npm run build` (tsc -p tsconfig.build.json), skipped when dist is newer than src.
  beforeAll(() => ensureBuilt(), 180_000);

  it("exits 0 on the examples with plain output when stdout is not a TTY", async () => {
    const r = await seam(["check", "examples"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^no problems in \d+ files\n$/);
    expect(r.stdout).not.toContain("\u001b[");
    expect(r.stderr).toBe("");
  });

  it("exits 1 on errors, still without ANSI codes", async () => {
    const r = await seam(["check", "test/fixtures/cli/error.seam"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error unknown-agent");
    expect(r.stdout).not.toContain("\u001b[");
  });

  it("reads the look-alike table, a file of its own beside the check bundle, for a name beyond ASCII", async () => {
    const r = await seam(["check", "test/fixtures/cli/look-alike.seam"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("warning confusable-name: agent '\u0435ditor' looks like agent 'editor'");
    expect(r.stdout).toContain("warning mixed-script-name: agent name '\u0435ditor' mixes scripts (Cyrillic '\u0435', Latin 'ditor'; U+0435)");
    expect(r.stderr).toBe("");
  });

  it("colours when FORCE_COLOR is set", async () => {
    const r = await seam(["check", "test/fixtures/cli/error.seam"], { FORCE_COLOR: "1" });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("\u001b[");
  });

  it("exits 2 on a usage error with one line on stderr", async () => {
    const r = await seam(["check", "examples", "--format", "xml"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });

  it("prints the version", async () => {
    const r = await seam(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
