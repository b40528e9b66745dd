// The envelopes the runtime, ingest and diff sections measure, made by the compiled module's own
// builders (firstEnvelope / nextEnvelope, src/runtime/envelope-builder.ts) from the content in
// bench/fixtures/handoff.json, on bench/fixtures/graph.seam: intake delegates a vendor security
// review to the scanner (hop 1), the scanner hands its findings to the reporter (hop 2). A rule
// change that makes the builders' envelopes refused stops these sections, loudly.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const COMPILED = fileURLToPath(new URL("./.out/compiled/", import.meta.url));
const CONTENT = JSON.parse(readFileSync(new URL("./fixtures/handoff.json", import.meta.url), "utf8"));
/** A fixed provenance clock (ms since the epoch), so every run builds the same bytes. */
const AT = Date.UTC(2026, 2, 11, 8, 40, 19);

/** The agent that receives the hop-2 envelopes. */
export const RECEIVER = CONTENT.next.to;
/** The agent that receives the hop-1 envelopes. */
export const FIRST_RECEIVER = CONTENT.first.to;

/** Compiles the fixture graph with the CLI and imports the emitted validator module. */
export async function loadCompiledModule() {
  rmSync(COMPILED, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ["bin/seam.js", "compile", "bench/fixtures/graph.seam", "--out", COMPILED], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seam compile exited ${result.status}:\n${result.stderr}`);
  const modules = readdirSync(COMPILED, { recursive: true }).filter((f) => /\.m?js$/.test(f));
  for (const file of modules) {
    const module = await import(pathToFileURL(`${COMPILED}${file}`).href);
    if (["accept", "firstEnvelope", "nextEnvelope", "loopSignature"].every((name) => typeof module[name] === "function")) return module;
  }
  throw new Error(`seam compile emitted no module exporting accept, firstEnvelope, nextEnvelope and loopSignature (${modules.join(", ")})`);
}

const uuid = (prefix, i) => `${prefix}-${i.toString(16).padStart(12, "0")}`;

/**
 * `count` tasks of two hops each, every envelope with its own handoff_id and every task its own
 * task_id: `first[i]` (intake -> scanner, hop 1) and `next[i]` (scanner -> reporter, hop 2).
 * @param {object} compiled - the module of {@link loadCompiledModule}
 * @param {number} count
 * @param {number} [offset] - number of the first task, so that separate pools never share ids (default 0)
 */
export function makeHandoffs(compiled, count, offset = 0) {
  const first = [];
  const next = [];
  const now = () => AT;
  for (let i = offset; i < offset + count; i++) {
    const opening = compiled.firstEnvelope({ ...CONTENT.first, taskId: `vsr-2026-03-${i}`, handoffId: uuid("a3d9e7c2-51f0-4b8e-8d26", i), now });
    first.push(opening);
    next.push(compiled.nextEnvelope(opening, { ...CONTENT.next, handoffId: uuid("c4e0f8d3-62a1-4c9f-9e37", i), now }));
  }
  return { first, next };
}
