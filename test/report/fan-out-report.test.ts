/**
 * `seam report` on fan-outs: the handoff events of a fanned-out task carry its branch and the
 * join's state, and the report counts branches per task fan-out and how long each join waited.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatReportPretty } from "../../src/cli/format/report-pretty.js";
import { formatReportHtml } from "../../src/report/report-html.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import { createReportBuilder } from "../../src/report/handoff-report.js";
import { readEvent } from "../../src/report/read-event.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import type { Budget, Envelope } from "../../src/runtime/envelope.js";
import { createHandoffDescriber, type HandoffEvent } from "../../src/runtime/handoff-event.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, projectRoot } from "../emit/helpers.js";

const graph = checkedGraph(readFileSync(join(projectRoot, "conformance", "fan-out", "graph.seam"), "utf8"), "fan-out/graph.seam");
const { accept } = createGraphAccept(graph);
const edges = toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts);
const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges });
const describe_ = createHandoffDescriber({ graph: toGraphInfo(graph), edges });
const T0 = Date.parse("2026-12-01T09:00:00Z");
const budget = (limit: number, consumed: number): Budget => ({ limit: { tool_calls: limit }, consumed: { tool_calls: consumed } });
let ids = 0;
const handoffId = (): string => `1f2e3d4c-5b6a-4978-8695-${String(++ids).padStart(12, "0")}`;

function next(received: Envelope, me: string, to: string, over: Budget): Envelope {
  const back = edges.some((e) => e.from === me && e.to === to && e.kind === "return") ? { status: "ready" as const, artefacts: [{ ref: `artefact://r/${me}`, media_type: "text/plain", role: "supporting" as const }] } : {};
  return builder.next(received, { me, to, action: "works", ...back, budget: over, handoffId: handoffId(), now: () => T0 });
}

/** Ingests `steps` (envelope, seconds after T0) for one store, as the services' event logs would hold them. */
function events(steps: readonly [Envelope, number][]): HandoffEvent[] {
  const seen = createMemorySeenStore();
  return steps.map(([envelope, seconds]) => {
    const at = T0 + seconds * 1000;
    const result = accept(envelope, { me: envelope.to_agent.id, seen, now: () => at });
    const event = describe_({ envelope, result, receiver: envelope.to_agent.id, completedAt: at, ingestMs: 0.01 });
    // Through JSON and back, as seam report reads a log.
    const read = readEvent(JSON.parse(JSON.stringify(event)));
    if (read.kind !== "event") throw new Error("an event did not read back");
    return read.event;
  });
}

function scoutTask(task: string, answerAfter: number): [Envelope, number][] {
  const scout = builder.first({ me: "desk", to: "scout", action: "asks", taskId: task, constraints: ["EUR"], goal: { statement: "quote", acceptance_criteria: ["a quote"] }, budget: budget(8, 0), handoffId: handoffId(), now: () => T0 });
  const north = next(scout, "scout", "north", budget(4, 0));
  const south = next(scout, "scout", "south", budget(4, 0));
  return [
    [scout, 0],
    [north, 10],
    [south, 11],
    [next(north, "north", "scout", budget(4, 1)), 10 + answerAfter],
    [next(south, "south", "scout", budget(4, 1)), 20 + answerAfter],
  ];
}

/**
 * A tender fanned out to pricing, legal and tech and joined at lead (all of them), where pricing
 * asks analyst on the way: hops 1 (desk -> lead), 2 (the three delegations), 3 (analyst, and
 * the arrivals of legal and tech), 4 (analyst -> pricing), 5 (pricing's arrival, which fires the
 * join) and 6 (lead -> desk, the hop after the longest branch).
 */
function tenderTask(task: string): [Envelope, number][] {
  const goal = { statement: "answer the tender", acceptance_criteria: ["a priced, checked bid"] };
  const lead = builder.first({ me: "desk", to: "lead", action: "asks", taskId: task, constraints: ["EUR"], goal, budget: budget(12, 0), handoffId: handoffId(), now: () => T0 });
  const [pricing, legal, tech] = (["pricing", "legal", "tech"] as const).map((to) => next(lead, "lead", to, budget(4, 0))) as [Envelope, Envelope, Envelope];
  const analyst = next(pricing, "pricing", "analyst", budget(4, 1));
  const priced = next(analyst, "analyst", "pricing", budget(4, 2));
  const arrivals = [next(legal, "legal", "lead", budget(4, 1)), next(tech, "tech", "lead", budget(4, 1)), next(priced, "pricing", "lead", budget(4, 3))];
  const artefacts = [{ ref: `artefact://r/${task}`, media_type: "text/plain", role: "supporting" as const }];
  const toDesk = builder.join(arrivals, { me: "lead", to: "desk", action: "bids", parent: lead, status: "ready", artefacts, handoffId: handoffId(), now: () => T0 });
  return [[lead, 0], [pricing, 1], [legal, 1], [tech, 1], [analyst, 2], [priced, 3], ...arrivals.map((arrival, i): [Envelope, number] => [arrival, 4 + i]), [toDesk, 8]];
}

