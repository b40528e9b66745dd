/**
 * The production ingest snippet of docs/production.md runs: against the module compiled from the
 * README's graph and a real Redis (Debian's redis-server; skipped with one line naming it when absent).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { ensureBuilt } from "../global-setup.js";
import { createRedisServer, redisAvailable, type RedisServer } from "../runtime/redis-server.js";

const root = join(import.meta.dirname, "..", "..");
const pages = { readme: readFileSync(join(root, "README.md"), "utf8"), production: readFileSync(join(root, "docs/production.md"), "utf8") };

/** The first code block of `language` in `page` that contains `marker` (the info string may go on after the language). */
function codeBlock(page: keyof typeof pages, language: string, marker: string): string {
  for (const match of pages[page].matchAll(new RegExp("```" + language + "(?: [^\\n]*)?\\n([\\s\\S]*?)```", "g"))) {
    if (match[1]?.includes(marker)) return match[1];
  }
  throw new Error(`${page} has no \`\`\`${language} block with ${marker}`);
}

describe.skipIf(!redisAvailable)("docs/production.md: production ingest", () => {
  let dir = "";
  let server: RedisServer;
  beforeAll(async () => {
    ensureBuilt();
    mkdirSync(join(root, ".tmp"), { recursive: true });
    dir = mkdtempSync(join(root, ".tmp", "readme-ingest-"));
    server = await createRedisServer();
    await server.start();
  }, 20_000);
  afterAll(async () => {
    await server?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("accepts a handoff once through the Redis store, logs each verdict, and retries later when Redis is down", async () => {
    const { graphs } = checkText("README.seam", codeBlock("readme", "seam", "graph"));
    mkdirSync(join(dir, "out"));
    for (const file of emitCompileOutput(graphs)) writeFileSync(join(dir, "out", file.path), file.content);
    const snippet = join(dir, "ingest.mjs");
    // The sample's names from the service around it: the producer the transport authenticated.
    const service = 'const producerId = "triage";\nclass BadRequest extends Error {}\nconst handled = [];\nasync function handle(record) { handled.push(record.handoff_id); }\n';
    writeFileSync(snippet, `${codeBlock("production", "js", "createRedisSeenStore")}\n${service}export { redis, handled };\n`);
    process.env["REDIS_URL"] = server.url;
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const module = (await import(pathToFileURL(snippet).href)) as {
        onHandoff(body: string, message: { timestamp: number; receiptHandle: string; retryLater(): string; ack(): string }): Promise<unknown>;
        redis: { destroy(): void };
        handled: string[];
      };
      // The fixture envelope, with the hop limit the README's graph declares.
      const template = JSON.parse(readFileSync(join(root, "test/fixtures/cases/envelopes/valid-delegate.json"), "utf8")) as { hop: object };
      const body = JSON.stringify({ ...template, hop: { ...template.hop, limit: graphs[0]?.hopLimit.value } });
      const message = { timestamp: Date.now() - 250, receiptHandle: "r-1", retryLater: () => "retry later", ack: () => "acked" };
      expect(await module.onHandoff(body, message)).toBe("acked");
      // Processed, committed: the redelivery is a duplicate.
      await module.onHandoff(body, { ...message, receiptHandle: "r-2" });
      expect(module.handled).toEqual(["0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39"]);
      const events = lines.filter((l) => l.startsWith('{"event":"seam.handoff"')).map((l) => JSON.parse(l) as { verdict: string; route: string });
      expect(events.map((e) => [e.verdict, e.route])).toEqual([
        ["accepted", "proceed"],
        ["duplicate", "discard"],
      ]);
      await server.stop();
      const other = body.replace("0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39", "1b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39");
      expect(await module.onHandoff(other, message)).toBe("retry later");
      module.redis.destroy();
    } finally {
      write.mockRestore();
    }
  }, 30_000);
});
