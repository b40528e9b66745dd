/**
 * Facts the docs pages state that the code also knows: they are compared, so a page cannot drift
 * from the rule catalogue, the envelope schema or the CLI's output.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { ruleCatalog } from "../../src/analysis/rules/index.js";
import { ENVELOPE_MINOR_VERSIONS, envelopeSchema } from "../../src/core/envelope-schema.js";
import { emitPythonModule } from "../../src/emit/python/python-module.js";
import { createSchemaAjv } from "../../src/emit/schema-compiler.js";
import { SEMANTIC_RULES } from "../../src/runtime/reason.js";
import { python } from "../emit/python/python.js";
import { envelopeFields, fieldRow } from "./envelope-fields.js";
import { codeBlocks } from "./markdown.js";

const read = (path: string): string => readFileSync(new URL(`../../docs/${path}`, import.meta.url), "utf8");

describe("docs/cli.md", () => {
  const page = read("cli.md");

  it("lists every rule of `seam check` in its rule table, at its default severity, linked to its page", () => {
    const rows = new Map<string, string>();
    for (const [, ids, severity] of page.matchAll(/^\| ((?:\[`[a-z-]+`\]\(rules\/[a-z-]+\.md\)(?:, )?)+) \| ([a-z /]+) \|/gm)) {
      for (const id of (ids as string).matchAll(/\[`([a-z-]+)`\]\(rules\/([a-z-]+)\.md\)/g)) {
        expect(id[2]).toBe(id[1]);
        rows.set(id[1] as string, severity as string);
      }
    }
    for (const meta of ruleCatalog) {
      expect([meta.id, rows.get(meta.id)?.split(" / ").includes(meta.severity)]).toEqual([meta.id, true]);
    }
    expect([...rows.keys()].sort()).toEqual(ruleCatalog.map((r) => r.id).sort());
  });
});

describe("docs/envelope.md", () => {
  const page = read("envelope.md");

  it("has one row for every field of the envelope schema, with its type, whether it is required and its description", () => {
    const shown = page.split("\n").filter((line) => /^\| `[a-z_.[\]]+` \|/.test(line));
    expect(shown).toEqual(envelopeFields().map(fieldRow));
  });

  it("lists the fields each envelope version adds", () => {
    for (const version of ENVELOPE_MINOR_VERSIONS.filter((v) => v.adds.length > 0)) {
      const row = new RegExp(`^\\| \`1\\.${version.minor}\`[^|]* \\| (.*) \\|$`, "m").exec(page);
      expect(row?.[1]?.match(/`[^`]+`/g)?.map((f) => f.slice(1, -1)).filter((f) => version.adds.includes(f))).toEqual(version.adds);
    }
  });

  it("shows a minimal envelope that is valid and holds exactly the fields the schema requires", () => {
    const text = /```json envelope\n([\s\S]*?)```/.exec(page)?.[1];
    const envelope = JSON.parse(text as string) as Record<string, unknown>;
    const validate = createSchemaAjv().compile(envelopeSchema);
    expect(validate(envelope), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(envelope)).toEqual(envelopeSchema["required"]);
  });
});

describe("docs/runtime-js.md", () => {
  const page = read("runtime-js.md");

  it("explains every rule id of an ingest reason beyond the schema keywords, and no other", () => {
    const section = page.slice(page.indexOf("\n## Reasons\n"), page.indexOf("\n## ", page.indexOf("\n## Reasons\n") + 1));
    const shown = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(shown.sort()).toEqual(Object.keys(SEMANTIC_RULES).sort());
  });
});

describe.skipIf(python === undefined && process.env["CI"] !== "true")("docs/python.md", () => {
  it("names in its table of exports only what a compiled module exports", () => {
    const page = read("python.md");
    const table = page.slice(page.indexOf("## The module"), page.indexOf("\n## ", page.indexOf("## The module") + 1));
    const named = [...table.matchAll(/^\| (.*?) \|/gm)].flatMap((m) => [...(m[1] as string).matchAll(/`([A-Za-z_]+)/g)].map((n) => n[1] as string));
    expect(named.length).toBeGreaterThan(10);
    const readme = codeBlocks("README.md").find((b) => b.lang === "seam")?.text ?? "";
    const dir = mkdtempSync(join(tmpdir(), "seam-py-exports-"));
    try {
      writeFileSync(join(dir, "refund_desk_validators.py"), emitPythonModule(checkText("README.seam", readme).graphs[0] as CheckedGraph, { text: readme }));
      const script = "import json, sys; sys.path.insert(0, sys.argv[1]); import refund_desk_validators as m; print(json.dumps(dir(m)))";
      const result = spawnSync(python ?? "python3", ["-c", script, dir], { encoding: "utf8" });
      expect(result.stderr).toBe("");
      const exported = JSON.parse(result.stdout) as string[];
      // `validate_KIND__FROM__TO` stands for one validator per edge, `KindEnvelope__FROM__TO` for its TypedDict.
      const missing = named.filter((n) => !exported.includes(n) && !/^(validate_KIND|KindEnvelope)__FROM__TO$/.test(n));
      expect(missing).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("install commands", () => {
  const pages = ["README.md", ...readdirSync(new URL("../../docs/", import.meta.url)).filter((name) => name.endsWith(".md"))];
  const text = (page: string): string => readFileSync(new URL(page === "README.md" ? "../../README.md" : `../../docs/${page}`, import.meta.url), "utf8");
  const pyproject = readFileSync(new URL("../../python/pyproject.toml", import.meta.url), "utf8");
  const extras = new Set([...(pyproject.split("[project.optional-dependencies]")[1] ?? "").split("\n[")[0]!.matchAll(/^([a-z-]+) = /gm)].map((m) => m[1]));

  it("install seam-handoff the way it can be had before it is published: ./python and the npm pack tarball", () => {
    const byName: string[] = [];
    for (const page of pages) {
      for (const [line] of text(page).matchAll(/^.*\b(?:pip|npm) install .*$/gm)) {
        if (/\b(?:pip|npm) install\s+(?:'|")?seam-handoff\b/.test(line)) byName.push(`${page}: ${line.trim()}`);
      }
    }
    expect(byName).toEqual([]);
  });

  it("name only extras python/pyproject.toml declares", () => {
    expect([...extras].sort()).toEqual(["crewai", "langgraph", "openai-agents", "otel", "pydantic", "redis"]);
    const named: string[] = [];
    for (const page of pages) {
      for (const [, list] of text(page).matchAll(/pip install '\.\/python\[([a-z,-]+)\]'/g)) named.push(...(list as string).split(","));
    }
    expect(named.filter((extra) => !extras.has(extra))).toEqual([]);
    expect(new Set(named)).toEqual(extras);
  });
});
