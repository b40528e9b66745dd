// A redis-server for the bench: Debian's, on a free loopback port with its own temporary data
// folder and the append-only file on (`appendfsync everysec`, the usual production setting; the
// tests use `always`), stopped by PID.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = "/usr/bin/redis-server";
/** Debian's redis-benchmark (package redis-tools, which redis-server depends on). */
export const REDIS_BENCHMARK = "/usr/bin/redis-benchmark";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server; resolves with `{ url, port, stop() }`, or `undefined` when it is not installed. */
export async function startRedis() {
  if (!existsSync(REDIS_SERVER)) return undefined;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "seam-bench-redis-"));
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
