/**
 * Files of this installation, found relative to this module: package.json, the rule pages in
 * `docs/rules/` and the Python runtime in `python/src/seam_handoff/`, all two levels above `src/core/`, `dist/core/` and `dist/cli-bundle/` alike.
 * Shared by the CLI (`--version`, SARIF) and the language server (rule links), so it lives in core.
 */
import { readdirSync, readFileSync } from "node:fs";

let cached: string | undefined;

/**
 * The `version` field of Seam's package.json.
 *
 * @throws Error when package.json is missing or has no version: the installation is broken.
 */
export function packageVersion(): string {
  if (cached === undefined) {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    if (typeof manifest.version !== "string") throw new Error("package.json has no version");
    cached = manifest.version;
  }
  return cached;
}

/**
 * The `file:` URL of the page of rule `id` in the docs shipped with this installation
 * (`docs/rules/<id>.md`, next to package.json). Used as SARIF's `helpUri`: an absolute URI,
 * and the page of the version that reported the finding.
 */
export function ruleDocsUrl(id: string): string {
  return docsPageUrl(`rules/${id}.md`);
}

/**
 * The `file:` URL of a page (with an optional `#anchor`) of the docs shipped with this
 * installation, given relative to `docs/`: `diff/edge-removed.md`, `import.md#drift`.
 */
export function docsPageUrl(page: string): string {
  return new URL(`../../docs/${page}`, import.meta.url).href;
}

/** A file of the Python runtime package, `path` relative to the folder that holds `seam_handoff/`. */
export interface RuntimeFile {
  readonly path: string;
  readonly content: string;
}

/**
 * The source of the Python runtime package `seam_handoff` shipped with this installation
 * (`python/src/seam_handoff/` next to package.json): its modules and subpackages (`checks/`,
 * `adapters/`), `py.typed`, `ledger.lua` and `reasons.json`, in path order, for `seam compile
 * --vendor-runtime` to write beside the generated modules.
 *
 * @throws Error when the folder is missing: the installation is broken.
 */
export function pythonRuntimeFiles(): RuntimeFile[] {
  const files: RuntimeFile[] = [];
  const walk = (folder: URL, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const name = entry.name;
      if (entry.isDirectory()) {
        if (name !== "__pycache__") walk(new URL(`${name}/`, folder), `${prefix}${name}/`);
      } else if (name.endsWith(".py") || name === "py.typed" || name === "ledger.lua" || name === "reasons.json") {
        files.push({ path: `${prefix}${name}`, content: readFileSync(new URL(name, folder), "utf8") });
      }
    }
  };
  walk(new URL("../../python/src/seam_handoff/", import.meta.url), "seam_handoff/");
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The public names of the Python runtime package, its `seam_handoff.__all__` (read from
 * `python/src/seam_handoff/__init__.py`), which each generated module re-exports.
 *
 * @throws Error when the file or its `__all__` list is missing: the installation is broken.
 */
export function pythonRuntimeExports(): string[] {
  const text = readFileSync(new URL("../../python/src/seam_handoff/__init__.py", import.meta.url), "utf8");
  const list = /^__all__ = \[\n((?: {4}"[A-Za-z_][A-Za-z0-9_]*",\n)+)\]$/m.exec(text);
  if (list === null) throw new Error("python/src/seam_handoff/__init__.py has no __all__ list of names, one a line");
  return [...(list[1] as string).matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"/g)].map((m) => m[1] as string);
}
