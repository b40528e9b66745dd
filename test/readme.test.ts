/**
 * The README is part of the product: its language example must be clean and its runtime snippet
 * must run against the module compiled from that example. (Every other sample, in the README and
 * in docs/, is run or type-checked by test/docs/samples.test.ts.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkText } from "../src/analysis/check.js";
import { emitCompileOutput } from "../src/emit/compile-output.js";
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

  it("lists every rejection route accept() can give", () => {
    for (const route of ["repair", "escalate", "failed", "discard"]) expect(codeBlock("js")).toContain(`"${route}"`);
  });

  it("never leaves an npm pack tarball in the checkout: the command packs beside it and git ignores *.tgz", () => {
    expect(readme).toContain("npm pack --pack-destination ..");
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain("*.tgz");
  });
});
