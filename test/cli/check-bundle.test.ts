import { copyFileSync, mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Script } from "node:vm";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";

interface Loaded {
  readonly exports: { readonly main?: unknown };
  readonly script: Script;
}
const { loadCheckBundle, writeCodeCache } = createRequire(import.meta.url)("../../bin/check-bundle.js") as {
  loadCheckBundle(file: string, options?: { useCache?: boolean }): Loaded;
  writeCodeCache(file: string, script: Script): void;
};
const bundle = fileURLToPath(new URL("../../dist/cli-bundle/check.cjs", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "seam-check-bundle-"));
const copy = join(folder, "check.cjs");

describe("the seam check bundle and its code cache", () => {
  beforeAll(() => {
    ensureBuilt();
    copyFileSync(bundle, copy);
    copyFileSync(`${bundle}.cache`, `${copy}.cache`);
  }, 180_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("loads with the cache the build wrote, which V8 accepts", () => {
    const { exports, script } = loadCheckBundle(bundle);
    expect(typeof exports.main).toBe("function");
    expect(script.cachedDataRejected).toBe(false);
  });

  it("ignores a cache older than the bundle (a rebuilt bundle may keep its length)", () => {
    const old = new Date(statSync(copy).mtimeMs - 60_000);
    utimesSync(`${copy}.cache`, old, old);
    expect(loadCheckBundle(copy).script.cachedDataRejected).toBeUndefined();
  });

  it("writes a cache that the next load uses", () => {
    const { script } = loadCheckBundle(copy, { useCache: false });
    writeCodeCache(copy, script);
    expect(statSync(`${copy}.cache`).mtimeMs).toBeGreaterThanOrEqual(statSync(copy).mtimeMs);
    expect(loadCheckBundle(copy).script.cachedDataRejected).toBe(false);
  });
});
