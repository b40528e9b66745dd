/**
 * `seam fmt` replaces a file through a temporary file and a rename; the new file keeps the old
 * one's mode and owner, and a file the rename would wrong (read-only, not writable by this user,
 * hard-linked) is refused, exit 2, while the other files are still formatted. A user's trial
 * found 444 files rewritten, 600 and 640 files left readable by everyone (644), 755 files without
 * their execute bits, and hard links split.
 */
import { chmodSync, chownSync, linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

const messy = "graph g {entry a\nagent a: worker{terminal t}}";
const tidy = "graph g {\n  entry a\n  agent a: worker { terminal t }\n}\n";
/** Root may write any file and folder whatever its mode: permission checks that only bind others. */
const isRoot = process.getuid?.() === 0;

afterAll(() => {
  removeTempDirs();
});

/** Writes `text` to `dir/name` with exactly `mode` (whatever the umask). */
function file(dir: string, name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const modeOf = (path: string): string => (statSync(path).mode & 0o7777).toString(8);

async function fmt(dir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = createFakeIo(dir);
  const code = await run(["fmt", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe("seam fmt keeps what the user had", () => {
  it("keeps the mode of each file it rewrites (600, 640, 755, 2750)", async () => {
    const dir = makeTempDir("seam-fmt-mode-");
    const modes = { "a600.seam": 0o600, "b640.seam": 0o640, "c755.seam": 0o755, "d2750.seam": 0o2750 };
    for (const [name, mode] of Object.entries(modes)) file(dir, name, messy, mode);
    expect(await fmt(dir, ".")).toEqual({ code: 0, out: "a600.seam\nb640.seam\nc755.seam\nd2750.seam\n", err: "" });
    for (const [name, mode] of Object.entries(modes)) {
      expect(readFileSync(join(dir, name), "utf8")).toBe(tidy);
      expect(modeOf(join(dir, name))).toBe(mode.toString(8));
    }
  });

  it("leaves a formatted file alone, mode and inode", async () => {
    const dir = makeTempDir("seam-fmt-mode-");
    const path = file(dir, "tidy.seam", tidy, 0o600);
    const before = statSync(path);
    expect(await fmt(dir, "tidy.seam")).toEqual({ code: 0, out: "", err: "" });
    expect(statSync(path).ino).toBe(before.ino);
    expect(modeOf(path)).toBe("600");
  });

  it.skipIf(!isRoot)("keeps the owner (as root, who may give a file away)", async () => {
    const dir = makeTempDir("seam-fmt-owner-");
    const path = file(dir, "owned.seam", messy, 0o640);
    chownSync(path, 4321, 4322);
    expect(await fmt(dir, "owned.seam")).toEqual({ code: 0, out: "owned.seam\n", err: "" });
    const after = statSync(path);
    expect([after.uid, after.gid, modeOf(path)]).toEqual([4321, 4322, "640"]);
  });

  it("refuses a read-only (444) file, root or not, and formats the others, exit 2", async () => {
    const dir = makeTempDir("seam-fmt-ro-");
    const ro = file(dir, "ro.seam", messy, 0o444);
    file(dir, "rw.seam", messy, 0o644);
    expect(await fmt(dir, "ro.seam", "rw.seam")).toEqual({
      code: 2,
      out: "rw.seam\n",
      err: "seam: ro.seam: cannot be written: the file is read-only (make it writable to format it, e.g. chmod u+w)\n",
    });
    expect(readFileSync(ro, "utf8")).toBe(messy);
    expect(modeOf(ro)).toBe("444");
    expect(readFileSync(join(dir, "rw.seam"), "utf8")).toBe(tidy);
    // --check answers what a rewrite would do: the same refusal.
    expect(await fmt(dir, "--check", "ro.seam")).toEqual({
      code: 2,
      out: "",
      err: "seam: ro.seam: cannot be written: the file is read-only (make it writable to format it, e.g. chmod u+w)\n",
    });
  });

  // Root may write these; the refusal is the system's, which binds other users only.
  it.skipIf(isRoot)("refuses a file its owner has no write bit on, and a file in a folder it cannot write", async () => {
    const dir = makeTempDir("seam-fmt-perm-");
    const others = file(dir, "others.seam", messy, 0o466);
    expect(await fmt(dir, "others.seam")).toEqual({
      code: 2,
      out: "",
      err: "seam: others.seam: cannot be written: permission denied (check the permissions of the file and its folders)\n",
    });
    expect(readFileSync(others, "utf8")).toBe(messy);
    mkdirSync(join(dir, "locked"));
    const inside = file(join(dir, "locked"), "in.seam", messy, 0o644);
    chmodSync(join(dir, "locked"), 0o555);
    try {
      expect(await fmt(dir, "locked/in.seam")).toEqual({
        code: 2,
        out: "",
        err: "seam: locked/in.seam: cannot be written: permission denied (check the permissions of the file and its folders)\n",
      });
      expect(readFileSync(inside, "utf8")).toBe(messy);
    } finally {
      chmodSync(join(dir, "locked"), 0o755);
    }
  });

  it("refuses a file with several hard links rather than split them, exit 2", async () => {
    const dir = makeTempDir("seam-fmt-link-");
    const h1 = file(dir, "h1.seam", messy, 0o644);
    linkSync(h1, join(dir, "h2.seam"));
    const inode = statSync(h1).ino;
    expect(await fmt(dir, "h1.seam")).toEqual({
      code: 2,
      out: "",
      err:
        "seam: h1.seam: has 2 hard links and was not rewritten " +
        "(rewriting it would part it from its other names; format one copy with 'seam fmt --stdin' and copy the text back)\n",
    });
    expect(await fmt(dir, "--check", "h1.seam")).toEqual({
      code: 2,
      out: "",
      err:
        "seam: h1.seam: has 2 hard links and would not be rewritten " +
        "(rewriting it would part it from its other names; format one copy with 'seam fmt --stdin' and copy the text back)\n",
    });
    expect(statSync(h1).ino).toBe(inode);
    expect(statSync(join(dir, "h2.seam")).ino).toBe(inode);
    expect(readFileSync(h1, "utf8")).toBe(messy);
    // A linked file that is already formatted is not touched and not refused.
    const t1 = file(dir, "t1.seam", tidy, 0o644);
    linkSync(t1, join(dir, "t2.seam"));
    expect(await fmt(dir, "t1.seam", "t2.seam")).toEqual({ code: 0, out: "", err: "" });
  });
});
