/**
 * Formatting never changes a file's diagnostics. The one way the layout could is through a
 * `seam-disable-next-line` comment, which silences findings on the line after it: joining a
 * block onto one line, splitting a long one, or putting two items on their own lines would
 * change what it silences. Checked on every fixture, example and docs sample with a suppression,
 * and on generated files whose suppressions sit before, after and inside items laid out every
 * way the printer changes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { formatSource } from "../../src/parser/print.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Each diagnostic as its rule id, severity, message and the text it points at, sorted. */
function findings(text: string): string[] {
  return checkText("f.seam", text)
    .diagnostics.map((d) => `${d.rule} ${d.severity} ${JSON.stringify(text.slice(d.range.start, d.range.end))}: ${d.message}`)
    .sort();
}

/** The formatted text, which must keep the findings and be formatted already. */
function expectSameFindings(text: string): void {
  const formatted = formatSource(createSourceFile("f.seam", text));
  if (!formatted.ok) throw new Error(`not formatted: ${formatted.diagnostics.map((d) => d.message).join("; ")}`);
  expect(findings(formatted.text)).toEqual(findings(text));
  const again = formatSource(createSourceFile("f.seam", formatted.text));
  expect(again.ok && again.text).toBe(formatted.text);
}

function filesUnder(folder: string, extension: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(extension))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every `.seam` fixture and example, and every ```seam block of the docs, that holds a suppression and formats. */
function samplesWithSuppressions(): [string, string][] {
  const samples: [string, string][] = [];
  for (const path of [...filesUnder("test/fixtures", ".seam"), ...filesUnder("examples", ".seam")]) {
    samples.push([path, readFileSync(join(root, path), "utf8")]);
  }
  for (const path of filesUnder("docs", ".md")) {
    const blocks = [...readFileSync(join(root, path), "utf8").matchAll(/```seam\n([\s\S]*?)```/g)];
    blocks.forEach((m, i) => samples.push([`${path} (block ${i + 1})`, m[1] as string]));
  }
  return samples.filter(([, text]) => text.includes("seam-disable") && formatSource(createSourceFile("f.seam", text)).ok);
}

describe("fmt keeps what each suppression silences", () => {
  const samples = samplesWithSuppressions();

  it("finds the samples (the fixtures of test/fixtures/parser/suppressions/ and the docs' own)", () => {
    expect(samples.map(([path]) => path)).toEqual(
      expect.arrayContaining(["test/fixtures/parser/suppressions/joined-and-split.seam", "test/fixtures/parser/suppressions/long-block.seam"]),
    );
    expect(samples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(samples)("%s: the same findings before and after", (_path, text) => {
    expectSameFindings(text);
  });

  it("joined-and-split.seam: what it silences, in numbers", () => {
    const text = readFileSync(join(root, "test/fixtures/parser/suppressions/joined-and-split.seam"), "utf8");
    expect(findings(text).map((f) => f.split(" ")[0])).toEqual(["max-rounds-zero", "unreachable-agent", "unused-suppression"]);
  });

  it("block-on-code-line.seam: each block directive beside code silences the same line after formatting", () => {
    const text = readFileSync(join(root, "test/fixtures/parser/suppressions/block-on-code-line.seam"), "utf8");
    const unsilenced = ["lead", "spare", "spare3", "spare4", "spare6", "spare8"].map((agent) => `unreachable-agent warning ${JSON.stringify(agent)}`);
    const names = (t: string) => findings(t).map((f) => f.split(":")[0]);
    expect(names(text)).toEqual(unsilenced.filter((f) => !f.endsWith('"lead"')).sort());
    const formatted = formatSource(createSourceFile("f.seam", text));
    expect(formatted.ok && names(formatted.text)).toEqual(names(text));
  });

  it("a file without suppressions is still laid out canonically (blocks joined, items on their own lines)", () => {
    const text = "graph g {\n  entry a\n  agent a: worker {\n    terminal t complete \"t\"\n  } agent b: worker\n}\n";
    const formatted = formatSource(createSourceFile("f.seam", text));
    expect(formatted.ok && formatted.text).toBe('graph g {\n  entry a\n  agent a: worker { terminal t complete "t" }\n  agent b: worker\n}\n');
  });

  it("an item under a seam-disable-next-line comment is printed as written, re-indented", () => {
    const text = "graph g {\n  entry a\n  agent a: worker { terminal t complete \"t\" }\n     // seam-disable-next-line max-rounds-zero -- r\n       transfer a -> a {\n    max_rounds 0\n  }\n}\n";
    const formatted = formatSource(createSourceFile("f.seam", text));
    expect(formatted.ok && formatted.text).toBe(
      'graph g {\n  entry a\n  agent a: worker { terminal t complete "t" }\n  // seam-disable-next-line max-rounds-zero -- r\n  transfer a -> a {\n    max_rounds 0\n  }\n}\n',
    );
  });
});

// Generated files: a few agents and edges that fire rules (unreachable agents, zero rounds, bad
// versions, unknown fields, self-handoffs), each block laid out on one line, on several, or on
// one line too long for the printer; items separated by a line break, a blank line or a space;
// suppressions on their own line before an item or a block item, or at the end of a line; block
// comment suppressions also before an item on its line, between items, inside one-line blocks.

const RULES = ["unreachable-agent", "max-rounds-zero", "invalid-agent-version", "unknown-field", "self-handoff", "role-mismatch", "no-terminal-path"];
const directive = fc
  .subarray(RULES, { minLength: 1, maxLength: 2 })
  .map((rules) => `// seam-disable-next-line ${rules.join(", ")} -- accepted for now`);
