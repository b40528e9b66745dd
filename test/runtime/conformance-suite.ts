/**
 * The conformance suite as data (`conformance/`, format in its README.md): its suites and cases,
 * the JSON Patch a delivery applies, and the options a delivery gives `accept()`. Read by the
 * JavaScript runs (conformance.test.ts) and by the comparison of both runtimes' messages
 * (test/emit/python/conformance.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AcceptOptions } from "../../src/runtime/accept.js";
import type { FinishOptions } from "../../src/runtime/finish.js";
import type { SeenStore } from "../../src/runtime/seen-store.js";
import { clone, projectRoot } from "../emit/helpers.js";

export const suiteRoot = join(projectRoot, "conformance");
export const DEFAULT_NOW = "2026-01-01T00:00:00Z";

export type Pair = [string, string];
export type Triple = [string, string, string];
interface Operation {
  readonly op: "add" | "remove" | "replace";
  readonly path: string;
  readonly value?: unknown;
}
export interface Delivery {
  readonly note?: string;
  readonly envelope?: unknown;
  readonly envelopeFile?: string;
  readonly patch?: readonly Operation[];
  readonly me: string;
  readonly now?: string;
  readonly readable?: readonly string[];
  readonly sender?: string;
  readonly claimToken?: string;
  readonly store?: boolean;
  readonly expect: { ok: boolean; duplicate: boolean; route: string; reasons: Pair[]; warnings?: Pair[]; attempt?: number | null; messages?: Triple[]; join?: unknown };
}
/** A terminal action between deliveries. */
export interface FinishStep {
  readonly note?: string;
  readonly finish: { readonly task: string; readonly me: string; readonly terminal: string; readonly outcome: FinishOptions["outcome"]; readonly now?: string };
  readonly expect: { ok: boolean; rule?: string; message?: string; branch?: string; join?: unknown };
}
/** The commit or release of a leased claim, named by its delivery's claimToken. */
export interface SettleStep {
  readonly note?: string;
  readonly settle: { readonly token: string; readonly action: "commit" | "release"; readonly now?: string };
  readonly expect: { outcome: "committed" | "released" | "lost" };
}
/** A join-state query (a service's timer at the join's deadline), compared with the whole report. */
export interface JoinStateStep {
  readonly note?: string;
  readonly joinState: { readonly task: string; readonly now?: string };
  readonly expect: unknown;
}
export type Step = Delivery | FinishStep | SettleStep | JoinStateStep;
export interface Case {
  readonly description: string;
  /** How long the store keeps an idle task, in seconds (default: one day). */
  readonly ttlSeconds?: number;
  /** Who shares the store (default "graph"); "receiver" for hops whose earlier hops the case leaves out. */
  readonly scope?: "graph" | "receiver";
  /** Claims are leases of this many ms (default: none). */
  readonly leaseMs?: number;
  readonly deliveries: readonly Step[];
}

/** RFC 6901 reference tokens of a pointer. */
function tokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`bad JSON Pointer ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** RFC 6902 `add`, `remove` and `replace` on a copy of `document`. */
export function applyPatch(document: unknown, patch: readonly Operation[]): unknown {
  let root = clone(document);
  for (const operation of patch) {
    const path = tokens(operation.path);
    const last = path.pop();
    if (last === undefined) {
      if (operation.op === "remove") throw new Error("cannot remove the whole document");
      root = clone(operation.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const token of path) parent = (parent as Record<string, unknown>)[token] as Record<string, unknown>;
    if (parent === undefined || parent === null || typeof parent !== "object") throw new Error(`patch path ${operation.path} does not resolve`);
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (operation.op === "add") parent.splice(index, 0, clone(operation.value));
      else if (operation.op === "remove") parent.splice(index, 1);
      else parent[index] = clone(operation.value);
    } else if (operation.op === "remove") {
      if (!Object.hasOwn(parent, last)) throw new Error(`patch removes missing ${operation.path}`);
      delete parent[last];
    } else {
      if (operation.op === "replace" && !Object.hasOwn(parent, last)) throw new Error(`patch replaces missing ${operation.path}`);
      parent[last] = clone(operation.value);
    }
  }
  return root;
}

export interface Suite {
  readonly name: string;
  readonly graphText: string;
  readonly cases: readonly { name: string; value: Case }[];
}

export function loadSuite(name: string): Suite {
  const dir = join(suiteRoot, name);
  const read = (file: string): unknown => JSON.parse(readFileSync(join(dir, file), "utf8"));
  const cases = readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const value = read(file) as Case;
      const deliveries = value.deliveries.map((d) =>
        "finish" in d || "settle" in d || "joinState" in d ? d : { ...d, envelope: d.envelopeFile === undefined ? d.envelope : read(d.envelopeFile) },
      );
      return { name: file.replace(/\.json$/, ""), value: { ...value, deliveries } };
    });
  return { name, graphText: readFileSync(join(dir, "graph.seam"), "utf8"), cases };
}

export const suites = readdirSync(suiteRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => loadSuite(entry.name))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The options of one delivery: its receiver, clock, artefact check, the shared store (unless `store: false`), sender and claim token. */
export function optionsFor(delivery: Delivery, seen: SeenStore): AcceptOptions {
  const readable = delivery.readable === undefined ? undefined : new Set(delivery.readable);
  const now = Date.parse(delivery.now ?? DEFAULT_NOW);
  return {
    me: delivery.me,
    now: () => now,
    ...(readable === undefined ? {} : { canRead: (ref: string) => readable.has(ref) }),
    ...(delivery.store === false ? {} : { seen }),
    ...(delivery.sender === undefined ? {} : { sender: delivery.sender }),
    ...(delivery.claimToken === undefined ? {} : { claimToken: delivery.claimToken }),
  };
}
