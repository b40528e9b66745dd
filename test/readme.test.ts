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

  const runtimePage = readFileSync(join(root, "docs/runtime-js.md"), "utf8");
  const snippets = {
    "README.md": codeBlock("js"),
    "docs/runtime-js.md": /```js\n([\s\S]*?)```/.exec(runtimePage.slice(runtimePage.indexOf("## `accept`")))?.[1] ?? "",
  };
  const template = JSON.parse(readFileSync(join(root, "test/fixtures/cases/envelopes/valid-delegate.json"), "utf8")) as Record<string, unknown> & {
    hop: Record<string, unknown>;
  };
  const { constraints: _, ...withoutConstraints } = template;
  const cases = [
    ["a valid delegate", template, ["queued: proceed"]],
    ["a delegate without its constraints", withoutConstraints, ['rejected: repair: required missing required field "constraints"']],
  ] as const;

  it.each(Object.keys(snippets).flatMap((page) => cases.map(([name, envelope, outcomes]) => [page, name, envelope, outcomes] as const)))(
    "%s: the accept snippet runs against the module compiled from the README's graph, given %s",
    async (page, name, envelope, outcomes) => {
      const { graphs } = checkText("README.seam", codeBlock("seam"));
      mkdirSync(join(dir, "out"), { recursive: true });
      for (const file of emitCompileOutput(graphs)) writeFileSync(join(dir, "out", file.path), file.content);
      const [importLine, ...rest] = snippets[page as keyof typeof snippets].split("\n");
      expect(importLine).toMatch(/^import .* from "\.\/out\/refund_desk\.validators\.mjs";$/);
      const prelude = [
        `const template = ${JSON.stringify(envelope)};`,
        "const body = JSON.stringify({ ...template, hop: { ...template.hop, limit: hopLimit } });",
        "const producerId = template.from_agent.id;",
        "const artefactStore = { canRead: () => true };",
        "export const outcomes = [];",
        "const queue = (route) => outcomes.push(`queued: ${route}`);",
        "const reject = (rejection) => outcomes.push(`rejected: ${rejection.route}: ${rejection.reasons.map((r) => `${r.rule} ${r.message}`).join('; ')}`);",
      ];
      const script = join(dir, `snippet-${page.replace(/\W/g, "_")}-${name.replace(/\W/g, "_")}.mjs`);
      writeFileSync(script, [importLine, ...prelude, ...rest].join("\n"));
      const result = (await import(pathToFileURL(script).href)) as { outcomes: string[] };
      expect(result.outcomes).toEqual(outcomes);
    },
  );

  it("lists every rejection route accept() can give", () => {
    for (const route of ["repair", "escalate", "failed", "discard"]) expect(codeBlock("js")).toContain(`"${route}"`);
  });

  it("never leaves an npm pack tarball in the checkout: the command packs beside it and git ignores *.tgz", () => {
    expect(readme).toContain("npm pack --pack-destination ..");
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain("*.tgz");
  });
});
