import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SECTIONS } from "../../bench/sections.mjs";
import { generatedPart, PAGE, PUBLISHED, renderTables, withTables, type BenchResults } from "../../scripts/bench-tables.mjs";

const published = JSON.parse(readFileSync(PUBLISHED, "utf8")) as BenchResults;
const page = readFileSync(PAGE, "utf8");
const committed = generatedPart(page);

/** The shape of generated tables: per section heading, its columns and its rows' measures. */
function shape(markdown: string): { heading: string; columns: string[]; measures: string[] }[] {
  const sections: { heading: string; columns: string[]; measures: string[] }[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("### ")) sections.push({ heading: line.slice(4).split(":")[0] as string, columns: [], measures: [] });
    else if (line.startsWith("|") && !line.startsWith("|---")) {
      const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
      const section = sections.at(-1);
      if (section === undefined) throw new Error(`a table row before any section heading: ${line}`);
      if (section.columns.length === 0) section.columns = cells;
      else section.measures.push(cells[0] as string);
    }
  }
  return sections;
}

describe("docs/performance.md", () => {
  it("has its tables between the generated markers", () => {
    expect(committed).toBeDefined();
  });

  it("shows tables of the same shape as the generator makes from bench/results.json", () => {
    const generated = renderTables(published);
    expect(shape(committed as string)).toEqual(shape(generated));
    expect(shape(generated).map((s) => s.heading)).toEqual([...SECTIONS]);
  });

  it("shows exactly the generator's output, so no figure in it is typed by hand", () => {
    expect(committed).toBe(renderTables(published));
  });

  it("states no figure outside the generated tables", () => {
    const outside = page.replace(committed as string, "");
    expect(outside.match(/\d(?:[\d.,]*)\s?(?:ms|µs|ns|s\/op|MiB|MB|GiB|x)\b/g)).toBeNull();
  });
});

describe("bench/results.json, the run the page shows", () => {
  it("is a full run of every section, none crashed", () => {
    expect(published.smoke).toBe(false);
    expect(published.sections.map((s) => s.name)).toEqual([...SECTIONS]);
    expect(published.sections.filter((s) => s.error !== undefined)).toEqual([]);
    for (const section of published.sections) expect(section.rows.length).toBeGreaterThan(0);
  });
});

describe("the generator", () => {
  it("notices a row that is not in the page", () => {
    const [first, ...rest] = published.sections;
    const shorter = { ...published, sections: [{ ...first, rows: first!.rows.slice(1) }, ...rest] } as BenchResults;
    expect(shape(renderTables(shorter))).not.toEqual(shape(committed as string));
  });

  it("refuses a smoke run and a run where a section crashed", () => {
    expect(() => renderTables({ ...published, smoke: true })).toThrow(
      "these are the results of a smoke run (npm run bench -- --smoke): run the full bench",
    );
    const crashed = { ...published, sections: [{ ...published.sections[0]!, error: "exited 1" }, ...published.sections.slice(1)] } as BenchResults;
    expect(() => renderTables(crashed)).toThrow(`sections crashed in this run: ${published.sections[0]!.name} (exited 1)`);
  });

  it("escapes a | in a cell and writes between the markers only", () => {
    const [first, ...rest] = published.sections;
    const row = { ...first!.rows[0]!, measure: "a | b" };
    const piped = { ...published, sections: [{ ...first!, rows: [row] }, ...rest] } as BenchResults;
    expect(renderTables(piped)).toContain("| a \\| b |");
    const rewritten = withTables(page, "TABLES");
    expect(generatedPart(rewritten)).toBe("TABLES");
    expect(rewritten.slice(0, rewritten.indexOf("TABLES"))).toBe(page.slice(0, page.indexOf(committed as string)));
  });
});
