/**
 * The HTML report in a real browser: Debian's headless Chromium, driven by playwright-core.
 * Skipped (one line naming the package) where /usr/bin/chromium is missing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeEventLog } from "../../bench/gen-events.mjs";
import { reportCommand } from "../../src/cli/commands/report.js";
import type { HandoffReport } from "../../src/report/handoff-report.js";
import { fixturePath, makeTempDir, readFixture, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "../cli/fake-io.js";

const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available) console.warn("skipped: the HTML report tests need Debian's chromium package (apt-get install chromium)");

let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!available) return;
  profile = mkdtempSync(join(tmpdir(), "seam-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  removeTempDirs();
});

/** Writes the page of `logs` (files in `dir`) to a temporary folder and opens it; returns the page, its console errors and every request it made. */
async function openReport(dir: string, logs: string[]): Promise<{ page: Page; errors: string[]; requests: string[]; report: HandoffReport }> {
  const html = join(makeTempDir("report-page"), "report.html");
  const io = createFakeIo(dir);
  expect(await reportCommand({ logs, format: "json", html }, io)).toBe(0);
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
  return { page, errors, requests, report: JSON.parse(io.out()) as HandoffReport };
}

/** `data-value` of the marks matching `selector`, keyed by `key`'s attribute. */
async function values(page: Page, selector: string, key: string): Promise<Record<string, number>> {
  return page.$$eval(
    selector,
    (marks, attribute) => Object.fromEntries(marks.map((m) => [m.getAttribute(attribute) ?? "", Number(m.getAttribute("data-value"))])),
    key,
  );
}

function near(actual: number | undefined, truth: number): void {
  expect(actual).toBeDefined();
  expect(Math.abs((actual as number) - truth)).toBeLessThanOrEqual(truth * 0.01);
}

describe.skipIf(!available)("seam report --html in headless Chromium", () => {
  it("renders the known log without errors or requests, and its charts hold the log's numbers", async () => {
    const { page, errors, requests } = await openReport(fixturePath("report"), ["known.jsonl"]);
    expect(errors).toEqual([]);
    expect(requests).toHaveLength(1); // the page itself: no script, font, image or style fetched
    expect(await page.textContent("#summary")).toBe(
      "13 handoffs from 2026-11-23T10:00:00.000Z to 2026-11-26T10:02:00.000Z: 8 accepted, 1 observed, 3 rejected, 1 duplicate.",
    );
    // Every chart is laid out with a real size.
    const boxes = await page.$$eval("svg.chart", (charts) => charts.map((c) => c.getBoundingClientRect()).map((r) => [r.width, r.height]));
    expect(boxes).toHaveLength(6);
    for (const [width, height] of boxes) {
      expect(width).toBeGreaterThan(300);
      expect(height).toBeGreaterThan(40);
    }

    const p50 = await values(page, '#chart-latency .mark[data-series="p50"]', "data-label");
    near(p50["triage -> billing (delegate)"], 400);
    near(p50["billing -> refunds (transfer)"], 500);
    const p95Sizes = await values(page, '#chart-size .mark[data-series="p95"]', "data-x");
    expect(Object.keys(p95Sizes)).toEqual(["1", "2", "3", "4"]);
    near(p95Sizes["4"], 4300);

    expect(await values(page, "#chart-hops-0 .mark", "data-x")).toEqual({ "1": 1, "2": 1, "3": 2 });
    const markers = await page.$$eval("#chart-hops-0 .marker", (lines) => lines.map((l) => [l.getAttribute("data-name"), Number(l.getAttribute("data-x"))]));
    expect(markers).toEqual([
      ["p50", 2],
      ["p95", 3],
      ["hop limit", 4],
    ]);

    expect(await values(page, "#chart-rejections .mark", "data-label")).toEqual({ notifier: 100, billing: 33.3, triage: 33.3, refunds: 0 });
    expect(await values(page, '#chart-status .mark[data-label="triage -> billing (delegate)"]', "data-series")).toEqual({
      "(none)": 1,
      blocked: 0,
      partial: 0,
      ready: 5,
    });
    expect(await values(page, "#chart-versions .mark", "data-label")).toEqual({ "1.3.0": 11, "1.2.0": 1 });
    // A bar's drawn width is proportional to its value.
    const widths = await page.$$eval("#chart-versions .mark", (bars) => bars.map((b) => b.getBoundingClientRect().width));
    expect((widths[0] as number) / (widths[1] as number)).toBeCloseTo(11, 0);
    await page.close();
  });

  it("shows hostile names from a log as text, never as markup", async () => {
    const dir = makeTempDir("report-html");
    const line = readFixture("report", "known.jsonl").split("\n")[0] as string;
    const event = JSON.parse(line) as Record<string, unknown>;
    const hostile = [
      { ...event, producer: "<script>document.title='owned'</script>", verdict: "rejected", route: "repair", reasons: [{ path: "/a'><img src=x onerror=alert(1)>", rule: "x" }], reasons_total: 1 },
      { ...event, receiver: '"><svg onload=alert(1)>', envelope_version: "</style><b>bold</b>" },
    ];
    writeFileSync(join(dir, "hostile.jsonl"), hostile.map((e) => JSON.stringify(e)).join("\n"));
    const { page, errors } = await openReport(dir, ["hostile.jsonl"]);
    expect(errors).toEqual([]);
    expect(await page.title()).toBe("Seam handoff report");
    expect(await page.$$("script, img, b, svg svg")).toHaveLength(0);
    expect(await page.textContent("#table-fields")).toContain("/a'><img src=x onerror=alert(1)>");
    expect(await page.textContent("body")).toContain("<script>document.title='owned'</script>");
    await page.close();
  });

  it("renders a generated week of traffic (20,000 handoffs) with the report's numbers", async () => {
    const dir = makeTempDir("report-html");
    await writeEventLog(join(dir, "week.jsonl"), { events: 20_000, seed: 11 });
    const { page, errors, report } = await openReport(dir, ["week.jsonl"]);
    expect(errors).toEqual([]);
    expect(report.handoffs).toBe(20_000);
    expect(await page.textContent("#summary")).toContain("20000 handoffs from 2026-11-23");
    const graph = report.hop_counts[0]!;
    const columns = await values(page, "#chart-hops-0 .mark", "data-x");
    expect(columns).toEqual(Object.fromEntries(graph.distribution.map((d) => [String(d.hops), d.tasks])));
    const versions = await values(page, "#chart-versions .mark", "data-label");
    expect(versions).toEqual(Object.fromEntries(report.versions.map((v) => [v.envelope_version, v.handoffs])));
    await page.close();
  });
});
