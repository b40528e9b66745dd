import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import AjvDraft04Module from "ajv-draft-04";
import ajvFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { ruleCatalog } from "../../../src/analysis/rules/index.js";
import { FINGERPRINT_KEY, toSarif } from "../../../src/cli/format/sarif.js";
import type { Diagnostic } from "../../../src/core/diagnostic.js";

const schema = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url)), "utf8")) as object;
// Both packages are CommonJS with `exports.default`; from ES modules the class is on `.default`.
const { default: AjvDraft04 } = AjvDraft04Module;
const { default: addFormats } = ajvFormatsModule;
const ajv = new AjvDraft04({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

const cwd = "/repo";
const options = { cwd, rules: ruleCatalog, version: "9.9.9" };

const faulty = [
  "graph desk {",
  "  entry triage",
  "  agent triage: peer",
  "  agent billing: peer",
  "  agent spare: peer {",
  "    terminal done",
  "  }",
  "  transfer triage -> billing",
  "  transfer billing -> triage",
  "  transfer triage -> biling",
  "}",
  "",
].join("\n");

function diagnosticsOf(text: string, path = "/repo/graphs/desk folder/desk.seam"): readonly Diagnostic[] {
  return checkText(path, text).diagnostics;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> } }[];
  partialFingerprints: Record<string, string>;
}
interface SarifLog {
  runs: { tool: { driver: { name: string; version: string; rules: { id: string; defaultConfiguration: { level: string }; help: { text: string } }[] } }; results: SarifResult[] }[];
}

describe("toSarif", () => {
  const diagnostics = diagnosticsOf(faulty);
  const log = toSarif(diagnostics, options) as unknown as SarifLog;
  const run = log.runs[0];

  it("is valid against the OASIS SARIF 2.1.0 schema", () => {
    expect(diagnostics.length).toBeGreaterThan(2);
    const valid = validateSarif(log);
    expect(validateSarif.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const broken = JSON.parse(JSON.stringify(log)) as { runs: { results: { level: string }[] }[] };
    const first = broken.runs[0]?.results[0];
    if (first) first.level = "fatal";
    expect(validateSarif(broken)).toBe(false);
  });

  it("is valid with no results, and with a syntax error", () => {
    expect(validateSarif(toSarif([], options))).toBe(true);
    expect(validateSarif(toSarif(diagnosticsOf("graph g {\n  agent a supervisor\n"), options))).toBe(true);
  });

  it("lists every rule of the catalogue with its default level", () => {
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual(ruleCatalog.map((r) => r.id));
    const level = { error: "error", warning: "warning", info: "note" } as const;
    ruleCatalog.forEach((meta, i) => {
      expect(rules[i]?.defaultConfiguration.level).toBe(level[meta.severity]);
      expect(rules[i]?.help.text).toContain(meta.description);
    });
    expect(run?.tool.driver).toMatchObject({ name: "seam", version: "9.9.9" });
  });

  it("gives each result its rule index, level, message and a relative, percent-encoded location", () => {
    const unknown = run?.results.find((r) => r.ruleId === "unknown-agent");
    expect(unknown).toBeDefined();
    expect(run?.tool.driver.rules[unknown?.ruleIndex ?? -1]?.id).toBe("unknown-agent");
    expect(unknown?.level).toBe("error");
    expect(unknown?.message.text).toContain("biling");
    expect(unknown?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: "graphs/desk%20folder/desk.seam", uriBaseId: "%SRCROOT%" },
      region: { startLine: 10, startColumn: 22, endLine: 10, endColumn: 28 },
    });
    expect(run?.results.find((r) => r.ruleId === "unreachable-agent")?.level).toBe("warning");
  });

  it("gives a file outside the working folder an absolute file: URI without uriBaseId", () => {
    const outside = toSarif(diagnosticsOf(faulty, "/elsewhere/my graphs/desk.seam"), options) as unknown as SarifLog;
    const location = outside.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation;
    expect(location).toEqual({ uri: "file:///elsewhere/my%20graphs/desk.seam" });
    expect(validateSarif(outside)).toBe(true);
    const sibling = toSarif(diagnosticsOf(faulty, "/repository/desk.seam"), options) as unknown as SarifLog; // shares a prefix with /repo
    expect(sibling.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation).toEqual({ uri: "file:///repository/desk.seam" });
    const inside = toSarif(diagnosticsOf(faulty, "/repo/..x/desk.seam"), options) as unknown as SarifLog;
    expect(inside.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation).toEqual({ uri: "..x/desk.seam", uriBaseId: "%SRCROOT%" });
  });

  it("keeps fingerprints when unrelated lines are inserted above, and changes them when the finding changes", () => {
    const fingerprints = (text: string): Map<string, string> =>
      new Map(
        (toSarif(diagnosticsOf(text), options) as unknown as SarifLog).runs[0]?.results.map((r) => [
          `${r.ruleId} ${r.message.text}`,
          r.partialFingerprints[FINGERPRINT_KEY] ?? "",
        ]),
      );
    const before = fingerprints(faulty);
    const shifted = faulty.replace("graph desk {\n", "// a new comment\n\n// and another\ngraph desk {\n");
    const after = fingerprints(shifted);
    expect(before.size).toBeGreaterThan(2);
    expect(after).toEqual(before);
    const lines = (toSarif(diagnosticsOf(shifted), options) as unknown as SarifLog).runs[0]?.results.map(
      (r) => r.locations[0]?.physicalLocation.region["startLine"],
    );
    expect(lines).not.toContain(1);

    const renamed = fingerprints(faulty.replace("-> biling", "-> bilingg"));
    const key = [...renamed.keys()].find((k) => k.startsWith("unknown-agent")) ?? "";
    expect([...before.values()]).not.toContain(renamed.get(key));
  });

  it("tells identical findings apart by occurrence", () => {
    const twice = faulty.replace("  transfer triage -> biling\n", "  transfer triage -> biling\n  transfer triage -> biling\n");
    const results = (toSarif(diagnosticsOf(twice), options) as unknown as SarifLog).runs[0]?.results ?? [];
    const prints = results.filter((r) => r.ruleId === "unknown-agent").map((r) => r.partialFingerprints[FINGERPRINT_KEY] ?? "");
    expect(prints.length).toBe(2);
    expect(prints[0]?.split(":")[0]).toBe(prints[1]?.split(":")[0]);
    expect(new Set(prints).size).toBe(2);
  });
});

describe("SARIF rule help", () => {
  it("links every rule to its page in the docs shipped with Seam, and names no web site", () => {
    const log = toSarif([], options) as { runs: { tool: { driver: { informationUri?: string; rules: { id: string; helpUri: string }[] } } }[] };
    const driver = log.runs[0]!.tool.driver;
    expect(driver.informationUri).toBeUndefined();
    for (const rule of driver.rules) {
      expect(rule.helpUri).toBe(new URL(`../../../docs/rules/${rule.id}.md`, import.meta.url).href);
      expect(existsSync(fileURLToPath(rule.helpUri))).toBe(true);
    }
  });
});