/** The block-comment form, which may sit on a line with code before or after it (or span lines). */
const blockDirective = fc
  .tuple(fc.subarray(RULES, { minLength: 1, maxLength: 2 }), fc.constantFrom(" ", "\n  "))
  .map(([rules, end]) => `/* seam-disable-next-line ${rules.join(", ")} -- accepted for now${end}*/`);
const name = fc.constantFrom("lead", "helper", "spare", "other");
const LONG = "goal.statement, goal.acceptance_criteria, goal.out_of_scope, decisions[].evidence, open_questions";

/** A block's items laid out one of three ways: on one line, one per line, or one per line under comments. */
const block = (items: fc.Arbitrary<string[]>, indent: string) =>
  fc.tuple(items, fc.constantFrom("one-line", "lines"), fc.array(fc.option(fc.oneof(directive, blockDirective), { nil: undefined }), { maxLength: 3 }), fc.option(blockDirective, { nil: undefined })).map(([list, layout, notes, inline]) => {
    if (list.length === 0) return "";
    // A block directive inside a one-line block: before its items, or after them.
    if (layout === "one-line") return inline === undefined ? ` { ${list.join(" ")} }` : list.length > 1 ? ` { ${list[0]} ${inline} ${list.slice(1).join(" ")} }` : ` { ${list.join(" ")} ${inline} }`;
    const lines = list.flatMap((item, i) => (notes[i] === undefined ? [] : [`${indent}    ${notes[i]}`]).concat(`${indent}    ${item}`));
    return ` {\n${lines.join("\n")}\n${indent}  }`;
  });

const agentItem = fc.oneof(
  fc.constantFrom('terminal done complete "done"', 'terminal stuck failed "stuck"'),
  fc.constantFrom('version "1.2.0"', 'version "01.2"'),
);
const edgeItem = fc.oneof(
  fc.constantFrom("max_rounds 0", "max_rounds 2", "require goal.statement", "require goal.nonexistent", `require ${LONG}`),
);
const agent = fc
  .tuple(name, fc.constantFrom("supervisor", "worker", "peer"), block(fc.array(agentItem, { maxLength: 2 }), ""))
  .map(([n, role, b]) => `agent ${n}: ${role}${b}`);
const edge = fc
  .tuple(fc.constantFrom("delegate", "return", "transfer"), name, name, block(fc.array(edgeItem, { maxLength: 2 }), ""))
  .map(([kind, from, to, b]) => `${kind} ${from} -> ${to}${b}`);

/**
 * An item with what comes before it: a separator, maybe a suppression on its own line or a block
 * one right before it on its line; maybe one at its end (a block one may have the next item after it).
 */
const placed = fc
  .tuple(
    fc.oneof(agent, edge),
    fc.constantFrom("\n", "\n\n", " "),
    fc.option(fc.oneof(directive, blockDirective), { nil: undefined }),
    fc.option(blockDirective, { nil: undefined }),
    fc.option(fc.oneof(directive, blockDirective), { nil: undefined }),
  )
  .map(([item, separator, before, inline, after]) => {
    const lead = before === undefined ? separator : before.startsWith("//") ? `\n  ${before}\n` : `${separator}${before}\n`;
    const indented = lead.endsWith("\n") ? `  ${item}` : item;
    return `${lead}${inline === undefined ? "" : `${inline} `}${indented}${after === undefined ? "" : ` ${after}`}`;
  });

const generated = fc
  .array(placed, { minLength: 1, maxLength: 7 })
  .map((items) => `seam 1\n\ngraph g {\n  envelope 1.3\n  entry lead\n  agent lead: supervisor { terminal done complete "done" }${items.join("")}\n}\n`);

describe("fmt keeps what each suppression silences: generated files", () => {
  it("holds for every generated layout", () => {
    fc.assert(
      fc.property(generated, (text) => {
        // Only a file without syntax errors is formatted (a duplicate agent name still parses).
        fc.pre(formatSource(createSourceFile("f.seam", text)).ok);
        expectSameFindings(text);
      }),
      { numRuns: Number(process.env["SEAM_FUZZ_RUNS"] ?? 300) },
    );
  });
});
