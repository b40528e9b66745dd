/**
 * End to end in a real editor: headless Neovim (Debian package `neovim`) loads the Neovim
 * snippet of docs/editors.md and opens a faulty file in a folder whose `node_modules/.bin/seam` runs this
 * checkout; the snippet starts `seam lsp` with Neovim's built-in client. The scenario
 * (test/fixtures/lsp/neovim-init.lua) reports what Neovim received: the diagnostics, then the
 * buffer after a rename and the diagnostics Seam published for the renamed text.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const hasNeovim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).status === 0;
const fixtures = fileURLToPath(new URL("../fixtures/lsp/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "seam-nvim-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the scenario; resolves with what the Lua side wrote. Killed by PID after 60 s. */
function runNeovim(): Promise<Record<string, unknown>> {
  copyFileSync(join(fixtures, "faulty.seam"), join(work, "faulty.seam"));
  const page = readFileSync(new URL("../../docs/editors.md", import.meta.url), "utf8");
  const snippet = /```lua\n([\s\S]*?)```/.exec(page)?.[1];
  if (snippet === undefined) throw new Error("docs/editors.md has no ```lua block");
  writeFileSync(join(work, "snippet.lua"), snippet);
  // The project's own `seam`, as `npm install` would link it, running this checkout.
  const bin = fileURLToPath(new URL("../../bin/seam.js", import.meta.url));
  mkdirSync(join(work, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(work, "node_modules", ".bin", "seam"), `#!/bin/sh\nexec '${process.execPath}' '${bin}' "$@"\n`);
  chmodSync(join(work, "node_modules", ".bin", "seam"), 0o755);
  const out = join(work, "out.json");
  const child = spawn("nvim", ["--headless", "--clean", "-u", join(fixtures, "neovim-init.lua"), "faulty.seam"], {
    cwd: work,
    stdio: "ignore",
    env: { ...process.env, SEAM_TEST_OUT: out, SEAM_LSP_SNIPPET: join(work, "snippet.lua") },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
      reject(new Error("Neovim did not finish within 60 s"));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`Neovim exited with ${code}`));
      else resolve(JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>);
    });
  });
}

const diagnostic = (lnum: number, col: number, endCol: number, severity: number, code: string, message: string) => ({
  lnum,
  col,
  end_lnum: lnum,
  end_col: endCol,
  severity,
  source: "seam",
  code,
  message,
});

describe.skipIf(!hasNeovim)("seam lsp in headless Neovim (skipped without the Debian package neovim)", () => {
  it("shows Seam's diagnostics at the right columns, then renames an agent across the buffer", { timeout: 90_000 }, async () => {
    const result = await runNeovim();
    expect(result["error"]).toBeUndefined();
    expect(result["filetype"]).toBe("seam");
    expect(result["clients"]).toBe(1);
    expect(result["published"]).toBe(true);
    // Neovim counts columns in bytes: on line 7, `é` is 2 bytes and `🎉` 4, so the LSP
    // character 30 (UTF-16) must arrive as byte column 33.
    expect(result["before"]).toEqual([
      diagnostic(5, 8, 14, 2, "unreachable-agent", "agent 'writer' is never reached from the entry 'boss': add an edge to it, make it an entry, or remove it."),
      diagnostic(6, 33, 39, 1, "unknown-agent", "unknown agent 'wirter' in delegate boss -> wirter: did you mean 'writer'?"),
      diagnostic(
        7,
        2,
        23,
        1,
        "role-mismatch",
        "return writer -> boss: 'boss' never delegates to 'writer', so there is nothing to return; add `delegate boss -> writer` or use transfer.",
      ),
    ]);
    expect(result["renamed"]).toBe(true);
    expect(result["lines"]).toEqual(readFileSync(join(fixtures, "faulty.seam"), "utf8").replace(/\bwriter\b/g, "author").split("\n").slice(0, -1));
    expect(result["after"]).toEqual([
      diagnostic(5, 8, 14, 2, "unreachable-agent", "agent 'author' is never reached from the entry 'boss': add an edge to it, make it an entry, or remove it."),
      diagnostic(
        6,
        33,
        39,
        1,
        "unknown-agent",
        "unknown agent 'wirter' in delegate boss -> wirter: declare it with `agent wirter: worker` (or the right role) or fix the name.",
      ),
      diagnostic(
        7,
        2,
        23,
        1,
        "role-mismatch",
        "return author -> boss: 'boss' never delegates to 'author', so there is nothing to return; add `delegate boss -> author` or use transfer.",
      ),
    ]);
  });
});
