import { describe, expect, it } from "vitest";
import { createSourceFile } from "../../src/core/source-file.js";
import { createOverlayHost } from "../../src/program/host.js";
import { createProgram } from "../../src/program/program.js";

const clean = "graph g {\n  entry a\n  agent a: worker { terminal done }\n}\n";
const broken = "graph g {\n  entry a\n  agent a: worker\n}\n";

describe("program", () => {
  it("checks files read through its host and reuses the result while the text is unchanged", async () => {
    const host = createOverlayHost();
    host.set("a.seam", clean);
    const program = createProgram(host);
    const first = await program.checkPath("a.seam");
    expect(first.ok && first.result.diagnostics).toEqual([]);
    const again = await program.checkPath("a.seam");
    expect(again.ok && again.result).toBe(first.ok && first.result);
    expect(program.stats).toEqual({ checks: 1, cacheHits: 1, reused: 0, renamed: 0 });
  });

  it("re-checks only the file whose text changed", async () => {
    const host = createOverlayHost();
    host.set("a.seam", clean);
    host.set("b.seam", clean);
    const program = createProgram(host);
    await program.checkPath("a.seam");
    await program.checkPath("b.seam");
    host.set("b.seam", broken);
    await program.checkPath("a.seam");
    const b = await program.checkPath("b.seam");
    expect(b.ok && b.result.diagnostics.map((d) => d.rule)).toEqual(["no-terminal-path"]);
    expect(program.stats).toEqual({ checks: 3, cacheHits: 1, reused: 0, renamed: 0 });
    expect(program.lastResult("b.seam")).toBe(b.ok && b.result);
  });

  it("checks an in-memory file (an editor buffer) with the same cache", () => {
    const program = createProgram(createOverlayHost());
    const first = program.checkFile(createSourceFile("x.seam", clean));
    expect(program.checkFile(createSourceFile("x.seam", clean))).toBe(first);
    program.forget("x.seam");
    expect(program.lastResult("x.seam")).toBeUndefined();
    expect(program.checkFile(createSourceFile("x.seam", clean))).not.toBe(first);
  });

  it("says why a file cannot be read, and falls back to the next host", async () => {
    const disk = createOverlayHost();
    disk.set("on-disk.seam", clean);
    const editor = createOverlayHost(disk);
    const program = createProgram(editor);
    expect(await program.checkPath("nowhere.seam")).toEqual({
      ok: false,
      problem: { path: "nowhere.seam", problem: "is not open", hint: "open the file first" },
    });
    const fromDisk = await program.checkPath("on-disk.seam");
    expect(fromDisk.ok).toBe(true);
    editor.set("on-disk.seam", broken);
    expect(editor.get("on-disk.seam")).toBe(broken);
    const fromBuffer = await program.checkPath("on-disk.seam");
    expect(fromBuffer.ok && fromBuffer.result.diagnostics.map((d) => d.rule)).toEqual(["no-terminal-path"]);
    editor.delete("on-disk.seam");
    const back = await program.checkPath("on-disk.seam");
    expect(back.ok && back.result.diagnostics).toEqual([]);
  });
});
