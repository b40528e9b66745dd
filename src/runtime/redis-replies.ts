/**
 * The Redis store's replies, read strictly: a script answers an array of strings whose shape
 * each outcome fixes (listed at the top of `ledger.lua`); anything else (a
 * foreign script, a proxy, a key prefix shared with other data) is a
 * {@link StoreUnavailableError}, never a verdict. What the reply carries is escaped and bounded
 * before it reaches the message.
 */
import { escapeUntrusted } from "../core/untrusted-text.js";
import { BUDGET_COUNTERS } from "./checks/budget-exhausted.js";
import type { ClaimHolder, ClaimResult, CustodyFault, FinishResult, JoinClosed, JoinState, JoinStateResult, SettleResult, TaskEnd } from "./seen-store.js";

/**
 * A call that Redis did not answer: unreachable, too slow, or an unexpected reply. A delivery is
 * neither accepted nor refused, a terminal action not known to be recorded: do not process the
 * delivery, try again later. When the call was sent but its answer lost (a timeout), Redis may
 * have recorded it: the next delivery is then answered `duplicate` with this very handoff and
 * receiver as the holder (a repeated finish, `already-finished`).
 */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

const INTEGER = /^(0|-?[1-9][0-9]*)$/;

function malformed(what: string, reply: unknown): StoreUnavailableError {
  const shown = escapeUntrusted(JSON.stringify(reply) ?? String(reply), 200);
  return new StoreUnavailableError(`Redis answered the ${what} with ${shown}, which is not a ${what} result: is the key prefix shared with something else?`);
}

/** `value` as a whole number of at least `min`, when it is one written in decimal. */
function wholeNumber(value: string, min: number): number | undefined {
  const n = Number(value);
  return INTEGER.test(value) && Number.isSafeInteger(n) && n >= min ? n : undefined;
}

/** Reads a script's reply in order: each getter throws (see {@link malformed}) on an item of the wrong shape. */
function replyReader(what: string, reply: unknown) {
  if (!Array.isArray(reply) || reply.length === 0 || !reply.every((item) => typeof item === "string")) throw malformed(what, reply);
  const items = reply as string[];
  let next = 1;
  const bad = (): never => {
    throw malformed(what, reply);
  };
  const text = (): string => (next < items.length ? (items[next++] as string) : bad());
  return {
    outcome: items[0] as string,
    text,
    integer: (min: number): number => wholeNumber(text(), min) ?? bad(),
    /** A time in ms: any finite number. */
    time(): number {
      const value = text();
      const n = Number(value);
      return value.trim() !== "" && Number.isFinite(n) ? n : bad();
    },
    bad,
    /** A time in ms already read as text: any finite number. */
    backTime(value: string): number {
      const n = Number(value);
      return value.trim() !== "" && Number.isFinite(n) ? n : bad();
    },
    /** Puts the last item read back, for a reply whose shape its next item tells. */
    back: (): void => {
      next--;
    },
    more: (): boolean => next < items.length,
    /** `value`, when every item was read. */
    done<T>(value: T): T {
      return next === items.length ? value : bad();
    },
  };
}

type Reader = ReturnType<typeof replyReader>;

function taskEnd(r: Reader): TaskEnd {
  const agent = r.text();
  const terminal = r.text();
  const outcome = r.text();
  const at = r.time();
  const hop = r.text();
  return { agent, terminal, outcome, at, hopIndex: hop === "" ? null : (wholeNumber(hop, 0) ?? r.bad()) };
}

/** The owner and last hop of a task; `""` and `""` for a task with no accepted hop (receivers are never `""`). */
function ownerOf(r: Reader): { owner: string | null; lastHop: number | null } {
  const owner = r.text();
  if (owner !== "") return { owner, lastHop: r.integer(0) };
  return r.text() === "" ? { owner: null, lastHop: null } : r.bad();
}

