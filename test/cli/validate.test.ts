import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateCommand, type ValidateVerdict } from "../../src/cli/commands/validate.js";
import { MAX_ENVELOPE_BYTES } from "../../src/runtime/parse-envelope.js";
import { run } from "../../src/cli/run.js";
import { fixturePath, makeTempDir, readJsonFixture, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

interface CaseExpectation {
  as: string;
  files: string[];
  verdicts: { ok?: boolean; mentions?: string[]; duplicate?: boolean; route?: string }[];
}

const casesDir = fixturePath("cases", "envelopes");
/** The shared cases: `[folder under test/fixtures/cases, case name]`. */
const caseNames = ["envelopes", "envelopes-help-desk"].flatMap((folder) =>
  readdirSync(fixturePath("cases", folder))
    .filter((name) => name.endsWith(".expect.json"))
    .map((name) => [folder, name.slice(0, -".expect.json".length)] as const)
    .sort(),
);

afterAll(() => removeTempDirs());

describe("seam validate: the shared envelope cases", () => {
  it("has the cases", () => {
    expect(caseNames.map(([folder, name]) => `${folder}/${name}`)).toEqual([
      "envelopes/coerced-hop-index",
      "envelopes/duplicate-delivery",
      "envelopes/return-without-status",
      "envelopes/unknown-field",
      "envelopes/valid-delegate",
      "envelopes-help-desk/limit-raised",
      "envelopes-help-desk/replay-new-id",
    ]);
  });

  it.each(caseNames)("%s/%s", async (folder, name) => {
    const expectation = readJsonFixture("cases", folder, `${name}.expect.json`) as CaseExpectation;
    const io = createFakeIo(fixturePath("cases", folder));
    const code = await validateCommand({ envelopes: expectation.files, graph: "graph.seam", as: expectation.as, format: "json" }, io);
    const verdicts = JSON.parse(io.out()) as ValidateVerdict[];
    expect(verdicts).toHaveLength(expectation.verdicts.length);
    expectation.verdicts.forEach((expected, i) => {
      const verdict = verdicts[i] as ValidateVerdict;
      expect(verdict.file).toBe(expectation.files[i]);
      if (expected.ok !== undefined) expect(verdict.ok).toBe(expected.ok);
      if (expected.duplicate !== undefined) expect(verdict.duplicate).toBe(expected.duplicate);
      if (expected.route !== undefined) expect(verdict.route).toBe(expected.route);
      const words = verdict.reasons.map((r) => `${r.path} ${r.rule}`).join(" ");
      for (const word of expected.mentions ?? []) expect(word.split("|").some((alternative) => words.includes(alternative)), word).toBe(true);
    });
    expect(code).toBe(verdicts.every((v) => v.ok) ? 0 : 1);
    expect(io.err()).toBe("");
  });
});

describe("seam validate", () => {
  it("prints pretty verdicts with reasons", async () => {
    const io = createFakeIo(casesDir);
    const code = await validateCommand(
      { envelopes: ["unknown-field.json", "valid-delegate.json", "valid-delegate.json"], graph: "graph.seam", as: "billing", format: "pretty" },
      io,
    );
    expect(code).toBe(1);
    expect(io.out()).toBe(
      [
        "unknown-field.json: rejected (route repair, attempt 1)",
        '  error /payload additional-property: unexpected field "payload": the envelope is closed, add no fields of your own',
        "valid-delegate.json: accepted (route proceed)",
        "valid-delegate.json: duplicate (route discard)",
        '  error /handoff_id duplicate: handoff "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39" was accepted before; it is not processed twice',
        "3 envelopes: 1 accepted, 1 duplicate, 1 rejected (a duplicate is not accepted a second time)",
        "",
      ].join("\n"),
    );
  });

  it("takes each envelope's to_agent as the receiver with --as '*'", async () => {
    const io = createFakeIo(casesDir);
    const code = await validateCommand({ envelopes: ["valid-delegate.json", "return-without-status.json"], graph: "graph.seam", as: "*", format: "json" }, io);
    const verdicts = JSON.parse(io.out()) as ValidateVerdict[];
    expect(verdicts.map((v) => v.ok)).toEqual([true, false]);
    expect(verdicts[1]?.reasons.map((r) => r.rule)).toEqual(["required", "required"]);
    expect(code).toBe(1);
  });

  it("escapes and bounds envelope text in every format: no terminal control reaches stdout", async () => {
    const dir = makeTempDir("validate-hostile");
    writeFileSync(join(dir, "graph.seam"), readFileSync(join(casesDir, "graph.seam")));
    const envelope = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, any>;
    envelope["to_agent"]["id"] = "\u001b]0;pwned\u0007\u001b[2J\u0000bill\u202eing\u009b";
    envelope[`x${"\u202e".repeat(2)}${"y".repeat(500)}`] = 1;
    writeFileSync(join(dir, "hostile.json"), JSON.stringify(envelope));
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const pretty = createFakeIo(dir);
    expect(await validateCommand({ envelopes: ["hostile.json"], graph: "graph.seam", as: "billing", format: "pretty" }, pretty)).toBe(1);
    expect(pretty.out()).not.toMatch(raw);
    expect(pretty.out()).toContain('error /to_agent/id not-addressed-to-me: addressed to "\\u001b]0;pwned\\u0007\\u001b[2J\\u0000bill\\u202eing\\u009b", not to "billing"');
    expect(pretty.out()).toContain(
      `error /x\\u202e\\u202e${"y".repeat(116)}… (384 more characters) additional-property: unexpected field "x\\u202e\\u202e${"y".repeat(117)}…" (383 more characters)`,
    );
    const json = createFakeIo(dir);
    expect(await validateCommand({ envelopes: ["hostile.json"], graph: "graph.seam", as: "billing", format: "json" }, json)).toBe(1);
    expect(json.out()).not.toMatch(raw);
    const verdicts = JSON.parse(json.out()) as ValidateVerdict[];
    // The JSON keeps the exact pointer (it is data); only its escaping differs.
    expect(verdicts[0]?.reasons.map((r) => r.path)).toContain(`/x\u202e\u202e${"y".repeat(500)}`);
    for (const reason of verdicts[0]?.reasons ?? []) expect(reason.message).not.toMatch(raw);
  });

  it("exits 0 when every envelope is accepted", async () => {
    const io = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: ["valid-delegate.json"], graph: "graph.seam", as: "billing", format: "json" }, io)).toBe(0);
  });

  it("exits 1 when the only envelope not accepted is a duplicate, and says it is one", async () => {
    const io = createFakeIo(casesDir);
    const code = await validateCommand(
      { envelopes: ["valid-delegate.json", "valid-delegate.json"], graph: "graph.seam", as: "billing", format: "pretty" },
      io,
    );
    expect(code).toBe(1);
    expect(io.out().split("\n").at(-2)).toBe("2 envelopes: 1 accepted, 1 duplicate, 0 rejected (a duplicate is not accepted a second time)");
    const clean = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: ["valid-delegate.json"], graph: "graph.seam", as: "billing", format: "pretty" }, clean)).toBe(0);
    expect(clean.out().split("\n").at(-2)).toBe("1 envelope: 1 accepted, 0 duplicate, 0 rejected");
  });

  it("rejects an envelope with a key twice in one object (rule duplicate-key), before accept() sees it", async () => {
    const dir = makeTempDir("validate");
    const valid = readFileSync(join(casesDir, "valid-delegate.json"), "utf8");
    // The smuggled "to_agent" comes last, so JSON.parse alone would have taken it.
    const smuggled = valid.replace(/\n\}\s*$/, ',\n  "to_agent": { "id": "refunds", "role": "worker" }\n}\n');
    expect(smuggled).not.toBe(valid);
    writeFileSync(join(dir, "smuggled.json"), smuggled);
    const io = createFakeIo(casesDir);
    const code = await validateCommand(
      { envelopes: [join(dir, "smuggled.json"), "valid-delegate.json"], graph: "graph.seam", as: "*", format: "json" },
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toBe("");
    const verdicts = JSON.parse(io.out()) as ValidateVerdict[];
    expect(verdicts[0]).toMatchObject({ ok: false, duplicate: false, route: "repair" });
    expect(verdicts[0]?.reasons).toEqual([
      {
        path: "/to_agent",
        rule: "duplicate-key",
        message: 'the key "to_agent" is given twice in one object: parsers disagree on which value counts, so the envelope is refused',
      },
    ]);
    // Not recorded as seen: the same handoff, sent properly, is accepted.
    expect(verdicts[1]).toMatchObject({ ok: true, duplicate: false });
  });

  it("rejects an envelope past parseEnvelope's size limit (envelope-too-large, route repair) as a service does, and judges one at the limit", async () => {
    const dir = makeTempDir("validate");
    const valid = readFileSync(join(casesDir, "valid-delegate.json"), "utf8").trimEnd();
    // Spaces before the last brace: still the same envelope, as JSON.
    const padded = (bytes: number): string => `${valid.slice(0, -1)}${" ".repeat(bytes - Buffer.byteLength(valid))}}`;
    writeFileSync(join(dir, "over.json"), padded(MAX_ENVELOPE_BYTES + 1));
    writeFileSync(join(dir, "at.json"), padded(MAX_ENVELOPE_BYTES));
    const io = createFakeIo(dir);
    const code = await validateCommand({ envelopes: ["over.json", "at.json"], graph: join(casesDir, "graph.seam"), as: "billing", format: "pretty" }, io);
    expect(io.err()).toBe("");
    expect(code).toBe(1);
    // Not recorded as seen: the same handoff within the limit is accepted, not a duplicate.
    expect(io.out()).toBe(
      "over.json: rejected (route repair)\n" +
        `  error / envelope-too-large: is more than ${MAX_ENVELOPE_BYTES} bytes of UTF-8, past the limit of ${MAX_ENVELOPE_BYTES}: an envelope carries pointers, not payloads\n` +
        "at.json: accepted (route proceed)\n" +
        "2 envelopes: 1 accepted, 0 duplicate, 1 rejected\n",
    );
  });

  it("routes a hop.index written as 99999999999999999999999 or 1e308 by on_hop_limit: past every limit, and out of the schema's range", async () => {
    const dir = makeTempDir("validate");
    const valid = readFileSync(join(casesDir, "valid-delegate.json"), "utf8");
    for (const big of ["99999999999999999999999", "1e308"]) {
      const text = valid.replace(/"index":\s*1\b/, `"index": ${big}`);
      expect(text).not.toBe(valid);
      writeFileSync(join(dir, "big.json"), text);
      const io = createFakeIo(casesDir);
      expect(await validateCommand({ envelopes: [join(dir, "big.json")], graph: "graph.seam", as: "billing", format: "json" }, io)).toBe(1);
      const [verdict] = JSON.parse(io.out()) as ValidateVerdict[];
      expect(verdict?.route).toBe("escalate");
      expect(verdict?.reasons.map((r) => `${r.path} ${r.rule}`)).toEqual(["/hop/index maximum", "/hop/index hop-limit-reached"]);
    }
  });

  it("as one agent judges a task's later hop on its content; as '*' the whole graph's ledger wants its hop 1 first", async () => {
    const dir = makeTempDir("validate");
    const envelope = JSON.parse(readFileSync(join(casesDir, "valid-delegate.json"), "utf8")) as { hop: { index: number; path: string[] } };
    envelope.hop = { ...envelope.hop, index: 3, path: ["triage", "billing", "triage", "billing"] };
    writeFileSync(join(dir, "hop-3.json"), JSON.stringify(envelope));
    const asBilling = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: [join(dir, "hop-3.json")], graph: "graph.seam", as: "billing", format: "json" }, asBilling)).toBe(0);
    const asGraph = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: [join(dir, "hop-3.json")], graph: "graph.seam", as: "*", format: "json" }, asGraph)).toBe(1);
    const [verdict] = JSON.parse(asGraph.out()) as ValidateVerdict[];
    expect(verdict?.reasons.map((r) => `${r.path} ${r.rule}`)).toEqual(["/hop/index hop-skipped"]);
  });

  it("prints no summary when no envelope could be read", async () => {
    const io = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: ["missing.json"], graph: "graph.seam", as: "billing", format: "pretty" }, io)).toBe(2);
    expect(io.out()).toBe("");
    expect(io.err()).toBe("seam: missing.json: no such file or folder (check the path)\n");
  });

  it("escapes the file's own text that the JSON parser quotes in its error", async () => {
    const dir = makeTempDir("validate");
    writeFileSync(join(dir, "esc.json"), '{"a":\u001b[31m}');
    const io = createFakeIo(casesDir);
    const code = await validateCommand({ envelopes: [join(dir, "esc.json")], graph: "graph.seam", as: "billing", format: "pretty" }, io);
    expect(code).toBe(2);
    expect(io.err()).toBe(`seam: ${join(dir, "esc.json")}:1:6: is not valid JSON: expected a value, found '\\u001b' (fix the file)\n`);
  });

  it("exits 2 on a file that is not JSON or cannot be read, and still checks the others", async () => {
    const dir = makeTempDir("validate");
    writeFileSync(join(dir, "broken.json"), "\uFEFF{\n  not json");
    const io = createFakeIo(casesDir);
    const code = await validateCommand(
      { envelopes: [join(dir, "broken.json"), "missing.json", "valid-delegate.json"], graph: "graph.seam", as: "billing", format: "json" },
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toContain(`seam: ${join(dir, "broken.json")}:2:3: is not valid JSON: expected a key in double quotes or '}', found 'n' (fix the file)\n`);
    expect(io.err()).toMatch(/seam: missing\.json: no such file or folder/);
    expect((JSON.parse(io.out()) as ValidateVerdict[]).map((v) => v.file)).toEqual(["valid-delegate.json"]);
  });

  it("exits 2 on a graph with errors, an unreadable graph, or an unknown --as agent", async () => {
    const dir = makeTempDir("validate");
    writeFileSync(join(dir, "bad.seam"), "graph g { entry nobody agent a: worker }");
    const io = createFakeIo(dir);
    expect(await validateCommand({ envelopes: [], graph: "bad.seam", as: "a", format: "json" }, io)).toBe(2);
    expect(io.err()).toMatch(/the graph has errors/);
    const missing = createFakeIo(dir);
    expect(await validateCommand({ envelopes: [], graph: "nope.seam", as: "a", format: "json" }, missing)).toBe(2);
    const stranger = createFakeIo(casesDir);
    expect(await validateCommand({ envelopes: ["valid-delegate.json"], graph: "graph.seam", as: "ghost", format: "json" }, stranger)).toBe(2);
    expect(stranger.err()).toMatch(/has no agent 'ghost'/);
  });
});

