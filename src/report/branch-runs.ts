/**
 * The hop indexes that one task's branches of one fan-out held, as runs of consecutive indexes,
 * for counting hops per task: several branches own the same hop of a task, so their handoffs
 * cannot be counted one by one as the task's own hops are.
 *
 * Every delegation of a fan-out is at the hop after the task's own (its base), and each branch
 * goes on one index per handoff, so the branches of one fan-out cover one run of indexes, from
 * the delegations to the highest branch hop. The task's own chain is held meanwhile (the join
 * refuses it, `branch-open`) and goes on after the join fired from the highest arrival (the
 * longest branch), so another time the task fans out there starts past a hop of its own and
 * makes a run of its own.
 */

/** One time a task fanned out through one fan-out, as its branch handoffs show it. */
export interface BranchRun {
  /** The lowest hop index a branch handoff held: the delegations', the task's base + 1. */
  lo: number;
  /** The highest hop index a branch handoff held. */
  hi: number;
  /** The highest hop index of an arrival at the join (`join` held or fired); -1 before one. */
  arrived: number;
  /** Whether an arrival fired the join. */
  fired: boolean;
}

/**
 * The most runs kept for one task fan-out, so that a hostile log cannot grow one without limit:
 * a task fans out again only past a hop of its own, so this many runs span at least twice as
 * many hops.
 */
export const MAX_RUNS = 32;

/**
 * Adds a branch handoff at hop `index` to `runs` (ascending, apart by at least one index): it
 * widens the run it touches, joining two it bridges, or starts a run of its own. Handoffs may
 * come in any order (merged logs).
 *
 * @param join - the event's `join`: an arrival at the join when not `null`
 * @returns `false` when the handoff would start a run past {@link MAX_RUNS} (it is left out)
 */
export function addBranchHop(runs: BranchRun[], index: number, join: "held" | "fired" | null): boolean {
  let at = 0;
  while (at < runs.length && (runs[at] as BranchRun).hi + 1 < index) at++;
  let run = runs[at];
  if (run === undefined || index + 1 < run.lo) {
    if (runs.length >= MAX_RUNS) return false;
    run = { lo: index, hi: index, arrived: -1, fired: false };
    runs.splice(at, 0, run);
  } else {
    run.lo = Math.min(run.lo, index);
    run.hi = Math.max(run.hi, index);
    const next = runs[at + 1];
    if (next !== undefined && next.lo <= run.hi + 1) {
      Object.assign(run, { hi: next.hi, arrived: Math.max(run.arrived, next.arrived), fired: run.fired || next.fired });
      runs.splice(at + 1, 1);
    }
  }
  if (join !== null) {
    run.arrived = Math.max(run.arrived, index);
    run.fired ||= join === "fired";
  }
  return true;
}

/**
 * The hop the task's own chain goes on from after `run`: once its join fired, the highest
 * arrival (the join goes on from the longest branch; a branch it did not wait for may have held
 * higher hops, which the task's own chain then holds too); else the highest branch hop (no join,
 * no store to record one, or a join not fired yet or given up on).
 */
export function runEnd(run: BranchRun): number {
  return run.fired ? run.arrived : run.hi;
}
