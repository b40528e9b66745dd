import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UnreadableLog } from "../../src/cli/open-log.js";
import { readLines } from "../../src/cli/read-lines.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";

afterAll(() => removeTempDirs());

async function linesOf(content: string | Buffer, maxLineBytes?: number): Promise<(string | [number, string])[]> {
  const file = join(makeTempDir("read-lines"), "log.jsonl");
  writeFileSync(file, content);
  const seen: (string | [number, string])[] = [];
  await readLines(file, { line: (n, text) => void seen.push(`${n}:${text}`), bad: (n, problem) => void seen.push([n, problem]) }, maxLineBytes);
  return seen;
}

describe("readLines", () => {
  it("numbers lines from 1, drops \\r before \\n, keeps a last line without \\n, skips a byte order mark", async () => {
    expect(await linesOf("\ufeffa\r\nb\n\nc")).toEqual(["1:a", "2:b", "3:", "4:c"]);
  });

  it("has no lines for an empty file", async () => {
    expect(await linesOf("")).toEqual([]);
  });

  it("reports a line over the cap without holding it, and goes on", async () => {
    expect(await linesOf(`ok\n${"x".repeat(50)}\nafter\n${"y".repeat(50)}`, 10)).toEqual([
      "1:ok",
      [2, "the line is longer than 10 bytes"],
      "3:after",
      [4, "the line is longer than 10 bytes"],
    ]);
  });

  it("reports invalid UTF-8 on its own line only", async () => {
    expect(await linesOf(Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a, 0x62]))).toEqual(["1:a", [2, "the line is not valid UTF-8"], "3:b"]);
  });

  it("joins a line split across read chunks", async () => {
    const long = "z".repeat(600 * 1024);
    expect(await linesOf(`${long}\nend\n`)).toEqual([`1:${long}`, "2:end"]);
  });

  it.runIf(existsSync("/dev/zero"))("refuses a device before reading a byte of it", async () => {
    const seen: number[] = [];
    await expect(readLines("/dev/zero", { line: (n) => void seen.push(n), bad: (n) => void seen.push(n) })).rejects.toThrow(UnreadableLog);
    await expect(readLines("/dev/zero", { line() {}, bad() {} })).rejects.toMatchObject({ problem: "is a device, not a regular file", hint: "pass a file or a named pipe" });
    expect(seen).toEqual([]);
  });

  it("throws the file system's error for a missing file", async () => {
    await expect(readLines(join(makeTempDir("read-lines"), "missing.jsonl"), { line() {}, bad() {} })).rejects.toMatchObject({ code: "ENOENT" });
  });
});
