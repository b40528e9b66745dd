/**
 * The real agent frameworks the importers are tested against, pinned: the Python ones in the
 * worktree's `.venv-import` (created by `.ci/run` from `test/import/python-frameworks.txt`), the npm ones as
 * devDependencies. A file whose framework is missing skips its tests with one line naming the
 * package; under `CI=true` a missing framework fails instead.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { it } from "vitest";

/** The worktree's root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The Python of `.venv-import`. */
export const VENV_PYTHON = fileURLToPath(new URL("../../.venv-import/bin/python", import.meta.url));

/** Whether `module` imports in the venv's Python. */
export function pythonHas(module: string): boolean {
  if (!existsSync(VENV_PYTHON)) return false;
  try {
    execFileSync(VENV_PYTHON, ["-c", `import ${module}`], { stdio: "ignore", env: { ...process.env, CREWAI_DISABLE_TELEMETRY: "true", OTEL_SDK_DISABLED: "true" } });
    return true;
  } catch {
    return false;
  }
}

/** Whether the npm package resolves from the worktree. */
export async function nodeHas(pkg: string): Promise<boolean> {
  try {
    await import(pkg);
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers the fallback for a missing framework: one skipped test whose name says what to
 * install, or, under `CI=true`, a failing one.
 */
export function missing(pkg: string, how: string): void {
  const line = `skipped: needs ${pkg} (${how})`;
  if (process.env["CI"] === "true") {
    it(`${pkg} is installed`, () => {
      throw new Error(`CI=true and ${pkg} is missing: ${how}`);
    });
  } else {
    console.log(line);
    it.skip(line, () => {});
  }
}
