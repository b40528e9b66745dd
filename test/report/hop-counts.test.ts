/**
 * Hops per task when tasks fan out: each task is counted once, at the highest hop of its own
 * chain, whichever way its fan-outs went (joined, never joined, from the entry, twice, without a
 * store's join record), in any order of the events, and the memory stays bounded.
 */
import { describe, expect, it } from "vitest";
import { addBranchHop, MAX_RUNS, type BranchRun } from "../../src/report/branch-runs.js";
import { createReportBuilder, GROUP_CAPS, type HopCounts } from "../../src/report/handoff-report.js";
import type { HandoffEvent } from "../../src/runtime/handoff-event.js";
import { sampleEvent } from "./sample-event.js";

/** An accepted handoff of task t1 at `hop`, in `branch` (`null`: the task's own chain), arriving at a join when `join` is set. */
function hop(index: number, branch: string | null = null, join: HandoffEvent["join"] = null): HandoffEvent {
  return sampleEvent({ hop_index: index, hop_limit: 20, branch, join, route: join === "held" ? "held" : "proceed" });
}

/** The hop counts of the refund desk from `events`, in the order given and reversed (merged logs need not be in time order). */
function hopsOf(events: readonly HandoffEvent[]): Pick<HopCounts, "tasks" | "distribution"> {
  const counts = [events, [...events].reverse()].map((order) => {
    const builder = createReportBuilder();
    for (const event of order) builder.add(event);
    const [graph] = builder.finish().hop_counts;
    return { tasks: graph?.tasks, distribution: graph?.distribution };
  });
  expect(counts[1]).toEqual(counts[0]);
  return counts[0] as Pick<HopCounts, "tasks" | "distribution">;
}

const one = (hops: number): Pick<HopCounts, "tasks" | "distribution"> => ({ tasks: 1, distribution: [{ hops, tasks: 1 }] });

describe("hops per task with fan-outs", () => {
  it("count a task that fans out twice through the same fan-out once", () => {
    const fanOut = (base: number): HandoffEvent[] => [hop(base + 1, "f/x"), hop(base + 1, "f/y"), hop(base + 2, "f/x", "held"), hop(base + 2, "f/y", "fired")];
    expect(hopsOf([hop(1), ...fanOut(1), hop(4), hop(5), ...fanOut(5), hop(8)])).toEqual(one(8));
  });

  it("count a task whose branches are all it did, from the entry, to its highest branch hop", () => {
    // Its join never fired: one branch arrived, the other went on.
    expect(hopsOf([hop(1, "f/x"), hop(1, "f/y"), hop(2, "f/x"), hop(3, "f/x"), hop(2, "f/y", "held")])).toEqual(one(3));
  });

  it("count a fan-out without a store's join record to its highest branch hop", () => {
    // Without a store no event says a join held or fired; the task goes on from the longest branch.
    expect(hopsOf([hop(1), hop(2, "f/x"), hop(2, "f/y"), hop(3, "f/x"), hop(3, "f/y"), hop(4, "f/y"), hop(5)])).toEqual(one(5));
  });

  it("count a task that went on from the arrival its any-join fired at, past hops of a branch it did not wait for, once", () => {
    expect(hopsOf([hop(1), hop(2, "f/x"), hop(2, "f/y"), hop(3, "f/x", "fired"), hop(3, "f/y"), hop(4, "f/y"), hop(4), hop(5)])).toEqual(one(5));
  });

  it("count tasks without fan-outs by their handoffs per hop, as ever", () => {
    const other = (index: number): HandoffEvent => ({ ...hop(index), task_id: "t2" });
    expect(hopsOf([hop(1), hop(2), hop(3), other(1), other(2)])).toEqual({ tasks: 2, distribution: [{ hops: 2, tasks: 1 }, { hops: 3, tasks: 1 }] });
  });

  it("say the hop counts were cut when fan-outs past the cap were left out", () => {
    const builder = createReportBuilder();
    for (let i = 0; i <= GROUP_CAPS.fanOuts; i++) builder.add({ ...hop(2, "f/x"), task_id: `t${i}` });
    expect(builder.finish().cut).toEqual(["hop counts", "fan-outs"]);
  });
});

describe("the runs of branch hops of a task fan-out", () => {
  it("are the same whatever order the hops come in, a bridging hop joining two", () => {
    const hops: [number, HandoffEvent["join"]][] = [[2, null], [3, "held"], [4, "fired"], [7, null], [8, null]];
    const runsOf = (order: readonly [number, HandoffEvent["join"]][]): BranchRun[] => {
      const runs: BranchRun[] = [];
      for (const [index, join] of order) addBranchHop(runs, index, join);
      return runs;
    };
    const expected = [
      { lo: 2, hi: 4, arrived: 4, fired: true },
      { lo: 7, hi: 8, arrived: -1, fired: false },
    ];
    expect(runsOf(hops)).toEqual(expected);
    expect(runsOf([...hops].reverse())).toEqual(expected);
    expect(runsOf([hops[4], hops[0], hops[2], hops[3], hops[1]] as [number, HandoffEvent["join"]][])).toEqual(expected);
  });

  it(`stop at ${MAX_RUNS} runs`, () => {
    const runs: BranchRun[] = [];
    for (let run = 0; run < MAX_RUNS; run++) expect(addBranchHop(runs, run * 2, null)).toBe(true);
    expect(addBranchHop(runs, MAX_RUNS * 2, null)).toBe(false);
    expect(addBranchHop(runs, 1, null)).toBe(true); // a hop that joins two runs is still taken
    expect(runs).toHaveLength(MAX_RUNS - 1);
  });
});