describe("the report of fan-outs", () => {
  const log = [...events(scoutTask("quote-1", 30)), ...events(scoutTask("quote-2", 90))];

  it("writes each accepted branch handoff's branch, and the join's state of each arrival, into its event", () => {
    expect(log.slice(0, 5).map((e) => [e.branch, e.join, e.verdict])).toEqual([
      [null, null, "accepted"],
      ["quotes/north", null, "accepted"],
      ["quotes/south", null, "accepted"],
      ["quotes/north", "fired", "accepted"],
      // Late after the any-join fired: refused, so no branch is recorded.
      [null, null, "rejected"],
    ]);
  });

  it("counts branches per task fan-out and the join wait from the first branch handoff to the firing arrival", () => {
    const report = createReportBuilder();
    for (const event of log) report.add(event);
    const { fan_outs: fanOuts } = report.finish();
    expect(fanOuts.fan_outs).toBe(2);
    expect(fanOuts.branches).toEqual({ p50: 2, max: 2, distribution: [{ branches: 2, fan_outs: 2 }] });
    // Waits of 30 s and 90 s: exact at the extremes, within the sketch's 1% between.
    expect(fanOuts.join_wait.count).toBe(2);
    expect(fanOuts.join_wait.max).toBe(90_000);
    expect(Math.abs((fanOuts.join_wait.p50 as number) - 30_000)).toBeLessThanOrEqual(300);
    expect(fanOuts.join_wait.by_join.map((j) => [j.join, j.count, j.max])).toEqual([["scout", 2, 90_000]]);
  });

  it("prints a fan-out section, and says so when no handoff travelled in a branch", () => {
    const report = createReportBuilder();
    for (const event of log) report.add(event);
    const text = formatReportPretty(report.finish());
    const section = text.slice(text.indexOf("Fan-outs"), text.indexOf("Envelope versions"));
    expect(section.split("\n").slice(0, 2)).toEqual([
      "Fan-outs (branches per task and fan-out; join wait, ms: first branch handoff -> the arrival that fired the join)",
      "  2 fan-outs: branches p50 2, max 2 (2 with 2)",
    ]);
    expect(section).toMatch(/^ {2}scout +2 +[\d,]+ +[\d,]+ +[\d,]+ +90,000$/m);
    const empty = createReportBuilder();
    expect(formatReportPretty(empty.finish())).toContain("Fan-outs (branches per task and fan-out; join wait, ms: first branch handoff -> the arrival that fired the join)\n  no handoff in a branch\n");
  });

  it("draws the branches per task fan-out and the join wait by join agent in the HTML page", () => {
    const report = createReportBuilder();
    for (const event of log) report.add(event);
    const page = formatReportHtml(report.finish(), ["quotes.jsonl"]);
    const section = page.slice(page.indexOf('<section id="fan-outs">'), page.indexOf("</section>", page.indexOf('<section id="fan-outs">')));
    expect(section).toContain("<h3>2 fan-outs: branches p50 2, max 2</h3>");
    // One column: 2 task fan-outs with 2 branches each.
    expect(section.match(/<rect class="mark"[^>]*>/g)?.filter((bar) => bar.includes('data-x="2"'))).toHaveLength(1);
    expect(section).toMatch(/<table id="table-join-wait"><tr><th>join<\/th>.*<td>scout<\/td><td class="n">2<\/td>.*<td class="n">90,000<\/td><\/tr><\/table>/);
    const none = formatReportHtml(createReportBuilder().finish(), ["empty.jsonl"]);
    expect(none).toContain('<section id="fan-outs"><h2>Fan-outs and joins</h2>');
    expect(none).toContain('<p class="empty">No handoff in a branch.</p>');
  });
});

describe("hops per task with fan-outs", () => {
  const log = [...events(tenderTask("tender-61")), ...events(scoutTask("quote-1", 30)), ...events(scoutTask("quote-2", 90))];

  it("count each fanned-out task once, to the highest hop of its own chain", () => {
    expect(log.filter((e) => e.task_id === "tender-61").map((e) => [e.receiver, e.hop_index, e.branch, e.join, e.verdict])).toEqual([
      ["lead", 1, null, null, "accepted"],
      ["pricing", 2, "bids/pricing", null, "accepted"],
      ["legal", 2, "bids/legal", null, "accepted"],
      ["tech", 2, "bids/tech", null, "accepted"],
      ["analyst", 3, "bids/pricing", null, "accepted"],
      ["pricing", 4, "bids/pricing", null, "accepted"],
      ["lead", 3, "bids/legal", "held", "accepted"],
      ["lead", 3, "bids/tech", "held", "accepted"],
      ["lead", 5, "bids/pricing", "fired", "accepted"],
      ["desk", 6, null, null, "accepted"],
    ]);
    const report = createReportBuilder();
    for (const event of log) report.add(event);
    const text = formatReportPretty(report.finish());
    // One task of 6 hops and two quotes of 3 (each ends at its join): not a task per branch.
    expect(text.slice(text.indexOf("Hops per task"), text.indexOf("Rejections by producer"))).toBe(
      [
        "Hops per task (a p95 at the hop limit is a loop)",
        "  tender (hop limit 13): 3 tasks, p50 3, p95 6, max 6",
        "       3 hops          2  ##############################",
        "       6 hops          1  ###############",
        "",
        "",
      ].join("\n"),
    );
  });

  it("count the same whatever order merged logs give the events in", () => {
    const reversed = createReportBuilder();
    for (const event of [...log].reverse()) reversed.add(event);
    const ordered = createReportBuilder();
    for (const event of log) ordered.add(event);
    expect(reversed.finish().hop_counts).toEqual(ordered.finish().hop_counts);
  });
});
