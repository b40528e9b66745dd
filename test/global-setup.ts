/**
 * Vitest global setup: emitted validator modules import `seam-handoff/runtime`, which the package
 * self-reference resolves to `dist/runtime/index.js`, so tests that load emitted modules need a
 * build. This runs `npm run build`'s two steps (tsc, then the CLI bundle) once when `dist` is older
 * than `src` (or missing).
 * Type errors elsewhere in the tree do not stop tsc from emitting; only a missing runtime fails.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const runtimeEntry = join(root, "dist", "runtime", "index.js");
const stamp = join(root, "dist", ".build-stamp");

function newestMtime(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist` when stale. Safe to call more than once (tests that need the build also call it).
 *
 * @throws Error when the build leaves no `dist/runtime/index.js`
 */
export function ensureBuilt(): void {
  const sources = newestMtime(join(root, "src"));
  if (existsSync(stamp) && existsSync(runtimeEntry) && statSync(stamp).mtimeMs >= sources) return;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    if (!existsSync(runtimeEntry)) throw new Error(`npm run build failed and left no ${runtimeEntry}: ${String(error)}`);
  }
  // The second half of `npm run build`: the CLI bundle that bin/seam.js runs.
  execFileSync(process.execPath, [join(root, "scripts", "build-cli.mjs")], { cwd: root, stdio: "pipe" });
  writeFileSync(stamp, "");
}

export default function setup(): void {
  ensureBuilt();
}
