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
/** The Python frameworks, each with its venv's name (`test/import/python/<name>.txt`). */
export type PythonFramework = "langgraph" | "openai-agents" | "autogen" | "crewai";

/** The Python of the venv of `framework`. */
export function venvPython(framework: PythonFramework): string {
  return fileURLToPath(new URL(`../../.venv-import/${framework}/bin/python`, import.meta.url));
}

/** How to create the venv of `framework`. */
export function venvHow(framework: PythonFramework): string {
  return `python3 -m venv .venv-import/${framework} && .venv-import/${framework}/bin/pip install -r test/import/python/${framework}.txt`;
}

/** Whether `module` imports in the Python of `framework`'s venv. */
export function pythonHas(framework: PythonFramework, module: string): boolean {
  const python = venvPython(framework);
  if (!existsSync(python)) return false;
  try {
    execFileSync(python, ["-c", `import ${module}`], { stdio: "ignore", env: { ...process.env, CREWAI_DISABLE_TELEMETRY: "true", OTEL_SDK_DISABLED: "true" } });
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
