/** Every `seam diff` finding id has its docs page and a row in the table of docs/diff/README.md. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findingCatalog, policyFindings } from "../../src/diff/findings/index.js";

const DOCS = new URL("../../docs/diff/", import.meta.url);
const CLASS_LABEL = {
  breaking: "breaking",
  "sender-first": "safe only if the sender deploys first",
  "receiver-first": "safe only if the receiver deploys first",
  safe: "safe in any order",
} as const;

describe("docs/diff", () => {
  const table = readFileSync(new URL("README.md", DOCS), "utf8");

  it.each(findingCatalog.map((meta) => [meta.id, meta] as const))("%s has a page and a row", (id, meta) => {
    const page = readFileSync(new URL(`${id}.md`, DOCS), "utf8");
    const label = policyFindings.includes(meta) ? "version policy" : CLASS_LABEL[meta.class];
    expect(page.startsWith(`# \`${id}\`\n\n${meta.description}\n`)).toBe(true);
    expect(page).toContain(`| ${label} | ${meta.severity} |`);
    expect(page).toContain(meta.effect);
    expect(table).toContain(`| [\`${id}\`](${id}.md) | ${label} | ${meta.severity} | ${meta.description} |`);
  });

  it("has no page for an id that does not exist", () => {
    const pages = readdirSync(DOCS).filter((name) => name !== "README.md").sort();
    expect(pages).toEqual(findingCatalog.map((meta) => `${meta.id}.md`).sort());
  });
});
