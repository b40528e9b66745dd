/**
 * `seam report`'s terminal summary: one section per handoff metric, each a small aligned table.
 * Every name that came from a log is escaped and cut after {@link MAX_CELL} code points first:
 * a log is input, and may be hostile. A name the runtime or the report had cut already is cut
 * once, and says how much of the name as written is missing.
 */
import type { Distribution, EdgeKey, HandoffReport } from "../../report/handoff-report.js";
import { escapeUntrusted, joinUntrusted } from "../../core/untrusted-text.js";
import { codePointWidth } from "./display-width.js";

/** Code points of a name cell before the cut. */
export const MAX_CELL = 48;

/** The most rows of the field table printed (the JSON and HTML outputs have them all). */
export const MAX_FIELD_ROWS = 20;

function width(text: string): number {
  let columns = 0;
  for (const char of text) columns += codePointWidth(char.codePointAt(0) as number);
  return columns;
}

/** A table whose columns are aligned as `align` says, one letter per column: `l` left (names), `r` right (numbers). */
function table(header: readonly string[], rows: readonly (readonly string[])[], align: string): string {
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: readonly string[]): string =>
    `  ${cells
      .map((cell, i) => {
        const pad = " ".repeat((widths[i] as number) - width(cell));
        return align[i] === "l" ? cell + pad : pad + cell;
      })
      .join("  ")
      .trimEnd()}\n`;
  return line(header) + rows.map(line).join("");
}

const name = (text: string): string => escapeUntrusted(text, MAX_CELL);
const count = (n: number): string => n.toLocaleString("en-US");
/** `n` and `word`, plural unless n is 1: "1 task", "2 tasks". */
const counted = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? "" : "s"}`;
const num = (n: number | null): string => (n === null ? "-" : n >= 100 ? count(Math.round(n)) : String(Math.round(n * 10) / 10));
const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
const edgeName = (edge: EdgeKey): string => name(joinUntrusted([edge.producer, " -> ", edge.receiver]));
const quantiles = (d: Distribution): string[] => [count(d.count), num(d.p50), num(d.p95), num(d.p99), num(d.max)];

function latencySection(report: HandoffReport): string {
  const { latency } = report;
  let out = `Handoff latency, ms (accepted handoffs, producer finished -> ingested)\n`;
  if (latency.count === 0) return `${out}  no accepted handoff carries a latency\n`;
  const rows = [["all", "", ...quantiles(latency)], ...latency.by_edge.map((e) => [edgeName(e), name(e.kind ?? "-"), ...quantiles(e)])];
  out += table(["edge", "kind", "count", "p50", "p95", "p99", "max"], rows, "llrrrrr");
  const notes: string[] = [];
  if (latency.unknown > 0) notes.push(`${count(latency.unknown)} without a start time`);
  if (latency.negative > 0) notes.push(`${count(latency.negative)} negative (clocks disagree), left out`);
  return notes.length > 0 ? `${out}  (${notes.join("; ")})\n` : out;
}

function sizeSection(report: HandoffReport): string {
  const out = "Envelope size per hop, bytes (a rising p50 means content is being inlined)\n";
  if (report.size_per_hop.length === 0) return `${out}  no handoff carries a size and a hop index\n`;
  const rows = report.size_per_hop.map((h) => [String(h.hop_index), count(h.count), num(h.p50), num(h.p95), num(h.max)]);
  return out + table(["hop", "count", "p50", "p95", "max"], rows, "rrrrr");
}

function hopSection(report: HandoffReport): string {
  let out = "Hops per task (a p95 at the hop limit is a loop)\n";
  if (report.hop_counts.length === 0) return `${out}  no accepted handoff\n`;
  for (const graph of report.hop_counts) {
    const atLimit = graph.p95 !== null && graph.p95 >= graph.hop_limit - 1 ? "  <- p95 at the hop limit" : "";
    out += `  ${name(graph.graph)} (hop limit ${graph.hop_limit}): ${counted(graph.tasks, "task")}, p50 ${num(graph.p50)}, p95 ${num(graph.p95)}, max ${num(graph.max)}${atLimit}\n`;
    if (graph.stopped_at_limit > 0) out += `    ${counted(graph.stopped_at_limit, "handoff")} refused at the hop limit\n`;
    const most = Math.max(1, ...graph.distribution.map((d) => d.tasks));
    for (const { hops, tasks } of graph.distribution) {
      const bar = "#".repeat(Math.max(1, Math.round((tasks / most) * 30)));
      out += `    ${String(hops).padStart(4)} hops  ${count(tasks).padStart(9)}  ${bar}\n`;
    }
  }
  return out;
}

function rejectionSection(report: HandoffReport): string {
  let out = "Rejections by producer (rejected + observed) / handoffs\n";
  const { by_producer, by_field } = report.rejections;
  if (by_producer.length === 0) return `${out}  no handoff\n`;
  out += table(
    ["producer", "handoffs", "rejected", "observed", "rate"],
    by_producer.map((p) => [name(p.producer), count(p.handoffs), count(p.rejected), count(p.observed), percent(p.rate)]),
    "lrrrr",
  );
  if (by_field.length === 0) return out;
  out += `By field and rule${by_field.length > MAX_FIELD_ROWS ? ` (top ${MAX_FIELD_ROWS} of ${count(by_field.length)})` : ""}\n`;
  out += table(
    ["producer", "field", "rule", "count"],
    by_field.slice(0, MAX_FIELD_ROWS).map((f) => [name(f.producer), name(f.field || "/"), name(f.rule), count(f.count)]),
    "lllr",
  );
  return out;
}

function statusSection(report: HandoffReport): string {
  const out = "Status per edge (envelope status; verdicts)\n";
  if (report.status_per_edge.length === 0) return `${out}  no handoff\n`;
  const rows = report.status_per_edge.map((e) => [
    edgeName(e),
    name(e.kind ?? "-"),
    count(e.handoffs),
    e.statuses.map((s) => `${name(s.status)} ${count(s.count)}`).join(", ") || "-",
    Object.entries(e.verdicts)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${v} ${count(n)}`)
      .join(", "),
  ]);
  return out + table(["edge", "kind", "handoffs", "statuses", "verdicts"], rows, "llrll");
}

