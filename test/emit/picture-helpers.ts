/**
 * Loads `.seam` files for the picture tests and returns their checked graphs.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkText } from "../../src/analysis/check.js";
import type { CheckedGraph } from "../../src/analysis/model.js";

/** Folder of the shipped examples. */
export const examplesDir = fileURLToPath(new URL("../../examples/", import.meta.url));
/** Folder of the picture fixtures (inputs and expected pictures). */
export const picturesDir = fileURLToPath(new URL("../fixtures/pictures/", import.meta.url));

/** The only graph of `path`; fails the test if the file has not exactly one. */
export function loadGraph(path: string): CheckedGraph {
  const result = checkText(path, readFileSync(path, "utf8"));
  if (result.graphs.length !== 1) throw new Error(`${path} holds ${result.graphs.length} graphs`);
  return result.graphs[0] as CheckedGraph;
}

/** Names (without `.seam`) of every example. */
export function exampleNames(): string[] {
  return readdirSync(examplesDir)
    .filter((name) => name.endsWith(".seam"))
    .map((name) => name.slice(0, -".seam".length))
    .sort();
}

/** The text of a fixture in the pictures folder. */
export function readPictureFixture(name: string): string {
  return readFileSync(`${picturesDir}${name}`, "utf8");
}
