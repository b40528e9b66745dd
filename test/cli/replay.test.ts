/**
 * `seam validate` on JSON Lines: recorded envelopes replayed against a graph, refusals grouped by
 * edge and rule, bad lines reported as file:line, and any file streamed in bounded memory.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { readJsonLines } from "../../src/cli/json-lines.js";
import { emptySummary, MAX_EXAMPLES, MAX_GROUPS, OTHER_EDGES, replayFiles, replayJsonLines } from "../../src/cli/replay.js";
import { run } from "../../src/cli/run.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { MAX_ENVELOPE_BYTES } from "../../src/runtime/parse-envelope.js";
import { createFakeIo } from "./fake-io.js";

const CASES = new URL("../fixtures/cases/envelopes/", import.meta.url);
const VALID = JSON.parse(readFileSync(new URL("valid-delegate.json", CASES), "utf8")) as Record<string, unknown>;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "seam-replay-"));
  dirs.push(dir);
  copyFileSync(new URL("graph.seam", CASES), join(dir, "graph.seam"));
  return dir;
}

/** The valid envelope with a new handoff id and `change` applied. */
function envelope(n: number, change: (e: Record<string, unknown>) => void = () => {}): string {
  const e = JSON.parse(JSON.stringify(VALID)) as Record<string, unknown>;
  e["handoff_id"] = `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  change(e);
  return JSON.stringify(e);
}

const noGoal = (e: Record<string, unknown>): void => {
  delete e["goal"];
};
const extra = (e: Record<string, unknown>): void => {
  e["note"] = "unknown field";
};

async function validate(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = createFakeIo(cwd);
  const code = await run(["validate", ...argv, "--graph", "graph.seam", "--as", "*"], io);
  return { code, out: io.out(), err: io.err() };
}

describe("seam validate <log.jsonl>", () => {
  it("prints which recorded envelopes the graph refuses, by edge and rule", async () => {
    const dir = folder();
    const lines = [envelope(1), envelope(2, noGoal), "", envelope(3, extra), envelope(4, noGoal), envelope(5, noGoal), envelope(6, noGoal)];
    writeFileSync(join(dir, "log.jsonl"), `\uFEFF${lines.join("\r\n")}\n`);
    const { code, out, err } = await validate(dir, "log.jsonl");
    expect(err).toBe("");
    expect(code).toBe(1);
    expect(out).toBe(
      "replay: 6 recorded envelopes: 1 accepted, 5 refused by this graph\n" +
        "  triage -> billing\n" +
        "    additional-property: 1 envelope (log.jsonl:4)\n" +
        "    required: 4 envelopes (log.jsonl:2, log.jsonl:5, log.jsonl:6, ...)\n",
    );
  });

  it("exits 0 when every recorded envelope is accepted, and prints JSON with --format json", async () => {
    const dir = folder();
    writeFileSync(join(dir, "log.ndjson"), `${envelope(1)}\n${envelope(2)}`);
    const { code, out } = await validate(dir, "log.ndjson", "--format", "json");
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ files: [], replay: { envelopes: 2, accepted: 2, refused: 0, unreadable: 0, groups: [] } });
  });

  it("escapes the line's own text that the JSON parser quotes in its error", async () => {
    const dir = folder();
    writeFileSync(join(dir, "log.jsonl"), `{"a":\u001b[2J}\n`);
    const { code, err } = await validate(dir, "log.jsonl");
    expect(code).toBe(2);
    expect(err).toBe("seam: log.jsonl:1:6: is not valid JSON: expected a value, found '\\u001b' (one envelope per line, as JSON)\n");
    expect(err).not.toContain("\u001b");
  });

  it("reports a bad line as file:line, checks the others, and exits 2", async () => {
    const dir = folder();
    writeFileSync(join(dir, "log.jsonl"), `${envelope(1)}\n{"handoff_id":\n${envelope(2, noGoal)}\n`);
    const { code, out, err } = await validate(dir, "log.jsonl");
    expect(code).toBe(2);
    expect(err).toBe("seam: log.jsonl:2:15: is not valid JSON: expected a value, found the end of the text (one envelope per line, as JSON)\n");
    expect(out).toBe("replay: 2 recorded envelopes: 1 accepted, 1 refused by this graph; 1 line not read (named above)\n  triage -> billing\n    required: 1 envelope (log.jsonl:3)\n");
  });

  it("reports a line with bytes that are no UTF-8 at the first of them, as parseEnvelope refuses it, and reads on", async () => {
    const dir = folder();
    const bad = Buffer.from(envelope(3)).toString("latin1").replace('"constraints":[', '"constraints":["\xff", ');
    writeFileSync(join(dir, "log.jsonl"), Buffer.concat([Buffer.from(`${envelope(1)}\n`), Buffer.from(bad, "latin1"), Buffer.from(`\n${envelope(2, noGoal)}\n`)]));
    const column = bad.indexOf("\xff") + 1;
    const { code, out, err } = await validate(dir, "log.jsonl");
    expect(code).toBe(2);
    expect(err).toBe(`seam: log.jsonl:2:${column}: is not valid UTF-8 text from here on (byte 0xFF) (one envelope per line, as JSON)\n`);
    expect(out).toBe("replay: 2 recorded envelopes: 1 accepted, 1 refused by this graph; 1 line not read (named above)\n  triage -> billing\n    required: 1 envelope (log.jsonl:3)\n");
  });

  it.runIf(existsSync("/dev/zero"))("refuses a device, which would never end, with one line", async () => {
    const dir = folder();
    const io = createFakeIo(dir);
    const { accept } = createGraphAccept(checkText("graph.seam", readFileSync(join(dir, "graph.seam"), "utf8")).graphs[0]!, { anyReceiver: true });
    const { summary, unusable } = await replayFiles(["/dev/zero"], dir, accept, "*", io);
    expect(unusable).toBe(true);
    expect(summary.envelopes).toBe(0);
    expect(io.err()).toBe("seam: /dev/zero: is a device, not a regular file (pass a file or a named pipe)\n");
  });

  it("exits 2 for a log that cannot be read", async () => {
    const dir = folder();
    const { code, err } = await validate(dir, "gone.jsonl");
    expect(code).toBe(2);
    expect(err).toBe("seam: gone.jsonl: no such file or folder (check the path)\n");
  });

  it("with --as '*', refuses a line that names no receiver and replays the lines after it", async () => {
    const dir = folder();
    const noReceiver = envelope(2, (e) => {
      delete e["to_agent"];
    });
    writeFileSync(join(dir, "log.jsonl"), `{"x":1}\n[]\n${noReceiver}\n${envelope(1)}\n`);
    const { code, out, err } = await validate(dir, "log.jsonl");
    expect(err).toBe("");
    expect(code).toBe(1);
    expect(out).toBe(
      "replay: 4 recorded envelopes: 1 accepted, 3 refused by this graph\n" +
        "  (no id) -> (no id)\n" +
        "    additional-property: 1 envelope (log.jsonl:1)\n" +
        "    required: 1 envelope (log.jsonl:1)\n" +
        "    type: 1 envelope (log.jsonl:2)\n" +
        "  triage -> (no id)\n" +
        "    required: 1 envelope (log.jsonl:3)\n",
    );
  });

  it("refuses what a service's parseEnvelope refuses, for its reason: past 1 MiB, or a key twice; one at the limit is judged", async () => {
    const dir = folder();
    const line = envelope(1);
    // Spaces before the last brace: still the same envelope, as JSON.
    const padded = (bytes: number): string => `${line.slice(0, -1)}${" ".repeat(bytes - Buffer.byteLength(line))}}`;
    const twice = `${envelope(3).slice(0, -1)},"to_agent":{"id":"refunds","role":"worker"}}`;
    const junk = `[${"x".repeat(MAX_ENVELOPE_BYTES)}`;
    writeFileSync(join(dir, "log.jsonl"), [padded(MAX_ENVELOPE_BYTES), padded(MAX_ENVELOPE_BYTES + 1), twice, junk, envelope(2)].join("\n"));
    const { code, out, err } = await validate(dir, "log.jsonl");
    // A line past the limit is refused unparsed, as a service refuses it, whether or not it is JSON.
    expect(err).toBe("");
    expect(code).toBe(1);
    expect(out).toBe(
      "replay: 5 recorded envelopes: 2 accepted, 3 refused by this graph\n" +
        "  (no id) -> (no id)\n" +
        "    envelope-too-large: 1 envelope (log.jsonl:4)\n" +
        "  triage -> billing\n" +
        "    envelope-too-large: 1 envelope (log.jsonl:2)\n" +
        "  triage -> refunds\n" +
        "    duplicate-key: 1 envelope (log.jsonl:3)\n",
    );
  });

  it("quotes and bounds agent ids from envelopes in the report", async () => {
    const dir = folder();
    const hostile = envelope(1, (e) => {
      (e["from_agent"] as Record<string, unknown>)["id"] = "\u001b[31mred\u202e" + "x".repeat(200);
    });
    writeFileSync(join(dir, "log.jsonl"), `${hostile}\n`);
    const { out } = await validate(dir, "log.jsonl");
    expect(out).toContain(`  "\\u001b[31mred\\u202e${"x".repeat(111)}\u2026" (89 more characters) -> billing\n`);
    expect(out).not.toContain("\u001b");
  });
});

describe("JSON Lines reading", () => {
  it("skips a line longer than the cap, reports it, and reads on", async () => {
    const dir = folder();
    writeFileSync(join(dir, "log.jsonl"), `{"a":1}\n${"x".repeat(5000)}\n{"b":2}\n`);
    const lines = [];
    for await (const batch of readJsonLines("log.jsonl", dir, { maxLine: 100 })) lines.push(...batch);
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, tooLong: true },
      { line: 3, text: '{"b":2}' },
    ]);
  });

  it("streams a large log in bounded memory: it never buffers more than a line", async () => {
    const dir = folder();
    const path = join(dir, "big.jsonl");
    const out = createWriteStream(path);
    const count = 30_000;
    let longest = 0;
    for (let n = 0; n < count; n++) {
      // Every 7th envelope names an agent of its own, so groups outgrow their cap.
      const line = n % 7 === 0 ? envelope(n, (e) => ((e["from_agent"] as Record<string, unknown>)["id"] = `agent_${n}`)) : envelope(n);
      longest = Math.max(longest, line.length);
      if (!out.write(`${line}\n`)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");

    const { graphs } = checkText("graph.seam", readFileSync(join(dir, "graph.seam"), "utf8"));
    const { accept } = createGraphAccept(graphs[0]!, { anyReceiver: true });
    const summary = emptySummary();
    let buffered = 0;
    const bad: string[] = [];
    await replayJsonLines("big.jsonl", dir, accept, { as: "*", onBadLine: (at, p) => bad.push(`${at.line}: ${p}`), lines: { onBuffered: (n) => (buffered = Math.max(buffered, n)) } }, summary);

    expect(bad).toEqual([]);
    expect(summary.envelopes).toBe(count);
    const refused = Math.ceil(count / 7);
    expect(summary.refused).toBe(refused);
    expect(summary.accepted).toBe(count - refused);
    // What the reader held at once: less than one line, whatever the file's size (here ~35 MB).
    expect(buffered).toBeLessThan(longest);
    // What the report holds: a bounded number of groups and examples, whatever the log's size.
    expect(summary.groups.length).toBeLessThanOrEqual(MAX_GROUPS + 8);
    expect(summary.groups.every((g) => g.examples.length <= MAX_EXAMPLES)).toBe(true);
    expect(summary.groups.filter((g) => g.edge === OTHER_EDGES).reduce((n, g) => n + g.count, 0)).toBeGreaterThan(0);
    expect(summary.groups.reduce((n, g) => n + g.count, 0)).toBeGreaterThanOrEqual(refused);
  });
});
