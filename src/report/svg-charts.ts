/**
 * The charts of `seam report --html`, as inline SVG strings: no script, no font or image
 * fetched, so the page shows the same thing offline. Every mark carries its numbers as `data-*`
 * attributes and a `<title>` (a tooltip, and what screen readers read), so tests and people can
 * read exact values off the picture. Every text is escaped with {@link escapeHtml}.
 */
/** The longest row label drawn, in code points (the full label is in `data-label` and the tooltip). */
const MAX_LABEL = 36;

/** `label` cut to {@link MAX_LABEL} code points for the picture; the report's names are already escaped. */
function shorten(label: string): string {
  const points = [...label];
  return points.length <= MAX_LABEL ? label : `${points.slice(0, MAX_LABEL - 1).join("")}…`;
}

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number in a chart label: whole numbers with thousands separators, else one decimal. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) || Math.abs(value) >= 100
    ? Math.round(value).toLocaleString("en-US")
    : (Math.round(value * 10) / 10).toLocaleString("en-US");
}

/** One series of a bar chart: its name and colour. */
export interface Series {
  readonly name: string;
  readonly color: string;
}

/** One row of a bar chart: a label and one value per series. */
export interface BarRow {
  readonly label: string;
  readonly values: readonly number[];
}

const FONT = `font-family="system-ui, sans-serif" font-size="12"`;
const LABEL_WIDTH = 240;
const CHART_WIDTH = 760;

function legend(series: readonly Series[], y: number): string {
  return series
    .map(
      (s, i) =>
        `<g transform="translate(${LABEL_WIDTH + i * 130},${y})"><rect width="12" height="12" fill="${s.color}"/><text x="18" y="11" ${FONT}>${escapeHtml(s.name)}</text></g>`,
    )
    .join("");
}

/**
 * A horizontal bar chart, one row per label, one bar per series (grouped) or one bar split into
 * segments (stacked). Each bar is `<rect class="mark" data-label data-series data-value>`.
 *
 * @param id - the chart's id (unique on the page)
 * @param title - what the chart shows, with its unit
 * @param series - the series, in drawing order
 * @param rows - the rows, top to bottom
 * @param stacked - segments of one bar instead of bars side by side
 */
export function barChart(id: string, title: string, series: readonly Series[], rows: readonly BarRow[], stacked = false): string {
  const barHeight = 14;
  const rowHeight = stacked ? 24 : series.length * barHeight + 10;
  const top = 28;
  const height = top + rows.length * rowHeight + 10;
  const plot = CHART_WIDTH - LABEL_WIDTH - 70;
  const largest = Math.max(1e-9, ...rows.map((r) => (stacked ? r.values.reduce((a, b) => a + b, 0) : Math.max(0, ...r.values))));
  const marks = rows.map((row, r) => {
    const y = top + r * rowHeight;
    let x = LABEL_WIDTH;
    const bars = row.values.map((value, s) => {
      const w = (Math.max(0, value) / largest) * plot;
      const serie = series[s] as Series;
      const by = stacked ? y : y + s * barHeight;
      const rect = `<rect class="mark" x="${x.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${serie.color}" data-label="${escapeHtml(row.label)}" data-series="${escapeHtml(serie.name)}" data-value="${value}"><title>${escapeHtml(`${row.label}, ${serie.name}: ${formatNumber(value)}`)}</title></rect>`;
      const label = stacked ? "" : `<text x="${(x + w + 4).toFixed(1)}" y="${by + barHeight - 4}" ${FONT}>${escapeHtml(formatNumber(value))}</text>`;
      if (stacked) x += w;
      return rect + label;
    });
    const total = stacked
      ? `<text x="${(x + 4).toFixed(1)}" y="${y + barHeight - 4}" ${FONT}>${escapeHtml(formatNumber(row.values.reduce((a, b) => a + b, 0)))}</text>`
      : "";
    return `<text x="${LABEL_WIDTH - 8}" y="${y + barHeight - 4}" text-anchor="end" ${FONT}>${escapeHtml(shorten(row.label))}</text>${bars.join("")}${total}`;
  });
  return svg(id, title, height, legend(series, 4) + marks.join(""));
}

/** One point of a line chart: x and a value per series. */
export interface LinePoint {
  readonly x: number;
  readonly values: readonly number[];
}

/**
 * A line chart over whole-number x (hop indexes), one polyline per series, each point a
 * `<circle class="mark" data-x data-series data-value>`.
 *
 * @param id - the chart's id
 * @param title - what the chart shows, with its units
 * @param xLabel - the name of the x axis
 * @param series - the series
 * @param points - ascending in x
 */