function custodyFaults(r: Reader): CustodyFault[] {
  const faults: CustodyFault[] = [];
  while (r.more()) {
    const kind = r.text();
    if (kind === "reset" || kind === "skip" || kind === "producer") faults.push({ kind });
    else if (kind === "path") faults.push({ kind, index: r.integer(0), expected: r.text() });
    else if (kind === "budget-limit" || kind === "budget-consumed") {
      const counter = r.text();
      if (!(BUDGET_COUNTERS as readonly string[]).includes(counter)) r.bad();
      faults.push({ kind, counter, before: r.integer(0), hop: r.integer(0) });
    } else if (kind === "budget-overcommitted") {
      const counter = r.text();
      if (!(BUDGET_COUNTERS as readonly string[]).includes(counter)) r.bad();
      const limit = r.text();
      faults.push({ kind, counter, limit: limit === "" ? null : (wholeNumber(limit, 0) ?? r.bad()), parent: r.integer(0), spent: r.integer(0), hop: r.integer(0), taken: r.integer(0) });
    }
    else if (kind === "approval") faults.push({ kind, pending: r.text() });
    else if (kind === "approval-cite") faults.push({ kind, expected: r.text() });
    else r.bad();
  }
  return faults.length > 0 ? faults : r.bad();
}

/** A count, then that many ids (branch ids: never empty). */
function idList(r: Reader): string[] {
  const count = r.integer(0);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = r.text();
    if (id === "") r.bad();
    ids.push(id);
  }
  return ids;
}

/** The join's state after a claimed arrival (see `ledger.lua`). */
function joinState(r: Reader): JoinState {
  const agent = r.text();
  const firedText = r.text();
  if (firedText !== "1" && firedText !== "0") r.bad();
  const hopText = r.text();
  const fired = firedText === "1";
  const hop = hopText === "" ? null : (wholeNumber(hopText, 0) ?? r.bad());
  if (fired !== (hop !== null)) r.bad();
  const arrived = idList(r);
  const waiting = idList(r);
  const pairs = r.integer(0);
  let consumed: Record<string, number> | null = null;
  for (let i = 0; i < pairs; i++) {
    const counter = r.text();
    if (!(BUDGET_COUNTERS as readonly string[]).includes(counter)) r.bad();
    (consumed ??= {})[counter] = r.integer(0);
  }
  return { agent, arrived, waiting, fired, hop, consumed };
}

const BRANCH_STATES = new Set(["open", "late", "arrived", "unopened", "reopened", "ended"]);

/** A join's words after its state: agent, policy, acts, deadline, missing, ended (see `ledger.lua`). */
function joinWords(r: Reader) {
  const join = r.text();
  const policy = r.text();
  const actsText = r.text();
  if (actsText !== "1" && actsText !== "0") r.bad();
  const deadline = r.text();
  return { join, policy, acts: actsText === "1", deadline: deadline === "" ? null : r.backTime(deadline), missing: idList(r), ended: idList(r) };
}

/** A join given up on (`expired` or `failed`), as the script words it. */
function joinClosed(r: Reader): JoinClosed {
  const state = r.text();
  if (state !== "expired" && state !== "failed") r.bad();
  return { state: state as "expired" | "failed", ...joinWords(r) };
}