function fanOutSection(report: HandoffReport): string {
  const { fan_outs: fanOuts } = report;
  let out = "Fan-outs (branches per task and fan-out; join wait, ms: first branch handoff -> the arrival that fired the join)\n";
  if (fanOuts.fan_outs === 0) return `${out}  no handoff in a branch\n`;
  const spread = fanOuts.branches.distribution.map((d) => `${count(d.fan_outs)} with ${d.branches}`).join(", ");
  out += `  ${count(fanOuts.fan_outs)} fan-outs: branches p50 ${num(fanOuts.branches.p50)}, max ${num(fanOuts.branches.max)} (${spread})\n`;
  const wait = fanOuts.join_wait;
  if (wait.count === 0) return `${out}  no join fired\n`;
  const rows = [["all", ...quantiles(wait)], ...wait.by_join.map((j) => [name(j.join), ...quantiles(j)])];
  return out + table(["join", "count", "p50", "p95", "p99", "max"], rows, "lrrrrr");
}

function versionSection(report: HandoffReport): string {
  const out = "Envelope versions in flight\n";
  if (report.versions.length === 0) return `${out}  no handoff\n`;
  const rows = report.versions.map((v) => [name(v.envelope_version), count(v.handoffs), v.first_at ?? "-", v.last_at ?? "-"]);
  return out + table(["version", "handoffs", "first seen", "last seen"], rows, "lrll");
}

/** The whole terminal summary of `report`, ending in a newline. */
export function formatReportPretty(report: HandoffReport): string {
  const v = report.verdicts;
  const span = report.first_at === null ? "" : ` from ${report.first_at} to ${report.last_at}`;
  let out = `${counted(report.handoffs, "handoff")}${span}: `;
  out += `${count(v.accepted)} accepted, ${count(v.observed)} observed, ${count(v.rejected)} rejected, ${count(v.duplicate)} duplicate\n`;
  out += `(quantiles within ${report.quantiles.relative_error * 100}% of a true value; hops exact)\n`;
  for (const section of [latencySection, sizeSection, hopSection, rejectionSection, statusSection, fanOutSection, versionSection]) out += `\n${section(report)}`;
  if (report.cut.length > 0) out += `\nToo many distinct ${report.cut.join(", ")}: the rest are counted as "(other)".\n`;
  return out;
}