describe("seam validate --name", () => {
  const twoGraphs = (): string => {
    const dir = makeTempDir("validate");
    const refundDesk = readFileSync(join(casesDir, "graph.seam"), "utf8");
    // The refund desk second, so that taking the first graph would be visibly wrong.
    writeFileSync(join(dir, "two.seam"), `graph other {\n  entry a\n  agent a: peer { terminal done }\n}\n${refundDesk.replace("seam 1\n", "")}`);
    return join(dir, "two.seam");
  };
  const validate = async (argv: string[]) => {
    const io = createFakeIo(casesDir);
    const code = await run(["validate", "valid-delegate.json", ...argv], io);
    return { code, out: io.out(), err: io.err() };
  };

  it("is required when the file holds several graphs: exit 2, listing their names", async () => {
    const graph = twoGraphs();
    const r = await validate(["--graph", graph, "--as", "*"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`seam: ${graph}: holds 2 graphs (other, refund_desk) (pick one with --name <graph>)\n`);
    const byAgent = await validate(["--graph", graph, "--as", "billing"]);
    expect(byAgent.code).toBe(2);
    expect(byAgent.err).toContain("pick one with --name <graph>");
  });

  it("picks the graph named, and checks --as against it", async () => {
    const graph = twoGraphs();
    const named = await validate(["--graph", graph, "--name", "refund_desk", "--as", "billing", "--format", "json"]);
    expect(named.err).toBe("");
    expect(named.code).toBe(0);
    expect((JSON.parse(named.out) as ValidateVerdict[]).map((v) => v.ok)).toEqual([true]);
    const other = await validate(["--graph", graph, "--name", "other", "--as", "billing"]);
    expect(other.code).toBe(2);
    expect(other.err).toBe(`seam: ${graph}: graph other has no agent 'billing' (pass --as one of: a, or '*')\n`);
  });

  it("exits 2 naming the graphs the file holds when --name names none of them", async () => {
    const graph = twoGraphs();
    const r = await validate(["--graph", graph, "--name", "third", "--as", "*"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`seam: ${graph}: no graph named 'third' (the file holds: other, refund_desk)\n`);
  });
});
