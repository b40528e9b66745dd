/**
 * Races that must really race. A race test asserts each task's outcome (exactly one winner) on
 * every round, and then that the racers overlapped: both won some tasks, since each meets the
 * tasks in its own order. On a loaded machine one racer can be descheduled for a whole round and
 * lose every task, which proves nothing about the store; so a lopsided round is run again on
 * tasks of its own, up to {@link RACE_ROUNDS} times.
 */
import { expect } from "vitest";

/** How many rounds a race may take to show both racers winning. */
export const RACE_ROUNDS = 3;

/** What one round reports: each racer's number of won tasks, and whether all started on time. */
export interface RaceRound {
  readonly wins: readonly number[];
  readonly onTime: boolean;
}

/**
 * Runs `round(attempt)` (attempt 0, 1, ...: use it to name fresh tasks or a fresh prefix) until
 * both racers won some tasks in a round where all started on time. Fails when some round started
 * on time and none of them shows both racers winning; passes without a verdict on overlap when no
 * round started on time (the outcome assertions inside each round still ran).
 */
export async function raceUntilBothWin(round: (attempt: number) => Promise<RaceRound>): Promise<void> {
  const lopsided: string[] = [];
  for (let attempt = 0; attempt < RACE_ROUNDS; attempt++) {
    const { wins, onTime } = await round(attempt);
    if (!onTime) continue;
    if (Math.min(...wins) > 0) return;
    lopsided.push(wins.join(" / "));
  }
  expect(lopsided, `rounds started on time in which one racer won every task (wins per racer)`).toEqual([]);
}
