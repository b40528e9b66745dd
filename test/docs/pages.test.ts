/**
 * Facts the docs pages state that the code also knows: they are compared, so a page cannot drift
 * from the rule catalogue, the envelope schema or the CLI's output.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ruleCatalog } from "../../src/analysis/rules/index.js";
import { ENVELOPE_MINOR_VERSIONS, envelopeSchema } from "../../src/core/envelope-schema.js";
import { createSchemaAjv } from "../../src/emit/schema-compiler.js";
import { envelopeFields, fieldRow } from "./envelope-fields.js";

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
    const added = ENVELOPE_MINOR_VERSIONS.flatMap((v) => v.adds);
    const row = /^\| `1\.3` \(the default\) \| (.*) \|$/m.exec(page);
    expect(row?.[1]?.match(/`[^`]+`/g)?.map((f) => f.slice(1, -1))).toEqual(added);
  });

  it("shows a minimal envelope that is valid and holds exactly the fields the schema requires", () => {
    const text = /```json envelope\n([\s\S]*?)```/.exec(page)?.[1];
    const envelope = JSON.parse(text as string) as Record<string, unknown>;
    const validate = createSchemaAjv().compile(envelopeSchema);
    expect(validate(envelope), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(envelope)).toEqual(envelopeSchema["required"]);
  });
});
