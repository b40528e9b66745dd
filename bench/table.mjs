// Turns bench results into the printed tables: one per section, columns measure | seam | peer |
// ratio | target | result. Sections build rows with `row()`, which judges a ratio against its
// target so that PASS/MISS is decided in one place.

/** Formats milliseconds with a unit that keeps 3 significant digits. */
export function fmtMs(ms) {
  if (ms >= 1000) return `${(ms / 1000).toPrecision(3)} s`;
  if (ms >= 1) return `${ms.toPrecision(3)} ms`;
  return `${(ms * 1000).toPrecision(3)} µs`;
}

/** Formats nanoseconds per operation. */
export function fmtNs(ns) {
  if (ns >= 1e9) return `${(ns / 1e9).toPrecision(3)} s/op`;
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms/op`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs/op`;
  return `${ns.toPrecision(3)} ns/op`;
}

/** Formats a byte count in MiB. */
export function fmtBytes(bytes) {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * One table row.
 * @param {string} measure - what is measured
 * @param {string} seam - Seam's value, formatted
 * @param {string} peer - the peer's value, formatted ("" when there is no peer)
 * @param {{ ratio?: number, target?: { op: "<=" | ">=", value: number, unit?: string } }} [judge]
 *   `ratio` as printed; `target` the bound it must meet (unit defaults to "x")
 */
export function row(measure, seam, peer, { ratio, target } = {}) {
  let pass = null;
  if (target && ratio !== undefined) pass = target.op === "<=" ? ratio <= target.value : ratio >= target.value;
  return {
    measure,
    seam,
    peer,
    ratio: ratio === undefined ? "" : ratio >= 100 ? ratio.toFixed(0) : ratio.toFixed(2),
    ratioValue: ratio ?? null,
    target: target ? `${target.op} ${target.value}${target.unit ?? "x"}` : "",
    pass,
  };
}

/** Renders a section's rows as an aligned text table under its title. */
export function formatTable(title, rows) {
  const header = ["measure", "seam", "peer", "ratio", "target", "result"];
  const cells = rows.map((r) => [r.measure, r.seam, r.peer, r.ratio, r.target, r.pass === null ? "" : r.pass ? "PASS" : "MISS"]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((line) => line[c].length)));
  const render = (line) => line.map((cell, c) => cell.padEnd(widths[c])).join(" | ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("-|-");
  return [`## ${title}`, render(header), rule, ...cells.map(render)].join("\n");
}
