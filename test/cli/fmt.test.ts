import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

const messy = "graph g {entry a\nagent a: worker{terminal t}}";
const tidy = "graph g {\n  entry a\n  agent a: worker { terminal t }\n}\n";
const broken = "graph g { agent a worker }";

afterAll(removeTempDirs);

/** A folder with a messy, a tidy and (optionally) a broken file. */
function workspace(withBroken = false): string {
  const dir = makeTempDir("seam-fmt-");
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs", "messy.seam"), messy);
  writeFileSync(join(dir, "graphs", "tidy.seam"), tidy);
  if (withBroken) writeFileSync(join(dir, "graphs", "broken.seam"), broken);
  return dir;
}

describe("seam fmt", () => {
  it("rewrites the files that change, prints their paths and exits 0", async () => {
    const dir = workspace();
    const io = createFakeIo(dir);
    expect(await run(["fmt", "graphs"], io)).toBe(0);
    expect(io.out()).toBe("graphs/messy.seam\n");
    expect(io.err()).toBe("");
    expect(readFileSync(join(dir, "graphs", "messy.seam"), "utf8")).toBe(tidy);
    expect(await run(["fmt", "graphs"], createFakeIo(dir))).toBe(0);
  });

  it("--check lists the files that would change, changes nothing and exits 1", async () => {
    const dir = workspace();
    const io = createFakeIo(dir);
    expect(await run(["fmt", "--check", "graphs"], io)).toBe(1);
    expect(io.out()).toBe("graphs/messy.seam\n");
    expect(readFileSync(join(dir, "graphs", "messy.seam"), "utf8")).toBe(messy);
    expect(await run(["fmt", "--check", "graphs/tidy.seam"], createFakeIo(dir))).toBe(0);
  });

  it("does not rewrite a file with syntax errors, says why and exits 2, formatting the others", async () => {
    const dir = workspace(true);
    const io = createFakeIo(dir);
    expect(await run(["fmt", "graphs"], io)).toBe(2);
    expect(io.out()).toBe("graphs/messy.seam\n");
    expect(io.err()).toContain("seam: graphs/broken.seam: has syntax errors and was not formatted (fix the errors below first)\n");
    expect(io.err()).toContain("graphs/broken.seam:1:19 - error syntax: expected ':' after 'a', found 'worker'");
    expect(readFileSync(join(dir, "graphs", "broken.seam"), "utf8")).toBe(broken);
  });

  it("exits 2 for a path that does not exist, and for no path at all", async () => {
    const dir = workspace();
    const io = createFakeIo(dir);
    expect(await run(["fmt", "nowhere.seam"], io)).toBe(2);
    expect(io.err()).toBe("seam: nowhere.seam: no such file or folder (check the path)\n");
    const none = createFakeIo(dir);
    expect(await run(["fmt"], none)).toBe(2);
    expect(none.err()).toBe("seam fmt: give files or folders to format, or --stdin (see 'seam fmt --help')\n");
  });

  it("does not follow a symbolic link to rewrite its target", async () => {
    const dir = workspace();
    const outside = makeTempDir("seam-fmt-target-");
    writeFileSync(join(outside, "target.seam"), messy);
    symlinkSync(join(outside, "target.seam"), join(dir, "link.seam"));
    const io = createFakeIo(dir);
    expect(await run(["fmt", "link.seam"], io)).toBe(2);
    expect(io.err()).toBe("seam: link.seam: is a symbolic link and was not rewritten (format the file it points to)\n");
    expect(readFileSync(join(outside, "target.seam"), "utf8")).toBe(messy);
  });

  it("--check refuses a symbolic link that fmt would refuse, and passes one to a formatted file", async () => {
    const dir = workspace();
    const outside = makeTempDir("seam-fmt-target-");
    writeFileSync(join(outside, "messy.seam"), messy);
    writeFileSync(join(outside, "tidy.seam"), tidy);
    symlinkSync(join(outside, "messy.seam"), join(dir, "link.seam"));
    symlinkSync(join(outside, "tidy.seam"), join(dir, "tidy-link.seam"));
    const io = createFakeIo(dir);
    expect(await run(["fmt", "--check", "link.seam"], io)).toBe(2);
    expect(io.out()).toBe("");
    expect(io.err()).toBe("seam: link.seam: is a symbolic link and would not be rewritten (format the file it points to)\n");
    const formatted = createFakeIo(dir);
    expect(await run(["fmt", "--check", "tidy-link.seam"], formatted)).toBe(0);
    expect(await run(["fmt", "tidy-link.seam"], createFakeIo(dir))).toBe(0);
    expect(formatted.err()).toBe("");
  });

  it("--stdin formats standard input to standard output, and refuses broken or non-UTF-8 input", async () => {
    const stdin = (text: string | Uint8Array) => ({
      readStdin: async function* () {
        yield typeof text === "string" ? new TextEncoder().encode(text) : text;
      },
    });
    const io = Object.assign(createFakeIo("/"), stdin(messy));
    expect(await run(["fmt", "--stdin"], io)).toBe(0);
    expect(io.out()).toBe(tidy);
    const bad = Object.assign(createFakeIo("/"), stdin(broken));
    expect(await run(["fmt", "--stdin"], bad)).toBe(2);
    expect(bad.out()).toBe("");
    expect(bad.err()).toContain("seam: <stdin>: has syntax errors and was not formatted (fix the errors below first)\n");
    const bytes = Object.assign(createFakeIo("/"), stdin(new Uint8Array([0xff, 0xfe, 0x00])));
    expect(await run(["fmt", "--stdin"], bytes)).toBe(2);
    expect(bytes.err()).toBe("seam: <stdin>:1:1: is not valid UTF-8 text from here on (byte 0xFF) (send UTF-8)\n");
    const check = Object.assign(createFakeIo("/"), stdin(messy));
    expect(await run(["fmt", "--stdin", "--check"], check)).toBe(1);
    expect(check.out()).toBe("");
  });
});
