/**
 * One real Redis per test file (see redis-server.ts): started before the file's tests, stopped
 * by PID after them, with the clients the tests connected. Files call {@link useRedis} at the top
 * level and skip their Redis tests with `describe.skipIf(!redisAvailable)`.
 */
import { createClient } from "redis";
import { afterAll, beforeAll } from "vitest";
import { createRedisSeenStore, seamRedisScripts, type RedisSeenStore, type RedisSeenStoreOptions } from "../../src/runtime/redis-store.js";
import { createRedisServer, redisAvailable, type RedisServer } from "./redis-server.js";

/** The one line a file prints when its Redis tests are skipped. */
export const SKIP_LINE = "skipped: the Redis store tests need Debian's redis-server package (apt-get install redis-server)";

/** A node-redis client with the store's scripts, as the README creates it (no reconnects, so a stopped server fails at once). */
export type SeamClient = Awaited<ReturnType<typeof connectTo>>;

async function connectTo(url: string) {
  const client = createClient({ url, scripts: seamRedisScripts, disableOfflineQueue: true, socket: { connectTimeout: 500, reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** What a test file gets from {@link useRedis}. */
export interface RedisFixture {
  /** The running server (valid inside tests). */
  readonly server: () => RedisServer;
  /** A connected client, closed after the file; `url` defaults to the file's server. */
  connect(url?: string): Promise<SeamClient>;
  /** A store on a shared client under a prefix no other call of this file uses. */
  store(options?: Omit<RedisSeenStoreOptions, "prefix">): Promise<RedisSeenStore & { readonly prefix: string }>;
}

let prefixes = 0;

/** Starts a Redis for this file when redis-server is installed (else prints {@link SKIP_LINE} once). */
export function useRedis(): RedisFixture {
  let server: RedisServer | undefined;
  const clients: SeamClient[] = [];
  let shared: Promise<SeamClient> | undefined;
  if (!redisAvailable) console.warn(SKIP_LINE);
  beforeAll(async () => {
    if (!redisAvailable) return;
    server = await createRedisServer();
    await server.start();
  }, 20_000);
  afterAll(async () => {
    for (const client of clients) await client.quit().catch(() => client.destroy());
    await server?.remove();
  });
  const fixture: RedisFixture = {
    server: () => server as RedisServer,
    async connect(url = (server as RedisServer).url) {
      const client = await connectTo(url);
      clients.push(client);
      return client;
    },
    async store(options = {}) {
      shared ??= fixture.connect();
      const prefix = `p${++prefixes}-${process.pid}`;
      return Object.assign(createRedisSeenStore(await shared, { ...options, prefix }), { prefix });
    },
  };
  return fixture;
}