export function lineChart(id: string, title: string, xLabel: string, series: readonly Series[], points: readonly LinePoint[]): string {
  const height = 300;
  const left = 70;
  const top = 30;
  const bottom = height - 40;
  const right = CHART_WIDTH - 20;
  const xs = points.map((p) => p.x);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const largest = Math.max(1e-9, ...points.flatMap((p) => p.values));
  const px = (x: number): number => (maxX === minX ? (left + right) / 2 : left + ((x - minX) / (maxX - minX)) * (right - left));
  const py = (v: number): number => bottom - (v / largest) * (bottom - top);
  let body = legend(series, 4);
  body += `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#888"/><line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#888"/>`;
  body += `<text x="${left - 6}" y="${top + 4}" text-anchor="end" ${FONT}>${escapeHtml(formatNumber(largest))}</text><text x="${left - 6}" y="${bottom}" text-anchor="end" ${FONT}>0</text>`;
  body += `<text x="${(left + right) / 2}" y="${height - 6}" text-anchor="middle" ${FONT}>${escapeHtml(xLabel)}</text>`;
  for (const x of xs) body += `<text x="${px(x).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" ${FONT}>${x}</text>`;
  series.forEach((serie, s) => {
    const path = points.map((p) => `${px(p.x).toFixed(1)},${py(p.values[s] as number).toFixed(1)}`).join(" ");
    body += `<polyline points="${path}" fill="none" stroke="${serie.color}" stroke-width="2"/>`;
    for (const p of points) {
      const value = p.values[s] as number;
      body += `<circle class="mark" cx="${px(p.x).toFixed(1)}" cy="${py(value).toFixed(1)}" r="4" fill="${serie.color}" data-x="${p.x}" data-series="${escapeHtml(serie.name)}" data-value="${value}"><title>${escapeHtml(`${xLabel} ${p.x}, ${serie.name}: ${formatNumber(value)}`)}</title></circle>`;
    }
  });
  return svg(id, title, height, body);
}

/** A vertical line across a column chart: a quantile or a limit. */
export interface Marker {
  readonly name: string;
  readonly x: number;
  readonly color: string;
}

/**
 * A column chart over whole-number x (hops per task) with vertical markers. Columns are
 * `<rect class="mark" data-x data-value>`, markers `<line class="marker" data-name data-x>`.
 *
 * @param id - the chart's id
 * @param title - what the chart shows
 * @param xLabel - the name of the x axis
 * @param columns - x and count, ascending in x
 * @param markers - lines drawn at their x (the axis stretches to include them)
 */
export function columnChart(id: string, title: string, xLabel: string, columns: readonly { x: number; value: number }[], markers: readonly Marker[]): string {
  const height = 300;
  const left = 70;
  const top = 40;
  const bottom = height - 40;
  const right = CHART_WIDTH - 20;
  const xs = [...columns.map((c) => c.x), ...markers.map((m) => m.x)];
  const minX = Math.min(0, ...xs);
  const maxX = Math.max(1, ...xs);
  const slot = (right - left) / (maxX - minX + 1);
  const px = (x: number): number => left + (x - minX + 0.5) * slot;
  const largest = Math.max(1, ...columns.map((c) => c.value));
  let body = `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#888"/>`;
  body += `<text x="${left - 6}" y="${top + 4}" text-anchor="end" ${FONT}>${escapeHtml(formatNumber(largest))}</text>`;
  body += `<text x="${(left + right) / 2}" y="${height - 6}" text-anchor="middle" ${FONT}>${escapeHtml(xLabel)}</text>`;
  const step = Math.max(1, Math.ceil((maxX - minX + 1) / 30));
  for (let x = minX; x <= maxX; x += step) body += `<text x="${px(x).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" ${FONT}>${x}</text>`;
  for (const c of columns) {
    const h = (c.value / largest) * (bottom - top);
    body += `<rect class="mark" x="${(px(c.x) - slot * 0.4).toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(slot * 0.8).toFixed(1)}" height="${h.toFixed(1)}" fill="#4878a8" data-x="${c.x}" data-value="${c.value}"><title>${escapeHtml(`${xLabel} ${c.x}: ${formatNumber(c.value)}`)}</title></rect>`;
  }
  markers.forEach((m, i) => {
    body += `<line class="marker" x1="${px(m.x).toFixed(1)}" y1="${top - 8}" x2="${px(m.x).toFixed(1)}" y2="${bottom}" stroke="${m.color}" stroke-width="2" stroke-dasharray="5 3" data-name="${escapeHtml(m.name)}" data-x="${m.x}"><title>${escapeHtml(`${m.name}: ${m.x}`)}</title></line>`;
    body += `<text x="${(px(m.x) + 4).toFixed(1)}" y="${top - 10 + i * 12}" fill="${m.color}" ${FONT}>${escapeHtml(`${m.name} ${m.x}`)}</text>`;
  });
  return svg(id, title, height, body);
}

function svg(id: string, title: string, height: number, body: string): string {
  return `<svg id="${escapeHtml(id)}" class="chart" role="img" aria-labelledby="${escapeHtml(id)}-title" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" xmlns="http://www.w3.org/2000/svg"><title id="${escapeHtml(id)}-title">${escapeHtml(title)}</title>${body}</svg>`;
}
