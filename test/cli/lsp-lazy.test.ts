/**
 * `seam check` does not pay for the language server: in the CLI bundle, the modules that
 * `main.js` and the check command import statically (their whole closure) hold none of
 * vscode-languageserver; only the chunk behind `seam lsp`'s dynamic import does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";

const bundle = fileURLToPath(new URL("../../dist/cli-bundle/", import.meta.url));
/** Code only vscode-languageserver's connection has. */
const SERVER_MARKER = /StreamMessageReader/;

/** The files `start` imports statically, transitively, itself included. */
function staticClosure(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(bundle, file), "utf8");
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)) queue.push(match[1] as string);
  }
  return seen;
}

describe("the seam command's bundle", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("loads the language server only for seam lsp", () => {
    const files = readdirSync(bundle);
    const check = files.find((f) => /^check-\w+\.js$/.test(f));
    const lsp = files.find((f) => /^lsp-\w+\.js$/.test(f));
    expect(check).toBeDefined();
    expect(lsp).toBeDefined();
    const eager = new Set([...staticClosure("main.js"), ...staticClosure(check as string)]);
    expect([...eager].filter((f) => SERVER_MARKER.test(readFileSync(join(bundle, f), "utf8")))).toEqual([]);
    expect(SERVER_MARKER.test(readFileSync(join(bundle, lsp as string), "utf8"))).toBe(true);
  });
});
