import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_LINE_PROBLEMS } from "../../src/cli/commands/report.js";
import { run } from "../../src/cli/run.js";
import type { HandoffReport } from "../../src/report/handoff-report.js";
import { fixturePath, makeTempDir, readFixture, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

afterAll(() => removeTempDirs());

const knownDir = fixturePath("report");
/** `mkfifo` (coreutils) makes a named pipe; where it is missing (Windows) there are no FIFOs. */
const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
const goodLine = readFixture("report", "known.jsonl").split("\n")[0] as string;

describe("seam report", () => {
  it("prints the terminal summary of a log and exits 0", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl"], io)).toBe(0);
    expect(io.err()).toBe("");
    const out = io.out();
    expect(out.split("\n")[0]).toBe(
      "13 handoffs from 2026-11-23T10:00:00.000Z to 2026-11-26T10:02:00.000Z: 8 accepted, 1 observed, 3 rejected, 1 duplicate",
    );
    expect(out).toContain("  desk (hop limit 4): 4 tasks, p50 2, p95 3, max 3  <- p95 at the hop limit\n");
    expect(out).toContain("    1 handoff refused at the hop limit\n");
    expect(out).toContain("  triage    /artefacts/*/ref            artefact-unreadable      2\n");
    expect(out).toContain("  triage -> billing    delegate         6  ready 5, (none) 1     accepted 4, rejected 2, duplicate 1\n");
    expect(out).toContain("  1.2.0           1  2026-11-24T10:06:00.000Z  2026-11-24T10:06:00.000Z\n");
  });

  it("prints the report as JSON with --format json", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl", "--format", "json"], io)).toBe(0);
    const report = JSON.parse(io.out()) as HandoffReport;
    expect(report.report).toBe("seam.report");
    expect(report.v).toBe(1);
    expect(report.handoffs).toBe(13);
    expect(report.hop_counts[0]?.p95).toBe(3);
  });

  it("reads several logs as one", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl", "known.jsonl", "--format", "json"], io)).toBe(0);
    expect((JSON.parse(io.out()) as HandoffReport).handoffs).toBe(26);
  });

  it("names each bad line as file:line with what is wrong, reports the rest, and exits 2", async () => {
    const dir = makeTempDir("report");
    const lines = [
      goodLine,
      "not json",
      "[1, 2]",
      goodLine.replace('"v":1', '"v":2'),
      goodLine.replace('"verdict":"accepted"', '"verdict":"maybe"'),
      goodLine.replace('"hop_index":1', '"hop_index":-1'),
      goodLine.replace('"reasons":[]', '"reasons":[{"path":3}]'),
      goodLine.replace(/"latency_ms":[^,]*/, '"latency_ms":1.7976931348623157e308'),
      goodLine.replace('"hop_index":1', '"hop_index":9007199254740993'),
      "",
      '{"event":"other"}',
      goodLine,
    ];
    writeFileSync(join(dir, "bad.jsonl"), `${lines.join("\n")}\n`);
    const io = createFakeIo(dir);
    expect(await run(["report", "bad.jsonl", "--format", "json"], io)).toBe(2);
    expect(io.err()).toBe(
      [
        "seam: bad.jsonl:2:1: is not JSON: expected a value, found 'n' (fix or remove the line)",
        "seam: bad.jsonl:3: is not a JSON object (fix or remove the line)",
        "seam: bad.jsonl:4: is a handoff event of record version 2; this seam reads version 1 (fix or remove the line)",
        'seam: bad.jsonl:5: field "verdict" must be one of accepted, observed, rejected, duplicate (fix or remove the line)',
        'seam: bad.jsonl:6: field "hop_index" must be a whole number from 0 to 9007199254740991, or null (fix or remove the line)',
        'seam: bad.jsonl:7: reasons[0] must be an object with string "path" and "rule" (fix or remove the line)',
        'seam: bad.jsonl:8: field "latency_ms" must be a number of milliseconds from -8640000000000000 to 8640000000000000, or null (fix or remove the line)',
        'seam: bad.jsonl:9: field "hop_index" must be a whole number from 0 to 9007199254740991, or null (fix or remove the line)',
        "seam: 8 lines could not be read; the report covers the other lines",
        "",
      ].join("\n"),
    );
    expect((JSON.parse(io.out()) as HandoffReport).handoffs).toBe(2);
  });

  it("names a line with no date-time, a key given twice or an ingest time below 0 or past any, and reads valid lines quietly", async () => {
    const dir = makeTempDir("report");
    const twice = goodLine.replace('"graph":"desk"', '"graph":"desk","graph":"refunds"');
    const lines = [
      goodLine.replace('"at":"2026-11-23T10:00:00.000Z"', '"at":"not a date"'),
      twice,
      goodLine.replace('"ingest_ms":0.02', '"ingest_ms":-1'),
      goodLine.replace('"ingest_ms":0.02', '"ingest_ms":1e999'),
      goodLine.replace('"at":"2026-11-23T10:00:00.000Z"', '"at":"2026-11-23T11:00:00.5+01:00"'),
      '{"event":"app","level":"info","level":"warn"}',
      '{"event":"seam.handoff","event":"app"}',
    ];
    writeFileSync(join(dir, "strict.jsonl"), `${lines.join("\n")}\n`);
    const io = createFakeIo(dir);
    expect(await run(["report", "strict.jsonl", "--format", "json"], io)).toBe(2);
    expect(io.err()).toBe(
      [
        'seam: strict.jsonl:1: field "at" must be an RFC 3339 date-time such as 2026-11-29T10:05:00.000Z, without a leap second (fix or remove the line)',
        `seam: strict.jsonl:2:${twice.indexOf('"graph":"refunds"') + 1}: has the key "graph" twice in one object (at /graph): JSON readers disagree on which value counts (fix or remove the line)`,
        'seam: strict.jsonl:3: field "ingest_ms" must be a number of milliseconds from 0 to 8640000000000000 (fix or remove the line)',
        'seam: strict.jsonl:4: field "ingest_ms" must be a number of milliseconds from 0 to 8640000000000000 (fix or remove the line)',
        'seam: strict.jsonl:7:25: has the key "event" twice in one object (at /event): JSON readers disagree on which value counts (fix or remove the line)',
        "seam: 5 lines could not be read; the report covers the other lines",
        "",
      ].join("\n"),
    );
    const report = JSON.parse(io.out()) as HandoffReport;
    // The line with an offset is read as the instant it names.
    expect([report.handoffs, report.first_at, report.last_at]).toEqual([1, "2026-11-23T10:00:00.500Z", "2026-11-23T10:00:00.500Z"]);
  });

  it("names a line whose fields break what the record says, and reads a refusal past the hop limit", async () => {
    const dir = makeTempDir("report");
    const lines = [
      goodLine.replace('"hop_index":1', '"hop_index":1000000'),
      goodLine.replace('"hop_limit":4', '"hop_limit":0'),
      goodLine.replace('"route":"proceed"', '"route":"nowhere"'),
      goodLine.replace('"hop_index":1', '"hop_index":1000000').replace('"verdict":"accepted","route":"proceed"', '"verdict":"rejected","route":"escalate"'),
    ];
    writeFileSync(join(dir, "hops.jsonl"), `${lines.join("\n")}\n`);
    const io = createFakeIo(dir);
    expect(await run(["report", "hops.jsonl", "--format", "json"], io)).toBe(2);
    expect(io.err()).toBe(
      [
        'seam: hops.jsonl:1: field "hop_index" must be less than "hop_limit" (4) when "verdict" is "accepted" (fix or remove the line)',
        'seam: hops.jsonl:2: field "hop_limit" must be a whole number from 1 to 9007199254740991 (fix or remove the line)',
        'seam: hops.jsonl:3: field "route" must be one of proceed, human_input, approval, failed, held when "verdict" is "accepted" (fix or remove the line)',
        "seam: 3 lines could not be read; the report covers the other lines",
        "",
      ].join("\n"),
    );
    const report = JSON.parse(io.out()) as HandoffReport;
    expect([report.handoffs, report.verdicts.rejected, report.hop_counts.length]).toEqual([1, 1, 1]);
    expect(report.hop_counts[0]?.tasks).toBe(0);
  });

  it(`names at most ${MAX_LINE_PROBLEMS} bad lines and counts the rest`, async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "junk.jsonl"), "x\n".repeat(MAX_LINE_PROBLEMS + 7));
    const io = createFakeIo(dir);
    expect(await run(["report", "junk.jsonl"], io)).toBe(2);
    const err = io.err().split("\n");
    expect(err.filter((l) => l.startsWith("seam: junk.jsonl:"))).toHaveLength(MAX_LINE_PROBLEMS);
    expect(err).toContain("seam: 7 more bad lines not shown");
  });

  it("escapes a hostile line's text in the error message", async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "evil.jsonl"), `\u001b]0;owned\u0007${"x".repeat(300)}\n`);
    const io = createFakeIo(dir);
    expect(await run(["report", "evil.jsonl"], io)).toBe(2);
    expect(io.err()).not.toContain("\u001b");
    expect(io.err().split("\n")[0]!.length).toBeLessThan(220);
  });

  it("reports a missing file in one line, still reports the others, and exits 2", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "missing.jsonl", "known.jsonl", "--format", "json"], io)).toBe(2);
    expect(io.err()).toBe("seam: missing.jsonl: no such file or folder (check the path)\n");
    expect((JSON.parse(io.out()) as HandoffReport).handoffs).toBe(13);
  });

  it.runIf(existsSync("/dev/zero"))("refuses a device unread, in one line as every command does, and still reports the other logs", async () => {
    // /dev/zero never ends and /dev/urandom is an endless run of bad lines: neither may be read.
    const io = createFakeIo(knownDir);
    expect(await run(["report", "/dev/zero", "/dev/urandom", "known.jsonl", "--format", "json"], io)).toBe(2);
    expect(io.err()).toBe(
      "seam: /dev/zero: is a device, not a regular file (pass a file or a named pipe)\n" + "seam: /dev/urandom: is a device, not a regular file (pass a file or a named pipe)\n",
    );
    expect((JSON.parse(io.out()) as HandoffReport).handoffs).toBe(13);
  });

  it.runIf(hasMkfifo)("reads a named pipe until its writer closes it", async () => {
    const dir = makeTempDir("report");
    expect(spawnSync("mkfifo", [join(dir, "events.jsonl")]).status).toBe(0);
    const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", join(knownDir, "known.jsonl"), join(dir, "events.jsonl")], { stdio: "ignore" });
    const io = createFakeIo(dir);
    expect(await run(["report", "events.jsonl", "--format", "json"], io)).toBe(0);
    expect(io.err()).toBe("");
    expect((JSON.parse(io.out()) as HandoffReport).handoffs).toBe(13);
    writer.kill();
  });

  it("prints no report when no log can be read, and exits 2", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "missing.jsonl", "gone.jsonl"], io)).toBe(2);
    expect(io.err()).toBe("seam: missing.jsonl: no such file or folder (check the path)\nseam: gone.jsonl: no such file or folder (check the path)\n");
    expect(io.out()).toBe("");
  });

  it("prints an empty report for an empty log and exits 0", async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "empty.jsonl"), "");
    const io = createFakeIo(dir);
    expect(await run(["report", "empty.jsonl"], io)).toBe(0);
    expect(io.out()).toContain("0 handoffs: 0 accepted, 0 observed, 0 rejected, 0 duplicate\n");
    expect(io.out()).toContain("  no accepted handoff carries a latency\n");
  });

  it("writes the HTML page with --html, replacing a symbolic link instead of following it", async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "precious.txt"), "keep me");
    symlinkSync(join(dir, "precious.txt"), join(dir, "report.html"));
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl", "--html", join(dir, "report.html")], io)).toBe(0);
    expect(readFileSync(join(dir, "precious.txt"), "utf8")).toBe("keep me");
    expect(readFileSync(join(dir, "report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/);
  });

  it("refuses a page that would overwrite one of its logs, before reading any, and writes nothing", async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "events.jsonl"), `${goodLine}\n`);
    symlinkSync(dir, join(dir, "here"));
    for (const page of ["events.jsonl", join(dir, "events.jsonl"), "here/events.jsonl"]) {
      const io = createFakeIo(dir);
      expect(await run(["report", "other.jsonl", "events.jsonl", "--html", page], io)).toBe(2);
      expect(io.out()).toBe("");
      expect(io.err()).toBe(`seam: ${page}: is the event log events.jsonl, which --html would overwrite (write the page to another file)\n`);
      expect(readFileSync(join(dir, "events.jsonl"), "utf8")).toBe(`${goodLine}\n`);
    }
  });

  it("writes a page beside its logs when the names differ", async () => {
    const dir = makeTempDir("report");
    writeFileSync(join(dir, "events.jsonl"), `${goodLine}\n`);
    const io = createFakeIo(dir);
    expect(await run(["report", "events.jsonl", "--html", "events.html"], io)).toBe(0);
    expect(readFileSync(join(dir, "events.html"), "utf8")).toMatch(/^<!DOCTYPE html>/);
    expect(readFileSync(join(dir, "events.jsonl"), "utf8")).toBe(`${goodLine}\n`);
  });

  it("exits 2 with one line when the page cannot be written", async () => {
    const dir = makeTempDir("report");
    mkdirSync(join(dir, "page.html"));
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl", "--html", join(dir, "page.html")], io)).toBe(2);
    expect(io.err()).toMatch(/^seam: .*page\.html: is a folder, not a file \(remove the folder or write elsewhere\)\n$/);
  });

  it("refuses an unknown --format as a usage error", async () => {
    const io = createFakeIo(knownDir);
    expect(await run(["report", "known.jsonl", "--format", "html"], io)).toBe(2);
    expect(io.err()).toContain("--format");
  });
});
