/**
 * `seam report --html`: one self-contained page (inline CSS and SVG, no script, a
 * Content-Security-Policy that forbids every fetch) with a chart and a table of exact numbers
 * per handoff metric. Every text from the logs is escaped.
 */
import type { EdgeKey, HandoffReport } from "./handoff-report.js";
import { barChart, columnChart, escapeHtml, formatNumber, lineChart, type Series } from "./svg-charts.js";

const P50: Series = { name: "p50", color: "#4878a8" };
const P95: Series = { name: "p95", color: "#e0803a" };

/** Colours of the completion statuses, then of anything else. */
const STATUS_COLORS: Readonly<Record<string, string>> = {
  ready: "#4c9a5b",
  partial: "#9fc36b",
  blocked: "#d9534f",
  waiting_review: "#f0ad4e",
  failed: "#7b2d26",
  "(none)": "#9e9e9e",
};
const EXTRA_COLORS = ["#6f5aa8", "#3aa0b0", "#b05a8c", "#8c7a3a", "#555555"];

const edgeLabel = (e: EdgeKey): string => `${e.producer} -> ${e.receiver}${e.kind === null ? "" : ` (${e.kind})`}`;
const cell = (value: string | number | null): string =>
  typeof value === "number" ? `<td class="n">${escapeHtml(formatNumber(value))}</td>` : `<td>${escapeHtml(value ?? "-")}</td>`;
const head = (...names: string[]): string => `<tr>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr>`;
const rows = (list: readonly (readonly (string | number | null)[])[]): string => list.map((r) => `<tr>${r.map(cell).join("")}</tr>`).join("");

function section(id: string, title: string, explain: string, body: string): string {
  return `<section id="${id}"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(explain)}</p>${body}</section>`;
}

function empty(what: string): string {
  return `<p class="empty">${escapeHtml(what)}</p>`;
}

function latency(report: HandoffReport): string {
  const { latency: l } = report;
  const list = l.by_edge;
  const body =
    list.length === 0
      ? empty("No accepted handoff carries a latency.")
      : barChart("chart-latency", "Handoff latency by edge, ms", [P50, P95], list.map((e) => ({ label: edgeLabel(e), values: [e.p50 ?? 0, e.p95 ?? 0] }))) +
        `<table>${head("edge", "count", "p50 ms", "p95 ms", "p99 ms", "max ms")}${rows([
          ["all edges", l.count, l.p50, l.p95, l.p99, l.max],
          ...list.map((e) => [edgeLabel(e), e.count, e.p50, e.p95, e.p99, e.max]),
        ])}</table>` +
        (l.unknown + l.negative > 0 ? `<p>${escapeHtml(`${l.unknown} accepted handoffs carry no start time; ${l.negative} have a negative latency (the clocks disagree) and are left out.`)}</p>` : "");
  return section("latency", "Handoff latency", "From when the producer finished to when the receiver had ingested the envelope, accepted handoffs only.", body);
}

function sizes(report: HandoffReport): string {
  const numbered = report.size_per_hop.filter((h): h is typeof h & { hop_index: number } => typeof h.hop_index === "number");
  const body =
    numbered.length === 0
      ? empty("No handoff carries a size and a hop index.")
      : lineChart("chart-size", "Envelope size per hop, bytes", "hop index", [P50, P95], numbered.map((h) => ({ x: h.hop_index, values: [h.p50 ?? 0, h.p95 ?? 0] }))) +
        `<table>${head("hop", "count", "p50 bytes", "p95 bytes", "max bytes")}${rows(report.size_per_hop.map((h) => [String(h.hop_index), h.count, h.p50, h.p95, h.max]))}</table>`;
  return section("size", "Envelope size per hop", "A flat line means envelopes carry pointers; a rising one means something is being inlined.", body);
}

function hops(report: HandoffReport): string {
  const body =
    report.hop_counts.length === 0
      ? empty("No accepted handoff.")
      : report.hop_counts
          .map((g, i) => {
            const markers = [
              ...(g.p50 === null ? [] : [{ name: "p50", x: g.p50, color: "#2b5d8a" }]),
              ...(g.p95 === null ? [] : [{ name: "p95", x: g.p95, color: "#c0602a" }]),
              { name: "hop limit", x: g.hop_limit, color: "#b00020" },
            ];
            const title = `Tasks by hops taken, graph ${g.graph} (hop limit ${g.hop_limit})`;
            return (
              `<h3>${escapeHtml(`${g.graph}: ${g.tasks} task${g.tasks === 1 ? "" : "s"}, p50 ${g.p50 ?? "-"}, p95 ${g.p95 ?? "-"}, hop limit ${g.hop_limit}, ${g.stopped_at_limit} handoff${g.stopped_at_limit === 1 ? "" : "s"} refused at the limit`)}</h3>` +
              columnChart(`chart-hops-${i}`, title, "hops per task", g.distribution.map((d) => ({ x: d.hops, value: d.tasks })), markers)
            );
          })
          .join("");
  return section("hops", "Hops per task", "A distribution, not an average: a p95 sitting at the hop limit is a loop.", body);
}

