/**
 * Guard coverage by exact enumeration. The guarded edges out of one agent form its router: they
 * are tried in source order and the first whose guard matches is the route; an `otherwise` edge
 * takes what none matches. Every guard subject has a small domain, so the whole state space is
 * enumerated rather than solved (yamlgraph's solver pass finds the same gaps, overlaps and
 * shadowed guards, each with a witness state):
 *
 * - `status`: its five values;
 * - `allowed_next_step`: the values the router's guards name, plus one state standing for any
 *   other value;
 * - `confidence` (the lowest decision confidence, from 0 to 1): the thresholds the guards name cut
 *   [0, 1] into points and open intervals, on each of which every comparison has one truth value;
 *   one state per piece.
 *
 * The states are the product of the domains of the subjects the router tests, and each is tried
 * against every guard, and each pair of guards that match one state is an overlap to look at: a
 * router of n guards on both `allowed_next_step` and `confidence` makes about 2 n^2 states and
 * 2 n^3 tests. A router past {@link MAX_GUARD_STEPS} is therefore not checked (`guards-unchecked`
 * says so), so that a small hostile file cannot hold `seam check` or the language server for
 * minutes. Each state found uncovered, overlapping or
 * shadowing is kept as a readable witness.
 */
import { ENVELOPE_STATUSES } from "../core/envelope-schema.js";
import type { GuardSubject } from "../core/vocabulary.js";
import type { CheckedCondition, CheckedGuard } from "./model.js";

/** The value of each tested subject in one state; `confidence` is a piece of [0, 1] by index into {@link Domain.pieces}. */
export interface GuardState {
  readonly status?: string;
  readonly allowed_next_step?: string;
  readonly confidence?: number;
}

/** A piece of [0, 1]: a point `[at, at]`, or an open interval `(low, high)`. */
export interface Piece {
  readonly low: number;
  readonly high: number;
  readonly point: boolean;
  /** A value inside the piece, with as few decimals as possible (the witness shown to users). */
  readonly witness: number;
}

/** The domains of the subjects a router tests. */
export interface Domain {
  readonly subjects: readonly GuardSubject[];
  readonly status: readonly string[];
  /** The named next steps, then {@link OTHER_STEP}. */
  readonly steps: readonly string[];
  readonly pieces: readonly Piece[];
}

/** The state of `allowed_next_step` that stands for every value no guard names. */
export const OTHER_STEP = "\u0000other";

/** The enumeration of one router: for each state, the guards (positions in the router) that match it. */
export interface RouterCoverage {
  readonly domain: Domain;
  readonly states: readonly GuardState[];
  /** Per state: positions of the `when` guards that match it, in order. */
  readonly matches: readonly (readonly number[])[];
}

