/**
 * A consumer TypeScript project type-checks against a compiled validator module and
 * `seam-handoff/runtime` under each module resolution mode users have (NodeNext, Bundler,
 * Node10), with no manual step: the `.d.mts` beside the `.mjs`, the package's `exports` and its
 * `typesVersions` do it all.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { ensureBuilt } from "../global-setup.js";
import { checkedGraph, makeTempDir, projectRoot, removeTempDirs } from "./helpers.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const CONSUMER = `
import {
  accept,
  acceptAsync,
  createMemorySeenStore,
  firstEnvelope,
  hopLimit,
  nextEnvelope,
  type AgentId,
  type Envelope,
} from "./out/help_desk.validators.mjs";
import type { AcceptResult, ClaimRequest, ClaimResult, AsyncSeenStore, Reason } from "seam-handoff/runtime";

const seen = createMemorySeenStore();
const limit: 14 = hopLimit;
const me: AgentId = "invoices";

const first: Envelope = firstEnvelope({
  me: "concierge",
  to: "invoices",
  taskId: "case-1",
  action: "read the customer's message",
  goal: { statement: "Explain the second invoice line", acceptance_criteria: ["each line matched"] },
  budget: { consumed: { tokens: 0 }, limit: { tokens: 60000 } },
  constraints: ["read only"],
});
const verdict: AcceptResult = accept(first, { me, seen });
if (verdict.ok) {
  const route: "proceed" | "human_input" | "approval" | "failed" | "held" = verdict.record.route;
  const next: Envelope = nextEnvelope(first, { me: "invoices", to: "diagnostics", action: "found a fault", status: "ready" });
  void route;
  void next;
} else {
  const reasons: readonly Reason[] = verdict.rejection.reasons;
  void reasons;
}

const remote: AsyncSeenStore = {
  async claim(request: ClaimRequest): Promise<ClaimResult> {
    return request.verdict === "accepted" ? { outcome: "claimed" } : { outcome: "noted" };
  },
};
void acceptAsync(first, { me: "invoices", seen: remote, canRead: async () => true });

// @ts-expect-error: invoices has no edge to shipping
nextEnvelope(first, { me: "invoices", to: "shipping", action: "x" });
// @ts-expect-error: invoices is not an entry agent
firstEnvelope({ me: "invoices", to: "concierge", taskId: "t", action: "x", goal: first.goal, budget: first.budget });
// @ts-expect-error: no such agent
accept(first, { me: "nobody" });
// @ts-expect-error: an asynchronous store needs acceptAsync
accept(first, { me, seen: remote });
void limit;
`;

const MODES = [
  { name: "NodeNext", compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } },
  { name: "Bundler", compilerOptions: { module: "ESNext", moduleResolution: "Bundler" } },
  { name: "Node10", compilerOptions: { module: "ESNext", moduleResolution: "Node10" } },
] as const;

let project = "";

/** What `tsc -p config` prints (nothing when the project type-checks). */
function typeCheck(config: string): string {
  try {
    execFileSync(process.execPath, [tsc, "-p", config], { cwd: project, encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

beforeAll(() => {
  ensureBuilt();
  // Inside the package (under .tmp/), so `seam-handoff` resolves to this checkout as it would from node_modules.
  project = makeTempDir("consumer");
  const graph = checkedGraph(readFileSync(join(projectRoot, "conformance", "help-desk", "graph.seam"), "utf8"));
  mkdirSync(join(project, "out"));
  for (const file of emitCompileOutput([graph])) writeFileSync(join(project, "out", file.path), file.content);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(join(project, "consumer.ts"), CONSUMER);
}, 120_000);

afterAll(removeTempDirs);

describe("a consumer project type-checks against a compiled module", () => {
  it.each(MODES)("under moduleResolution $name", ({ name, compilerOptions }) => {
    const config = join(project, `tsconfig.${name}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: { ...compilerOptions, target: "ES2022", strict: true, noEmit: true, skipLibCheck: false, types: [] },
        files: ["consumer.ts"],
      }),
    );
    expect(typeCheck(config)).toBe("");
  });

  it("fails when a type is wrong (the check is not vacuous)", () => {
    writeFileSync(join(project, "wrong.ts"), `import { hopLimit } from "./out/help_desk.validators.mjs";\nconst n: 15 = hopLimit;\nvoid n;\n`);
    const config = join(project, "tsconfig.wrong.json");
    writeFileSync(config, JSON.stringify({ compilerOptions: { ...MODES[0].compilerOptions, strict: true, noEmit: true, types: [] }, files: ["wrong.ts"] }));
    expect(typeCheck(config)).toContain("error TS2322: Type '14' is not assignable to type '15'.");
  });
});
