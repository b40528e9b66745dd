import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeAllReplacing, writeReplacing } from "../../src/cli/write-replacing.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";

afterAll(() => removeTempDirs());

/** A rename that fails (EPERM, as for another owner's file in a sticky folder) for the target named `name`. */
const failingFor = (name: string) => ({
  rename: async (from: string, to: string): Promise<void> => {
    if (to.endsWith(`/${name}`)) throw Object.assign(new Error(`EPERM: operation not permitted, rename '${from}' -> '${to}'`), { code: "EPERM" });
    await rename(from, to);
  },
});

describe("writeAllReplacing", () => {
  it("writes every file and leaves no temporary file or backup", async () => {
    const dir = makeTempDir("write");
    writeFileSync(join(dir, "b.txt"), "old b");
    const files = ["a.txt", "b.txt", "c.txt"].map((name) => ({ target: join(dir, name), content: `new ${name}` }));
    expect(await writeAllReplacing(files)).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("new b.txt");
  });

  it("puts back every file already replaced when a later rename fails, and removes the new ones", async () => {
    const dir = makeTempDir("write");
    writeFileSync(join(dir, "a.txt"), "old a");
    writeFileSync(join(dir, "c.txt"), "old c");
    const files = ["a.txt", "b.txt", "c.txt", "d.txt"].map((name) => ({ target: join(dir, name), content: `new ${name}` }));
    const failure = await writeAllReplacing(files, failingFor("c.txt"));
    expect(failure?.target).toBe(join(dir, "c.txt"));
    expect((failure?.error as { code?: string }).code).toBe("EPERM");
    expect(failure?.unrestored).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "c.txt"]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("old a");
    expect(readFileSync(join(dir, "c.txt"), "utf8")).toBe("old c");
  });

  it("names the files it could not put back", async () => {
    const dir = makeTempDir("write");
    writeFileSync(join(dir, "a.txt"), "old a");
    const files = ["a.txt", "b.txt"].map((name) => ({ target: join(dir, name), content: `new ${name}` }));
    let renames = 0;
    const failure = await writeAllReplacing(files, {
      // The first rename (a.txt into place) works; every later one (b.txt, then a.txt's undo) fails.
      rename: async (from, to) => {
        if (renames++ > 0) throw Object.assign(new Error("EPERM"), { code: "EPERM" });
        await rename(from, to);
      },
    });
    expect(failure?.target).toBe(join(dir, "b.txt"));
    expect(failure?.unrestored).toEqual([join(dir, "a.txt")]);
    expect(readdirSync(dir)).toEqual(["a.txt"]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("new a.txt");
  });

  it("puts back a symbolic link it replaced, as a link", async () => {
    const dir = makeTempDir("write");
    symlinkSync("elsewhere.txt", join(dir, "a.txt"));
    const files = ["a.txt", "b.txt"].map((name) => ({ target: join(dir, name), content: `new ${name}` }));
    expect((await writeAllReplacing(files, failingFor("b.txt")))?.target).toBe(join(dir, "b.txt"));
    expect(readdirSync(dir)).toEqual(["a.txt"]);
    expect(readdirSync(dir, { withFileTypes: true })[0]?.isSymbolicLink()).toBe(true);
  });

  it("refuses a folder standing at a target before writing anything", async () => {
    const dir = makeTempDir("write");
    writeFileSync(join(dir, "a.txt"), "old a");
    mkdirSync(join(dir, "b.txt"));
    const files = ["a.txt", "b.txt"].map((name) => ({ target: join(dir, name), content: `new ${name}` }));
    const failure = await writeAllReplacing(files);
    expect(failure?.target).toBe(join(dir, "b.txt"));
    expect((failure?.error as { code?: string }).code).toBe("EISDIR");
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("old a");
  });

  it("writes a target whose name is as long as a name may be (the temporary name is short)", async () => {
    const dir = makeTempDir("write");
    const name = `${"n".repeat(251)}.txt`;
    expect(await writeAllReplacing([{ target: join(dir, name), content: "long" }])).toBeUndefined();
    expect(readFileSync(join(dir, name), "utf8")).toBe("long");
  });

  it("is not blocked by a temporary file a killed run left, named as the old scheme named them", async () => {
    const dir = makeTempDir("write");
    writeFileSync(join(dir, `a.txt.${process.pid}.tmp`), "left over");
    await writeReplacing(join(dir, "a.txt"), "new");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("new");
  });
});
