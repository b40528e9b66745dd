/**
 * docs/getting-started.md is run as a new user would follow it: in an empty folder, each
 * ```` ```lang file=NAME ```` block is saved as NAME and each `$ command` of a ```` ```console ````
 * block is run in order (`npx seam ...` through the CLI, `node ...` as a process); what each
 * prints must be what the page shows. The folder is inside this checkout, so `seam-handoff`
 * resolves to it as it would from node_modules.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "../cli/fake-io.js";
import { ensureBuilt } from "../global-setup.js";
import { seamArgs, shellWords } from "./cli-options.js";
import { codeBlocks, root, tag } from "./markdown.js";

const PAGE = "docs/getting-started.md";
const steps = codeBlocks(PAGE).filter((b) => !b.tags.startsWith("fragment:"));

let folder = "";
beforeAll(() => {
  ensureBuilt();
  mkdirSync(join(root, ".tmp"), { recursive: true });
  folder = mkdtempSync(join(root, ".tmp", "getting-started-"));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs one `$ command` in the tutorial's folder; returns what it printed on stdout. */
async function runCommand(command: string): Promise<string> {
  const words = shellWords(command);
  const args = seamArgs(words);
  if (args !== undefined) {
    const io = createFakeIo(folder);
    await run(args, io);
    return io.out();
  }
  if (words[0] === "node") {
    const result = spawnSync(process.execPath, words.slice(1), { cwd: folder, encoding: "utf8" });
    expect(result.stderr).toBe("");
    return result.stdout;
  }
  throw new Error(`${PAGE}: the tutorial runs only npx seam and node, not: ${command}`);
}

describe(PAGE, () => {
  it("has only files to save and commands to run, besides its fragments", () => {
    const other = steps.filter((b) => b.lang !== "console" && tag(b, "file") === undefined);
    expect(other.map((b) => `${b.page}:${b.line} ${b.lang}`)).toEqual([]);
    expect(steps.filter((b) => b.lang === "console").length).toBeGreaterThanOrEqual(4);
  });

  it("runs end to end: every command prints what the page shows", async () => {
    for (const block of steps) {
      const file = tag(block, "file");
      if (file !== undefined) {
        writeFileSync(join(folder, file), block.text);
        continue;
      }
      for (const [, command, output] of block.text.matchAll(/^\$ (.*)\n((?:(?!\$ ).*\n)*)/gm)) {
        expect([command, await runCommand(command as string)]).toEqual([command, output]);
      }
    }
  }, 60_000);
});
