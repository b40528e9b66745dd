/**
 * `seam fmt --stdin` holds standard input to the 10 MB limit of a `.seam` file and refuses a
 * device, as `seam check <file>` does: it once read `/dev/zero` until memory ran out, and
 * formatted 30 MB from a pipe that it would refuse as a file.
 */
import { spawnSync } from "node:child_process";
import { closeSync, openSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { MAX_SOURCE_BYTES } from "../../src/core/source-limit.js";
import { ensureBuilt } from "../global-setup.js";
import { createFakeIo } from "./fake-io.js";

const messy = "graph g {entry a\nagent a: worker{terminal t}}";
const tidy = "graph g {\n  entry a\n  agent a: worker { terminal t }\n}\n";
const CHUNK = 64 * 1024;

/** An endless stdin of 64 KiB chunks of spaces, counting the chunks it was asked for. */
function endless(): { readStdin: () => AsyncIterable<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  return {
    readStdin: async function* () {
      for (;;) {
        pulled++;
        yield new Uint8Array(CHUNK).fill(0x20);
      }
    },
    pulled: () => pulled,
  };
}

describe("seam fmt --stdin: the size limit and devices", () => {
  it("stops reading as soon as the input passes 10 MB, exit 2, nothing on stdout", async () => {
    const source = endless();
    const io = Object.assign(createFakeIo("/"), { readStdin: source.readStdin });
    expect(await run(["fmt", "--stdin"], io)).toBe(2);
    expect(io.out()).toBe("");
    expect(io.err()).toBe("seam: <stdin>: is more than the 10 MB limit (split the graphs into smaller files)\n");
    expect(source.pulled()).toBe(MAX_SOURCE_BYTES / CHUNK + 1);
  });

  it("refuses a device unread and a redirected file over the limit from its size", async () => {
    const source = endless();
    const device = Object.assign(createFakeIo("/"), { readStdin: source.readStdin, statStdin: () => statSync("/dev/zero") });
    expect(await run(["fmt", "--stdin"], device)).toBe(2);
    expect(device.err()).toBe("seam: <stdin>: is a device, not a regular file (send the text through a pipe or from a file)\n");
    expect(source.pulled()).toBe(0);
    const big = { ...statSync("/dev/null"), isCharacterDevice: () => false, isBlockDevice: () => false, isFile: () => true, size: MAX_SOURCE_BYTES + 1 };
    const file = Object.assign(createFakeIo("/"), { readStdin: source.readStdin, statStdin: () => big as ReturnType<typeof statSync> & object });
    expect(await run(["fmt", "--stdin"], file)).toBe(2);
    expect(file.err()).toBe("seam: <stdin>: is 10485761 bytes, over the limit of 10485760 bytes (split the graphs into smaller files)\n");
    expect(source.pulled()).toBe(0);
  });

  it("formats input of exactly 10 MB (the limit is inclusive), given in many chunks", async () => {
    const body = new TextEncoder().encode(tidy);
    const padding = MAX_SOURCE_BYTES - body.byteLength;
    const io = Object.assign(createFakeIo("/"), {
      readStdin: async function* () {
        yield new TextEncoder().encode(messy.slice(0, 10));
        yield new TextEncoder().encode(messy.slice(10));
      },
    });
    expect(await run(["fmt", "--stdin"], io)).toBe(0);
    expect(io.out()).toBe(tidy);
    expect(io.err()).toBe("");
    const full = Object.assign(createFakeIo("/"), {
      readStdin: async function* () {
        yield body;
        for (let left = padding; left > 0; left -= CHUNK) yield new Uint8Array(Math.min(CHUNK, left)).fill(0x0a);
      },
    });
    expect(await run(["fmt", "--stdin", "--check"], full)).toBe(1);
    expect(full.err()).toBe("");
  });
});

describe("bin/seam.js fmt --stdin < /dev/zero", () => {
  beforeAll(() => ensureBuilt(), 180_000);
  const root = fileURLToPath(new URL("../../", import.meta.url));

  it("is refused as a device at once, exit 2, as seam check /dev/zero is", () => {
    const zero = openSync("/dev/zero", "r");
    try {
      const r = spawnSync(process.execPath, ["bin/seam.js", "fmt", "--stdin"], { cwd: root, stdio: [zero, "pipe", "pipe"], encoding: "utf8", timeout: 20_000 });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        status: 2,
        stdout: "",
        stderr: "seam: <stdin>: is a device, not a regular file (send the text through a pipe or from a file)\n",
      });
    } finally {
      closeSync(zero);
    }
  });
});
