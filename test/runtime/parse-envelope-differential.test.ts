/**
 * parseEnvelope against the Python runtime's parse_envelope on the same texts: hand-picked faults
 * and thousands generated from a valid envelope (every truncation, single-character mutations),
 * deep nesting and byte order marks. Both must give the same verdict, rule, pointer and message,
 * the place of each fault included. One Python process (.venv, as `.ci/run` makes it) per run.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "../../src/runtime/parse-envelope.js";
import { MAX_DEPTH } from "../../src/runtime/reason-catalogue.js";
import { projectRoot, readFixture } from "../emit/helpers.js";

const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const SETUP = "python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python";
if (!existsSync(VENV_PYTHON)) {
  if (process.env["CI"] === "true") throw new Error(`the differential test needs .venv: ${SETUP}`);
  console.log(`skipped: needs .venv (${SETUP})`);
}

/** A verdict both runtimes can print: ok, or [path, rule, message] per reason. */
type Verdict = true | [string, string, string][];

const READ = `
import base64, json, sys
from seam_handoff import parse_envelope
request = json.loads(sys.stdin.read())
def verdict(parsed):
    return True if parsed.ok else [[r.path, r.rule, r.message] for r in parsed.reasons]
print(json.dumps({
    "texts": [verdict(parse_envelope(text)) for text in request["texts"]],
    "bytes": [verdict(parse_envelope(base64.b64decode(data))) for data in request["bytes"]],
}))
`;

function pythonVerdicts(texts: readonly string[], bytes: readonly Uint8Array[]): { texts: Verdict[]; bytes: Verdict[] } {
  const request = { texts, bytes: bytes.map((b) => Buffer.from(b).toString("base64")) };
  const run = spawnSync(VENV_PYTHON, ["-c", READ], { input: JSON.stringify(request), encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python exited ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as { texts: Verdict[]; bytes: Verdict[] };
}

function jsVerdict(text: string | Uint8Array): Verdict {
  const parsed = parseEnvelope(text);
  return parsed.ok ? true : parsed.reasons.map((r) => [r.path, r.rule, r.message]);
}

const envelope = readFixture("cases", "envelopes", "valid-delegate.json");
const compact = JSON.stringify(JSON.parse(envelope));
const nest = (depth: number, open = "[", close = "]"): string => open.repeat(depth) + close.repeat(depth);

const HAND_PICKED = [
  "",
  " \n\t\r ",
  "NaN",
  "Infinity",
  "-Infinity",
  '{"a": NaN}',
  '{"a": -Infinity}',
  "[1,]",
  '{"a": 1,}',
  "[,1]",
  "{,}",
  "1 2",
  '{"a": 1} x',
  '{"a": 1}}',
  "[01]",
  "-01",
  "-",
  "1.",
  "1e",
  "1e+",
  ".5",
  "+1",
  '"a\nb"',
  '"a\u0000"',
  '"tab\there"',
  '"\\x"',
  '"\\u12G4"',
  '"\\u12',
  '"\\',
  '"\\ud800"',
  '"\\udc00\\ud800"',
  "\ud800",
  '"\ud800"',
  '"😀\n"',
  '{"😀": 1, 😀}',
  "['a']",
  "{'a': 1}",
  '{"a" 1}',
  '{"a": 1 "b": 2}',
  "[1 2]",
  "tru",
  "nul",
  "[true, fals]",
  "True",
  '{"a":1}\r\n{"b":2}',
  "line\none",
  '[\n  1,\n  2,\n]',
  "\ufeff{}",
  "\ufeff\ufeff{}",
  "{}\ufeff",
  '{"a": 1, "a": 2}',
  '{"a": 1, "a": 2} x',
  '[{"a": 1, "a": 2}, NaN]',
  `{"a": ${"9".repeat(5000)}, }`,
  nest(MAX_DEPTH),
  nest(MAX_DEPTH + 1),
  nest(MAX_DEPTH + 1, '{"k":', "}"),
  nest(MAX_DEPTH, '{"k":[', "]}"),
  `{"a":${nest(1000)}}`,
  `{"a":${nest(1000)},"a":1}`,
  `{"a":${nest(1000)}} x`,
  `[x, ${nest(1000)}]`,
  "[".repeat(100_000),
  nest(200_000),
  `["${"[".repeat(MAX_DEPTH * 2)}"]`,
];

/** Texts made from the valid envelope: every truncation, and single-character edits. */
function generated(): string[] {
  const texts: string[] = [];
  for (let end = 0; end < compact.length; end++) texts.push(compact.slice(0, end));
  for (let end = 0; end < envelope.length; end += 7) texts.push(envelope.slice(0, end));
  const chars = [..."{}[]\":,\\0123456789-+.eEtfnul \n\t\r\u0000\u001f\u007fx'/", "\ud800", "\udc00", "😀", "\ufeff"];
  const edit = fc.record({
    at: fc.nat({ max: compact.length }),
    op: fc.constantFrom("replace", "insert", "delete"),
    char: fc.constantFrom(...chars),
    pretty: fc.boolean(),
  });
  for (const { at, op, char, pretty } of fc.sample(edit, { numRuns: 3_000, seed: 20260508 })) {
    const base = pretty ? envelope : compact;
    const i = at % (base.length + 1);
    texts.push(op === "insert" ? base.slice(0, i) + char + base.slice(i) : base.slice(0, i) + (op === "replace" ? char : "") + base.slice(i + 1));
  }
  return texts;
}

describe.skipIf(!existsSync(VENV_PYTHON))("parseEnvelope and the Python runtime's parse_envelope", () => {
  it("give the same verdict, rule, pointer and message on every text", () => {
    const texts = [...HAND_PICKED, ...generated()];
    const bytes = [
      new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      new Uint8Array([0x7b, 0xef, 0xbb, 0xbf, 0x7d]),
      new Uint8Array([0x7b, 0xff, 0x7d]),
      new Uint8Array([]),
      ...HAND_PICKED.map((text) => new TextEncoder().encode(text)).filter((data, i) => new TextDecoder().decode(data) === HAND_PICKED[i]),
    ];
    const python = pythonVerdicts(texts, bytes);
    const js = { texts: texts.map(jsVerdict), bytes: bytes.map(jsVerdict) };
    for (let i = 0; i < texts.length; i++) expect(python.texts[i], JSON.stringify(texts[i]?.slice(0, 200))).toEqual(js.texts[i]);
    for (let i = 0; i < bytes.length; i++) expect(python.bytes[i], `bytes ${i}`).toEqual(js.bytes[i]);

    // Not a vacuous agreement: the texts reach every kind of fault, and many are accepted.
    const messages = js.texts.flatMap((v) => (v === true ? [] : v.map(([, , message]) => message.replace(/line \d+, column \d+/, "line L, column C"))));
    expect(new Set(messages).size).toBeGreaterThanOrEqual(16);
    expect(js.texts.filter((v) => v === true).length).toBeGreaterThan(300);
    expect(js.texts.filter((v) => v !== true && v[0]?.[1] === "duplicate-key").length).toBeGreaterThan(0);
  });
});
