/**
 * The README is part of the product: its language example must be clean and its runtime snippet
 * must run against the module compiled from that example.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONTRACTS } from "../src/analysis/bind.js";
import { checkText } from "../src/analysis/check.js";
import { ruleCatalog } from "../src/analysis/rules/index.js";
import { run } from "../src/cli/run.js";
import { ENVELOPE_MINOR_VERSIONS } from "../src/core/envelope-schema.js";
import { emitCompileOutput } from "../src/emit/compile-output.js";
import { createFakeIo } from "./cli/fake-io.js";
import { ensureBuilt } from "./global-setup.js";

const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

function codeBlock(language: string): string {
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(readme);
  if (match?.[1] === undefined) throw new Error(`README has no \`\`\`${language} block`);
  return match[1];
}

describe("README", () => {
  let dir = "";
  beforeAll(() => {
    ensureBuilt();
    mkdirSync(join(root, ".tmp"), { recursive: true });
    dir = mkdtempSync(join(root, ".tmp", "readme-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has a language example that checks clean", () => {
    const result = checkText("README.seam", codeBlock("seam"));
    expect(result.diagnostics.map((d) => `${d.rule}: ${d.message}`)).toEqual([]);
  });

  it("has a runtime snippet that runs against the module compiled from that example", async () => {
    const { graphs } = checkText("README.seam", codeBlock("seam"));
    mkdirSync(join(dir, "out"));
    for (const file of emitCompileOutput(graphs)) writeFileSync(join(dir, "out", file.path), file.content);

    const [importLine, ...rest] = codeBlock("js").split("\n");
    const envelope = JSON.parse(readFileSync(join(root, "test/fixtures/cases/envelopes/valid-delegate.json"), "utf8")) as {
      hop: Record<string, unknown>;
    };
    const prelude = [
      `const template = ${JSON.stringify(envelope)};`,
      "const body = JSON.stringify({ ...template, hop: { ...template.hop, limit: hopLimit } });",
      "const artefactStore = { canRead: () => true };",
      "export const outcomes = [];",
      "const queue = (route) => outcomes.push(`queued: ${route}`);",
      "const reject = (rejection) => outcomes.push(`rejected: ${rejection.reasons.map((r) => `${r.rule} ${r.message}`).join('; ')}`);",
    ];
    const script = join(dir, "snippet.mjs");
    writeFileSync(script, [importLine, ...prelude, ...rest].join("\n"));
    const { outcomes } = (await import(pathToFileURL(script).href)) as { outcomes: string[] };
    expect(outcomes).toEqual(["queued: proceed"]);
  });

  it("shows `seam check` output exactly as the CLI prints it, summary line included", async () => {
    const block = /```\n\$ npx seam check ([^\n]+)\n([\s\S]*?)```/.exec(readme);
    if (block === null) throw new Error("README has no `$ npx seam check` sample");
    const io = createFakeIo(root);
    const code = await run(["check", ...(block[1] as string).split(" ")], io);
    expect(code).toBe(1);
    expect(io.out()).toBe(block[2]);
  });

  it("lists each edge kind's default required fields as the checker applies them", () => {
    for (const [kind, fields] of Object.entries(DEFAULT_CONTRACTS)) {
      const row = new RegExp(`^\\| \`${kind}\` \\|[^|]*\\| (.*) \\|$`, "m").exec(readme);
      const shown = (row?.[1] ?? "").match(/`[^`]+`/g)?.map((f) => f.slice(1, -1));
      expect(shown).toEqual([...fields]);
    }
  });

  it("lists the fields each envelope version adds", () => {
    const added = ENVELOPE_MINOR_VERSIONS.flatMap((v) => v.adds);
    const row = /^\| `1\.3` \(the default\) \| (.*) \|$/m.exec(readme);
    expect(row?.[1]?.match(/`[^`]+`/g)?.map((f) => f.slice(1, -1))).toEqual(added);
  });

  it("lists every rule of `seam check` in its rule table, at its default severity", () => {
    const rows = new Map<string, string>();
    for (const [, ids, severity] of readme.matchAll(/^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \| ([a-z /]+) \|/gm)) {
      for (const id of (ids as string).matchAll(/`([a-z-]+)`/g)) rows.set(id[1] as string, severity as string);
    }
    for (const meta of ruleCatalog) {
      expect([meta.id, rows.get(meta.id)?.split(" / ").includes(meta.severity)]).toEqual([meta.id, true]);
    }
  });

  it("lists every rejection route accept() can give", () => {
    for (const route of ["repair", "escalate", "failed", "discard"]) expect(codeBlock("js")).toContain(`"${route}"`);
  });

  it("never leaves an npm pack tarball in the checkout: the command packs beside it and git ignores *.tgz", () => {
    expect(readme).toContain("npm pack --pack-destination ..");
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain("*.tgz");
  });
});