function fanOuts(report: HandoffReport): string {
  const f = report.fan_outs;
  const w = f.join_wait;
  const body =
    f.fan_outs === 0
      ? empty("No handoff in a branch.")
      : `<h3>${escapeHtml(`${f.fan_outs} fan-outs: branches p50 ${f.branches.p50 ?? "-"}, max ${f.branches.max ?? "-"}`)}</h3>` +
        columnChart("chart-branches", "Task fan-outs by branches accepted", "branches per task fan-out", f.branches.distribution.map((d) => ({ x: d.branches, value: d.fan_outs })), []) +
        (w.by_join.length === 0
          ? empty("No join fired.")
          : barChart("chart-join-wait", "Join wait by join agent, ms", [P50, P95], w.by_join.map((j) => ({ label: j.join, values: [j.p50 ?? 0, j.p95 ?? 0] }))) +
            `<table id="table-join-wait">${head("join", "fired", "p50 ms", "p95 ms", "p99 ms", "max ms")}${rows([
              ["all joins", w.count, w.p50, w.p95, w.p99, w.max],
              ...w.by_join.map((j) => [j.join, j.count, j.p50, j.p95, j.p99, j.max]),
            ])}</table>`);
  return section("fan-outs", "Fan-outs and joins", "Branches per task fan-out, and how long each join waited: from the first branch handoff to the arrival that fired it.", body);
}

function rejections(report: HandoffReport): string {
  const { by_producer, by_field } = report.rejections;
  const body =
    by_producer.length === 0
      ? empty("No handoff.")
      : barChart(
          "chart-rejections",
          "Rejection rate by producer, % (rejected or observed with warnings)",
          [{ name: "rate %", color: "#d9534f" }],
          by_producer.map((p) => ({ label: p.producer, values: [Math.round(p.rate * 1000) / 10] })),
        ) +
        `<table>${head("producer", "handoffs", "rejected", "observed", "rate")}${rows(
          by_producer.map((p) => [p.producer, p.handoffs, p.rejected, p.observed, `${(p.rate * 100).toFixed(1)}%`]),
        )}</table>` +
        (by_field.length === 0
          ? ""
          : `<h3>By field and rule</h3><table id="table-fields">${head("producer", "field", "rule", "count")}${rows(by_field.map((f) => [f.producer, f.field || "/", f.rule, f.count]))}</table>`);
  return section("rejections", "Ingest rejections by producer and field", "Which agent sends malformed envelopes, and which field it keeps getting wrong.", body);
}

function statuses(report: HandoffReport): string {
  const list = report.status_per_edge;
  const names = [...new Set(list.flatMap((e) => e.statuses.map((s) => s.status)))].sort();
  let extra = 0;
  const series = names.map((name) => ({ name, color: STATUS_COLORS[name] ?? (EXTRA_COLORS[extra++ % EXTRA_COLORS.length] as string) }));
  const body =
    list.length === 0
      ? empty("No handoff.")
      : barChart(
          "chart-status",
          "Envelope status per edge, handoffs",
          series,
          list.map((e) => ({ label: edgeLabel(e), values: names.map((n) => e.statuses.find((s) => s.status === n)?.count ?? 0) })),
          true,
        ) +
        `<table>${head("edge", "handoffs", "accepted", "observed", "rejected", "duplicate")}${rows(
          list.map((e) => [edgeLabel(e), e.handoffs, e.verdicts.accepted, e.verdicts.observed, e.verdicts.rejected, e.verdicts.duplicate]),
        )}</table>`;
  return section("status", "Status per edge", "An edge that often hands over partial or blocked work needs a closer look at its producer.", body);
}

function versions(report: HandoffReport): string {
  const body =
    report.versions.length === 0
      ? empty("No handoff.")
      : barChart("chart-versions", "Handoffs by envelope version", [{ name: "handoffs", color: "#6f5aa8" }], report.versions.map((v) => ({ label: v.envelope_version, values: [v.handoffs] }))) +
        `<table>${head("version", "handoffs", "first seen", "last seen")}${rows(report.versions.map((v) => [v.envelope_version, v.handoffs, v.first_at, v.last_at]))}</table>`;
  return section("versions", "Envelope versions in flight", "An old version still seen late in the period is a migration that has not finished.", body);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}
td.n{text-align:right}.empty{color:#777}svg{max-width:100%;height:auto}.note{color:#555;font-size:.9em}`;

/**
 * The whole HTML page for `report`.
 *
 * @param report - the summary
 * @param files - the log files, as the user named them (shown in the header)
 */
export function formatReportHtml(report: HandoffReport, files: readonly string[]): string {
  const v = report.verdicts;
  const period = report.first_at === null ? "" : ` from ${report.first_at} to ${report.last_at}`;
  const summary = `${report.handoffs} handoffs${period}: ${v.accepted} accepted, ${v.observed} observed, ${v.rejected} rejected, ${v.duplicate} duplicate.`;
  const cut = report.cut.length > 0 ? `<p class="note">${escapeHtml(`Too many distinct ${report.cut.join(", ")}: the rest are counted as "(other)".`)}</p>` : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Seam handoff report</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Seam handoff report</h1>
<p id="summary">${escapeHtml(summary)}</p>
<p class="note">${escapeHtml(`Logs: ${files.join(", ")}. Latency and size quantiles are within ${report.quantiles.relative_error * 100}% of a true value (${report.quantiles.method}); hop counts are exact.`)}</p>
${cut}
${latency(report)}
${sizes(report)}
${hops(report)}
${fanOuts(report)}
${rejections(report)}
${statuses(report)}
${versions(report)}
</body>
</html>
`;
}