/** Builds the domains of the subjects `guards` test; `statuses`: the statuses an envelope taking them can have. */
export function domainOf(guards: readonly CheckedGuard[], statuses: readonly string[] = ENVELOPE_STATUSES): Domain {
  const subjects = new Set<GuardSubject>();
  const steps = new Set<string>();
  const cuts = new Set<number>([0, 1]);
  for (const guard of guards) {
    for (const c of guard.conditions) {
      subjects.add(c.subject);
      if (c.subject === "allowed_next_step") for (const v of c.values) steps.add(v);
      if (c.subject === "confidence") cuts.add(c.value);
    }
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const pieces: Piece[] = [];
  sorted.forEach((cut, i) => {
    if (i > 0) {
      const low = sorted[i - 1] as number;
      pieces.push({ low, high: cut, point: false, witness: between(low, cut) });
    }
    pieces.push({ low: cut, high: cut, point: true, witness: cut });
  });
  const order: readonly GuardSubject[] = ["status", "allowed_next_step", "confidence"];
  return {
    subjects: order.filter((s) => subjects.has(s)),
    status: statuses,
    steps: [...steps, OTHER_STEP],
    pieces,
  };
}

/** The shortest decimal strictly between `low` and `high` (their midpoint at worst). */
function between(low: number, high: number): number {
  for (let digits = 1; digits <= 12; digits++) {
    const scale = 10 ** digits;
    const candidate = Math.floor(low * scale + 1) / scale;
    if (candidate > low && candidate < high) return candidate;
  }
  return (low + high) / 2;
}

/**
 * The most steps one router's check makes: a state tried against a guard is a step, and so is a
 * pair of guards that both match one state (an overlap to look at). About a second's work at
 * most, where the routers people write take thousands. A counted bound, never a clock, so every
 * machine gives the same findings.
 */
export const MAX_GUARD_STEPS = 4_000_000;

/** A router's check ({@link checkRouter}): its enumeration and findings, or, past {@link MAX_GUARD_STEPS}, only its number of states. */
export type RouterCheck = { readonly checked: true; readonly coverage: RouterCoverage; readonly findings: RouterFindings } | { readonly checked: false; readonly states: number };

/**
 * Enumerates and checks one router ({@link coverRouter}, {@link findRouterProblems}) when that
 * takes at most {@link MAX_GUARD_STEPS} steps: the tests are counted from the domains before any
 * state is made, the overlapping pairs from the enumeration before any is compared.
 */
export function checkRouter(guards: readonly CheckedGuard[], statuses: readonly string[] = ENVELOPE_STATUSES): RouterCheck {
  const domain = domainOf(guards, statuses);
  let states = 1;
  for (const subject of domain.subjects) states *= subject === "status" ? domain.status.length : subject === "allowed_next_step" ? domain.steps.length : domain.pieces.length;
  const tests = states * guards.filter((g) => !g.otherwise).length;
  if (tests > MAX_GUARD_STEPS) return { checked: false, states };
  const coverage = enumerate(guards, domain);
  let steps = tests;
  for (const list of coverage.matches) steps += (list.length * (list.length - 1)) / 2;
  if (steps > MAX_GUARD_STEPS) return { checked: false, states };
  return { checked: true, coverage, findings: findRouterProblems(guards, coverage) };
}

/** Every state of `domain`: the product of the tested subjects' domains, status first. */
export function statesOf(domain: Domain): GuardState[] {
  let states: GuardState[] = [{}];
  for (const subject of domain.subjects) {
    const values: readonly (string | number)[] =
      subject === "status" ? domain.status : subject === "allowed_next_step" ? domain.steps : domain.pieces.map((_, i) => i);
    states = states.flatMap((state) => values.map((value) => ({ ...state, [subject]: value })));
  }
  return states;
}

/** True when `condition` holds in `state` (whose confidence piece is read from `domain`). */
function holds(condition: CheckedCondition, state: GuardState, domain: Domain): boolean {
  if (condition.subject !== "confidence") return condition.values.includes(state[condition.subject] as string);
  const piece = domain.pieces[state.confidence as number] as Piece;
  // Every comparison has one truth value on a piece; its witness decides it.
  const x = piece.witness;
  switch (condition.operator) {
    case "<":
      return x < condition.value;
    case "<=":
      return x <= condition.value;
    case ">":
      return x > condition.value;
    case ">=":
      return x >= condition.value;
  }
}

/** True when every condition of `guard` holds in `state` (an `otherwise` guard is not tested here). */
export function matches(guard: CheckedGuard, state: GuardState, domain: Domain): boolean {
  return guard.conditions.every((c) => holds(c, state, domain));
}

/** Enumerates one router's guards (in source order; `otherwise` guards match nothing here) over `statuses` (default: all). */
export function coverRouter(guards: readonly CheckedGuard[], statuses: readonly string[] = ENVELOPE_STATUSES): RouterCoverage {
  return enumerate(guards, domainOf(guards, statuses));
}

/** {@link coverRouter} over an already built domain. */
function enumerate(guards: readonly CheckedGuard[], domain: Domain): RouterCoverage {
  const states = statesOf(domain);
  const matchLists = states.map((state) => {
    const list: number[] = [];
    guards.forEach((guard, i) => {
      if (!guard.otherwise && matches(guard, state, domain)) list.push(i);
    });
    return list;
  });
  return { domain, states, matches: matchLists };
}

/** What one router's enumeration finds. */
export interface RouterFindings {
  /** States no `when` guard matches, when the router has no `otherwise`. */
  readonly gaps: readonly GuardState[];
  /** Per guard position: why it can never be the route, or undefined. */
  readonly unreachable: readonly (Unreachable | undefined)[];
  /** Pairs of guards that both match a state, with the first such state (neither shadowed whole). */
  readonly overlaps: readonly { readonly first: number; readonly second: number; readonly state: GuardState }[];
}

/** Why a guard is never the route. */
export type Unreachable =
  | { readonly reason: "never" }
  | { readonly reason: "shadowed"; readonly by: readonly number[] }
  | { readonly reason: "covered" }
  | { readonly reason: "second-otherwise"; readonly by: number };

/** Gaps, unreachable guards and overlaps of a router (guards in source order). */
export function findRouterProblems(guards: readonly CheckedGuard[], coverage: RouterCoverage = coverRouter(guards)): RouterFindings {
  const { states, matches: matchLists } = coverage;
  const otherwise = guards.findIndex((g) => g.otherwise);
  const uncovered = states.filter((_, s) => (matchLists[s] as readonly number[]).length === 0);
  const unreachable: (Unreachable | undefined)[] = guards.map(() => undefined);
  // One pass over the match lists: how many states each guard matches, and in how many it is the
  // first (the route). A guard that matches but is never first is shadowed by the firsts.
  const matched = new Array<number>(guards.length).fill(0);
  const routed = new Array<number>(guards.length).fill(0);
  for (const list of matchLists) {
    for (const i of list) matched[i] = (matched[i] as number) + 1;
    if (list.length > 0) routed[list[0] as number] = (routed[list[0] as number] as number) + 1;
  }
  const shadowers = new Map<number, Set<number>>();
  guards.forEach((guard, i) => {
    if (guard.otherwise) {
      if (i !== otherwise) unreachable[i] = { reason: "second-otherwise", by: otherwise };
      else if (uncovered.length === 0) unreachable[i] = { reason: "covered" };
      return;
    }
    if (matched[i] === 0) unreachable[i] = { reason: "never" };
    else if (routed[i] === 0) shadowers.set(i, new Set());
  });
  if (shadowers.size > 0) {
    for (const list of matchLists) for (let k = 1; k < list.length; k++) shadowers.get(list[k] as number)?.add(list[0] as number);
    for (const [i, by] of shadowers) unreachable[i] = { reason: "shadowed", by: [...by].sort((a, b) => a - b) };
  }
  const overlaps: { first: number; second: number; state: GuardState }[] = [];
  const seen = new Set<string>();
  matchLists.forEach((list, s) => {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const first = list[a] as number;
        const second = list[b] as number;
        const key = `${first} ${second}`;
        if (seen.has(key) || unreachable[first] !== undefined || unreachable[second] !== undefined) continue;
        seen.add(key);
        overlaps.push({ first, second, state: states[s] as GuardState });
      }
    }
  });
  overlaps.sort((x, y) => x.second - y.second || x.first - y.first);
  return { gaps: otherwise >= 0 ? [] : uncovered, unreachable, overlaps };
}

