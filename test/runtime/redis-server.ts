/**
 * A real Redis for tests: Debian's `redis-server`, started on a free loopback port with the
 * append-only file on (claims must survive a restart), stopped by its PID.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian installs the server. */
export const REDIS_SERVER = "/usr/bin/redis-server";

/** Whether the tests can run: the program is installed. */
export const redisAvailable = existsSync(REDIS_SERVER) && spawnSync(REDIS_SERVER, ["--version"]).status === 0;

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A running (or stopped) test Redis; its data folder survives restarts until {@link RedisServer.remove}. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Starts the server (again); resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops the server by PID (SIGTERM: it writes its files and exits); resolves when it has exited. */
  stop(): Promise<void>;
  /** Stops it and deletes its data folder. */
  remove(): Promise<void>;
}

/** Makes (does not start) a Redis on a free port with its own temporary data folder. */
export async function createRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "seam-redis-"));
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"];
    const started = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}:\n${output}`)), 10_000);
      started.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    await exited;
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
