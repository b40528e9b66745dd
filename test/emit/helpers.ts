/** Shared helpers of the emit, runtime and CLI tests. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { check } from "../../src/analysis/check.js";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { createSourceFile } from "../../src/core/source-file.js";

/** The project root. */
export const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** A fixture's path under `test/fixtures/`. */
export function fixturePath(...parts: string[]): string {
  return join(projectRoot, "test", "fixtures", ...parts);
}

/** Reads a fixture as text. */
export function readFixture(...parts: string[]): string {
  return readFileSync(fixturePath(...parts), "utf8");
}

/** Reads a JSON fixture. */
export function readJsonFixture(...parts: string[]): unknown {
  return JSON.parse(readFixture(...parts)) as unknown;
}

/**
 * Checks Seam source text and returns its graphs.
 *
 * @throws Error listing the diagnostics when the text has errors (a broken fixture)
 */
export function checkedGraphs(text: string, path = "test.seam"): readonly CheckedGraph[] {
  const result = check(createSourceFile(path, text));
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`fixture has errors: ${errors.map((d) => `${d.rule}: ${d.message}`).join("; ")}`);
  return result.graphs;
}

/** The first graph of Seam source text (see {@link checkedGraphs}). */
export function checkedGraph(text: string, path?: string): CheckedGraph {
  const graph = checkedGraphs(text, path)[0];
  if (graph === undefined) throw new Error("fixture has no graph");
  return graph;
}

/** The refund desk graph of the shared envelope cases. */
export function refundDesk(): CheckedGraph {
  return checkedGraph(readFixture("cases", "envelopes", "graph.seam"), "graph.seam");
}

const tempDirs: string[] = [];

/**
 * A new empty folder under `<root>/.tmp/` (gitignored; inside the package, so `seam-handoff/runtime`
 * resolves). {@link removeTempDirs} deletes them.
 */
export function makeTempDir(prefix: string): string {
  // A fresh clone has no .tmp/ (it is gitignored).
  mkdirSync(join(projectRoot, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(projectRoot, ".tmp", `${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

/** Deletes the folders {@link makeTempDir} made in this test file. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A deep copy of JSON data. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