/** `status blocked and confidence 0.4` (a state, as a guard would test it). */
export function describeState(state: GuardState, domain: Domain): string {
  const parts: string[] = [];
  if (state.status !== undefined) parts.push(`status ${state.status}`);
  if (state.allowed_next_step !== undefined) {
    parts.push(state.allowed_next_step === OTHER_STEP ? "allowed_next_step not named by any guard" : `allowed_next_step ${state.allowed_next_step}`);
  }
  if (state.confidence !== undefined) parts.push(`confidence ${(domain.pieces[state.confidence] as Piece).witness}`);
  return parts.join(" and ");
}

/**
 * The uncovered states in words, merged: confidence pieces next to each other become one range
 * (`status ready and confidence < 0.8`), states that differ only in status share one line
 * (`status blocked, waiting_review, failed`). In state order.
 */
export function describeGaps(gaps: readonly GuardState[], domain: Domain): string[] {
  // Merge confidence pieces per rest-of-state.
  const byRest = new Map<string, { state: GuardState; pieces: number[] }>();
  for (const state of gaps) {
    const key = `${state.status ?? ""}\u0001${state.allowed_next_step ?? ""}`;
    const entry = byRest.get(key) ?? { state, pieces: [] };
    if (state.confidence !== undefined) entry.pieces.push(state.confidence);
    byRest.set(key, entry);
  }
  // Then merge statuses that share the same rest.
  const lines = new Map<string, { statuses: string[]; rest: string }>();
  for (const { state, pieces } of byRest.values()) {
    const rest: string[] = [];
    if (state.allowed_next_step !== undefined) {
      rest.push(state.allowed_next_step === OTHER_STEP ? "allowed_next_step not named by any guard" : `allowed_next_step ${state.allowed_next_step}`);
    }
    if (pieces.length > 0) rest.push(...confidenceRanges(pieces, domain));
    const restText = rest.join(" and ");
    const key = restText;
    const line = lines.get(key) ?? { statuses: [], rest: restText };
    if (state.status !== undefined) line.statuses.push(state.status);
    lines.set(key, line);
  }
  return [...lines.values()].map(({ statuses, rest }) => {
    const status = statuses.length === 0 ? "" : `status ${statuses.join(", ")}`;
    return [status, rest].filter((p) => p !== "").join(" and ");
  });
}