/** Turns the claim script's reply into a {@link ClaimResult}, strictly (see `ledger.lua` for the shapes). */
export function toClaimResult(reply: unknown): ClaimResult {
  const r = replyReader("claim", reply);
  switch (r.outcome) {
    case "claimed":
      if (!r.more()) return { outcome: "claimed" };
      if (r.text() === "join") return r.done({ outcome: "claimed", join: joinState(r) });
      r.back();
      return r.done({ outcome: "claimed", leaseUntil: r.time() });
    case "leased": {
      const holder: ClaimHolder = { handoffId: r.text(), receiver: r.text(), at: r.time() };
      return r.done({ outcome: "leased", holder, until: r.time() });
    }
    case "branch": {
      const state = r.text();
      if (!BRANCH_STATES.has(state)) return r.bad();
      const join = r.text();
      const hop = r.text();
      const attempt = r.text();
      const counted = state !== "late" && state !== "arrived" && state !== "ended";
      const result = {
        outcome: "branch" as const,
        state: state as "open" | "late" | "arrived" | "unopened" | "reopened" | "ended",
        join: join === "" ? null : join,
        hop: hop === "" ? null : (wholeNumber(hop, 0) ?? r.bad()),
        ...(counted ? { attempt: wholeNumber(attempt, 1) ?? r.bad() } : attempt === "" ? {} : r.bad()),
        missing: idList(r),
        arrived: idList(r),
      };
      return r.done(result);
    }
    case "noted":
      return r.done({ outcome: "noted", attempt: r.integer(1) });
    case "owner-conflict":
      return r.done({ outcome: "owner-conflict", owner: r.text(), attempt: r.integer(1) });
    case "duplicate": {
      const of = r.text();
      if (of !== "handoff" && of !== "hop") return r.bad();
      return r.done({ outcome: "duplicate", of, holder: { handoffId: r.text(), receiver: r.text(), at: r.time() } });
    }
    case "custody": {
      const { owner, lastHop } = ownerOf(r);
      const attempt = r.integer(1);
      return { outcome: "custody", owner, lastHop, attempt, faults: custodyFaults(r) };
    }
    case "finished":
      return r.done({ outcome: "finished", ended: taskEnd(r) });
    case "join":
      return r.done({ outcome: "join", ...joinClosed(r) });
    default:
      return r.bad();
  }
}

/** The `join` words that may follow a finish reply: the join the call acted on. */
function actedJoin(r: Reader): { join?: JoinClosed } {
  if (!r.more()) return {};
  if (r.text() !== "join") r.bad();
  return { join: joinClosed(r) };
}

/** Turns the join_state script's reply into a {@link JoinStateResult}, strictly. */
export function toJoinStateResult(reply: unknown): JoinStateResult {
  const r = replyReader("join state", reply);
  switch (r.outcome) {
    case "none":
      return r.done({ state: "none" });
    case "waiting":
    case "fired": {
      const { acts, ...words } = joinWords(r);
      if (acts) r.bad();
      return r.done({ state: r.outcome, ...words, arrived: idList(r) });
    }
    case "expired":
    case "failed":
      return r.done({ state: r.outcome, ...joinWords(r), arrived: idList(r) });
    default:
      return r.bad();
  }
}

/** Turns the settle script's reply into a {@link SettleResult}, strictly. */
export function toSettleResult(reply: unknown): SettleResult {
  const r = replyReader("settle", reply);
  switch (r.outcome) {
    case "committed":
    case "released":
      return r.done({ outcome: r.outcome });
    case "lost":
      return r.more() ? r.done({ outcome: "lost", holder: { handoffId: r.text(), receiver: r.text(), at: r.time() } }) : r.done({ outcome: "lost", holder: null });
    default:
      return r.bad();
  }
}

/** Turns the finish script's reply into a {@link FinishResult}, strictly. */
export function toFinishResult(reply: unknown): FinishResult {
  const r = replyReader("finish", reply);
  switch (r.outcome) {
    case "finished": {
      const ended = taskEnd(r);
      return r.done({ outcome: "finished", ended, ...actedJoin(r) });
    }
    case "already-finished":
      return r.done({ outcome: r.outcome, ended: taskEnd(r) });
    case "branch-finished": {
      const branch = r.text();
      const ended = taskEnd(r);
      return r.done({ outcome: "branch-finished", branch, ended, ...actedJoin(r) });
    }
    case "not-owner":
      return r.done({ outcome: "not-owner", ...ownerOf(r) });
    case "branch-open": {
      const join = r.text();
      return r.done({ outcome: "branch-open", join, missing: idList(r) });
    }
    default:
      return r.bad();
  }
}
