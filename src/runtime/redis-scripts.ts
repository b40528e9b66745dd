/**
 * The Redis store's Lua script, `ledger.lua` beside this module (the one source: the build
 * writes it into `ledger-lua.ts` as a string and into the Python package), as node-redis script
 * definitions. The script's header documents the keys, the operations (`claim`, `finish`, `settle`, `join_state`), their
 * arguments and replies.
 */
import { createHash } from "node:crypto";
import { LEDGER_SCRIPT } from "./ledger-lua.js";

export { LEDGER_SCRIPT };

const LEDGER_SHA1 = createHash("sha1").update(LEDGER_SCRIPT).digest("hex");

/** What node-redis's `parseCommand` receives: the command being built. */
export interface ScriptParser {
  pushKey(key: string): void;
  push(...args: string[]): void;
}

function definition<N extends number>(operation: "claim" | "finish" | "settle" | "join_state", keys: N) {
  return {
    IS_READ_ONLY: false,
    NUMBER_OF_KEYS: keys,
    SCRIPT: LEDGER_SCRIPT,
    SHA1: LEDGER_SHA1,
    parseCommand(parser: ScriptParser, keyNames: readonly string[], args: readonly string[]): void {
      for (const key of keyNames) parser.pushKey(key);
      parser.push(operation, ...args);
    },
    transformReply(reply: unknown): unknown {
      return reply;
    },
  };
}

/**
 * The claim, finish, settle (of a leased claim) and join state as node-redis script definitions (what `defineScript` returns: the
 * script, its SHA-1 and how to pass arguments), built without importing `redis`. Both run the
 * one ledger script, which is loaded once and called by SHA-1. Give them to `createClient`:
 * `createClient({ url, scripts: seamRedisScripts })`.
 */
export const seamRedisScripts = {
  seamClaim: definition("claim", 2),
  seamFinish: definition("finish", 1),
  seamSettle: definition("settle", 1),
  seamJoinState: definition("join_state", 1),
} as const;