/** Consecutive confidence pieces as ranges: `confidence < 0.8`, `0.5 <= confidence < 0.8`, `confidence = 1`. */
function confidenceRanges(indices: readonly number[], domain: Domain): string[] {
  const sorted = [...indices].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const i of sorted) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  const ranges = runs.map(([from, to]) => {
    const first = domain.pieces[from] as Piece;
    const last = domain.pieces[to] as Piece;
    if (from === to && first.point) return `confidence = ${first.low}`;
    const lowOp = first.point ? "<=" : "<";
    const highOp = last.point ? "<=" : "<";
    const lowOpen = first.low === 0 && first.point;
    const highOpen = last.high === 1 && last.point;
    if (lowOpen && highOpen) return "";
    if (lowOpen) return `confidence ${highOp} ${last.high}`;
    if (highOpen) return `confidence ${lowOp === "<=" ? ">=" : ">"} ${first.low}`;
    return `${first.low} ${lowOp} confidence ${highOp} ${last.high}`;
  });
  // A run over all of [0, 1] says nothing about confidence.
  if (ranges.length === 1) return ranges[0] === "" ? [] : ranges;
  return [`(${ranges.join(" or ")})`];
}

/** The status that never leaves an approval gate: what still waits for review stays there. */
export const AWAITING_REVIEW = "waiting_review";

/** The statuses of an envelope leaving an approval gate. */
export const STATUSES_LEAVING_GATE: readonly string[] = ENVELOPE_STATUSES.filter((s) => s !== AWAITING_REVIEW);

/**
 * A router's guards and status domain as approval gates make them: nothing `waiting_review`
 * leaves a gate, so out of a gated agent no state has that status, and a gated edge's guard holds
 * only for the other statuses (a guard on `waiting_review` alone never matches).
 *
 * @param guards - the router's guards, in source order
 * @param agentGate - the router's agent is a gate
 * @param edgeGates - per guard: its edge is a gate
 */
export function gateAwareRouter(guards: readonly CheckedGuard[], agentGate: boolean, edgeGates: readonly boolean[]): { guards: CheckedGuard[]; statuses: readonly string[] } {
  if (agentGate) return { guards: [...guards], statuses: STATUSES_LEAVING_GATE };
  const gated = guards.map((guard, i): CheckedGuard => {
    if (edgeGates[i] !== true || guard.otherwise) return guard;
    if (!guard.conditions.some((c) => c.subject === "status")) return { ...guard, conditions: [{ subject: "status", values: STATUSES_LEAVING_GATE }, ...guard.conditions] };
    const conditions = guard.conditions.map((c): CheckedCondition => (c.subject === "status" ? { subject: "status", values: c.values.filter((v) => v !== AWAITING_REVIEW) } : c));
    return { ...guard, conditions };
  });
  return { guards: gated, statuses: ENVELOPE_STATUSES };
}
