import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { ENVELOPE_VERSION } from "../../src/core/envelope-schema.js";
import { ruleCatalog } from "../../src/analysis/rules/index.js";
import { RUNTIME_RULES } from "../../src/runtime/reason-catalogue.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { EDGE_KIND_TABLE, EDGE_KINDS, KEYWORDS } from "../../src/core/vocabulary.js";
import { formatSource } from "../../src/parser/print.js";

const docs = new URL("../../docs/", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, docs), "utf8");

/** The ```seam blocks of a page that follow `## <heading>`, in order. */
function seamBlock(page: string, heading: string): string | undefined {
  const section = page.split(/^## /m).find((s) => s.startsWith(heading));
  const match = section === undefined ? null : /```seam\n([\s\S]*?)```/.exec(section);
  return match?.[1];
}

/** Rules no small file can show: a crash, a document over the size limit, and the exact hop-limit and guard searches giving up on a large graph. */
const WITHOUT_EXAMPLE = new Set(["internal-error", "file-too-large", "hop-limit-approximate", "guards-unchecked"]);

describe("docs/ and the README", () => {
  it("state the envelope versions this Seam validates as it does", () => {
    const supported = `${ENVELOPE_VERSION.major}.0 to ${ENVELOPE_VERSION.major}.${ENVELOPE_VERSION.minor}`;
    const pages = [
      ["README.md", readFileSync(new URL("../../README.md", import.meta.url), "utf8")],
      ...readdirSync(docs, { recursive: true, encoding: "utf8" })
        .filter((path) => path.endsWith(".md"))
        .map((path) => [path, read(path)]),
    ];
    const stated = pages.flatMap(([path, text]) => [...(text as string).matchAll(/\b1\.0 to 1\.\d+\b/g)].map((m) => `${path as string}: ${m[0]}`));
    expect(stated.length).toBeGreaterThan(2);
    expect(stated.filter((line) => !line.endsWith(`: ${supported}`))).toEqual([]);
  });
});

describe("docs/rules/: one page per rule", () => {
  const pages = readdirSync(new URL("rules/", docs)).filter((f) => f.endsWith(".md"));

  // Ingest reasons that seam check does not also report (role-mismatch is both) may have a page.
  const runtimePages = pages.map((p) => p.replace(/\.md$/, "")).filter((id) => Object.hasOwn(RUNTIME_RULES, id) && !ruleCatalog.some((r) => r.id === id));

  it("has a page for every rule seam check reports, and none for a rule Seam does not have (check or ingest)", () => {
    expect(pages.map((p) => p.replace(/\.md$/, "")).filter((id) => !runtimePages.includes(id)).sort()).toEqual(ruleCatalog.map((r) => r.id).sort());
    for (const id of ["guard-unmet", "confidence-below-floor", "approval-pending"]) expect(runtimePages).toContain(id);
  });

  it.each(runtimePages)("%s (an ingest reason): says what it finds and why, and its graph checks clean", (id) => {
    const page = read(`rules/${id}.md`);
    expect(page.startsWith(`# \`${id}\`\n\nIngest reason of \`accept()\``)).toBe(true);
    for (const heading of ["What it finds", "Why it matters", "Example", "Fix"]) expect(page).toContain(`\n## ${heading}\n`);
    const graph = seamBlock(page, "Example");
    expect(graph, "an example graph").toBeDefined();
    expect(checkText(`${id}.seam`, graph as string).diagnostics).toEqual([]);
    for (const message of page.matchAll(/"rule": "([a-z-]+)"/g)) expect(message[1]).toBe(id);
  });

  it.each(ruleCatalog.map((r) => [r.id, r] as const))("%s: says what it finds, why, its severity; its example fails and its fix is clean", (id, meta) => {
    const page = read(`rules/${id}.md`);
    expect(page.startsWith(`# \`${id}\`\n`)).toBe(true);
    expect(page).toContain(`Default severity: **${meta.severity}`);
    for (const heading of ["What it finds", "Why it matters"]) expect(page).toContain(`\n## ${heading}\n`);
    const failing = seamBlock(page, "Failing example");
    const fix = seamBlock(page, "Fix");
    if (WITHOUT_EXAMPLE.has(id)) {
      expect(failing).toBeUndefined();
      expect(page).toContain("\n## Notes\n");
      return;
    }
    expect(failing, "a failing example").toBeDefined();
    expect(fix, "a fix").toBeDefined();
    expect(checkText(`${id}.seam`, failing as string).diagnostics.map((d) => d.rule)).toContain(id);
    expect(checkText(`${id}-fix.seam`, fix as string).diagnostics).toEqual([]);
    const formatted = formatSource(createSourceFile("fix.seam", fix as string));
    expect(formatted.ok && formatted.changed).toBe(false);
  });
});

describe("docs/language.md", () => {
  const page = read("language.md");

  it("has examples that check clean and are formatted", () => {
    const blocks = [...page.matchAll(/```seam\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) {
      expect(checkText("example.seam", block).diagnostics).toEqual([]);
      const formatted = formatSource(createSourceFile("example.seam", block));
      expect(formatted.ok && formatted.changed).toBe(false);
    }
  });

  it("states the vocabulary: every keyword, and each edge kind's roles and default contract", () => {
    for (const word of KEYWORDS) expect(page).toContain(word);
    for (const kind of EDGE_KINDS) {
      const spec = EDGE_KIND_TABLE[kind];
      const row = page.split("\n").find((line) => line.startsWith(`| \`${kind}\` |`));
      expect(row).toBe(
        `| \`${kind}\` | ${spec.summary} | ${spec.from.join(", ")} | ${spec.to.join(", ")} | ${spec.defaultContract.map((p) => `\`${p}\``).join(", ")} |`,
      );
    }
  });
});
