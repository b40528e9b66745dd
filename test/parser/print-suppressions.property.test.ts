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

/** The formatted text of `text`, checked to keep its findings and to be formatted already. */
function formatted(text: string): string {
  expectSameFindings(text);
  const result = formatSource(createSourceFile("f.seam", text));
  return result.ok ? result.text : "";
}

describe("fmt keeps the line after each directive: the user trial's files", () => {
  it("a block directive followed by a line comment stays on its line above the item it silences", () => {
    const text = "graph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n  /* seam-disable-next-line unreachable-agent -- wired later */ // note\n  agent spare: worker { terminal x }\n}\n";
    expect(findings(text)).toEqual([]);
    expect(formatted(text)).toBe(text);
  });

  it("a directive inside an item keeps that item as written", () => {
    const text =
      "graph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n  agent w: worker { terminal t }\n  delegate lead -> w { require\n" +
      "    // seam-disable-next-line max-rounds-zero -- edge switched off for now\n    constraints max_rounds 0 }\n}\n";
    expect(findings(text).map((f) => f.split(" ")[0])).toEqual(["unreachable-agent"]);
    expect(formatted(text)).toBe(text);
  });

  it("a directive between `terminal` and the rest of an agent block keeps the agent as written", () => {
    const text =
      "graph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n  transfer lead -> j\n  agent j: worker { terminal\n" +
      '    // seam-disable-next-line join-invalid -- lead hands over first\n    t effect "x" join any of lead, j }\n}\n';
    expect(formatted(text)).toBe(text);
  });

  it("no blank line is added between a `seam` line ending in a directive and the graph it silences", () => {
    const text = "seam 1 // seam-disable-next-line mixed-script-name -- legacy name\ngraph g\u0440 {\n  entry a\n  agent a: worker { terminal t }\n}\n";
    expect(findings(text)).toEqual([]);
    expect(formatted(text)).toBe(text);
  });

  it("nor between a graph's `}` ending in a directive and the next graph, whose body is still laid out", () => {
    const text =
      "graph a {\n  entry x\n  agent x: worker { terminal t }\n} // seam-disable-next-line mixed-script-name -- legacy\n" +
      "graph g\u0440 {\n  entry a\n  agent a: worker {\n    terminal t\n  }\n}\n";
    expect(formatted(text)).toBe(
      "graph a {\n  entry x\n  agent x: worker { terminal t }\n} // seam-disable-next-line mixed-script-name -- legacy\n" +
        "graph g\u0440 {\n  entry a\n  agent a: worker { terminal t }\n}\n",
    );
  });

  it("a graph whose head line holds more than its head is kept as written after a directive", () => {
    const text = "seam 1 // seam-disable-next-line mixed-script-name -- legacy name\ngraph g\u0440 { entry a\n  agent a: worker { terminal t } }\n";
    expect(formatted(text)).toBe(text);
  });

  it("without directives the layout is unchanged: a blank line between the `seam` line and each graph, plain comments on their own lines", () => {
    const text = "seam 1 // version\ngraph a {\n  entry x\n  agent x: worker { terminal t }\n  /* plain */ // note\n  agent y: worker\n} // end\ngraph b {\n  entry z\n  agent z: worker\n}\n";
    expect(formatted(text)).toBe(
      "seam 1 // version\n\ngraph a {\n  entry x\n  agent x: worker { terminal t }\n  /* plain */\n  // note\n  agent y: worker\n} // end\n\ngraph b {\n  entry z\n  agent z: worker\n}\n",
    );
  });
});

// Generated files: a few agents and edges that fire rules (unreachable agents, zero rounds, bad
// versions, unknown fields, self-handoffs), each block laid out on one line, on several, or on
// one line too long for the printer; items separated by a line break, a blank line or a space;
// suppressions on their own line before an item or a block item, or at the end of a line; block
// comment suppressions also before an item on its line, between items, inside one-line blocks.

/** A `//` or block directive naming one or two of `rules`. */
const directiveOf = (rules: readonly string[]) =>
  fc
    .tuple(fc.subarray([...rules], { minLength: 1, maxLength: 2 }), fc.constantFrom("//", "/*", "/*\n"))
    .map(([ids, form]) => `${form === "//" ? "//" : "/*"} seam-disable-next-line ${ids.join(", ")} -- accepted for now${form === "//" ? "" : form === "/*" ? " */" : "\n  */"}`);
const RULES = ["unreachable-agent", "max-rounds-zero", "invalid-agent-version", "unknown-field", "self-handoff", "role-mismatch", "no-terminal-path", "mixed-script-name", "join-invalid"];
const directive = fc
  .subarray(RULES, { minLength: 1, maxLength: 2 })
  .map((rules) => `// seam-disable-next-line ${rules.join(", ")} -- accepted for now`);

/** The block-comment form, which may sit on a line with code before or after it (or span lines). */
const blockDirective = fc
  .tuple(fc.subarray(RULES, { minLength: 1, maxLength: 2 }), fc.constantFrom(" ", "\n  "))
  .map(([rules, end]) => `/* seam-disable-next-line ${rules.join(", ")} -- accepted for now${end}*/`);
const name = fc.constantFrom("lead", "helper", "spare", "other");
/** A comment that is not a directive, which may follow a directive on its line or precede an item on the line after it. */
const note = fc.constantFrom("// note", "/* note */");
/** A directive, maybe followed on its line by a plain comment (`/* seam-disable-next-line x *\/ // note`). */
const withNote = (directives: fc.Arbitrary<string>) =>
  fc.tuple(directives, fc.option(note, { nil: undefined })).map(([d, n]) => (n === undefined || d.startsWith("//") ? d : `${d} ${n}`));
const directiveWithNote = withNote(fc.oneof(directive, blockDirective));

/**
 * `text` with a directive between two of its words (inside an item's own text, where the layout
 * moves comments out): on its own line, or a block one beside the words.
 */
const splitByDirective = (text: fc.Arbitrary<string>, indent: string, rules: readonly string[], maybe: Maybe) =>
  fc.tuple(text, fc.nat(), maybe(fc.tuple(withNote(directiveOf(rules)), fc.boolean()))).map(([t, at, inside]) => {
    const words = t.split(" ");
    if (inside === undefined || words.length < 2) return t;
    const [d, ownLine] = inside;
    const cut = 1 + (at % (words.length - 1));
    const gap = ownLine || d.startsWith("//") || d.includes("// note") ? `\n${indent}${d}\n${indent}` : ` ${d} `;
    return `${words.slice(0, cut).join(" ")}${gap}${words.slice(cut).join(" ")}`;
  });
const LONG = "goal.statement, goal.acceptance_criteria, goal.out_of_scope, decisions[].evidence, open_questions";

/** Draws `undefined` or a value of `arbitrary`; how often each, a generated file's density of comments. */
type Maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.Arbitrary<T | undefined>;
/** Comments at most places (the layouts around several directives at once). */
const dense: Maybe = (arbitrary) => fc.option(arbitrary, { nil: undefined });
/** Comments at a few places: one directive the layout moves is not hidden among others that keep the lines as written. */
const sparse: Maybe = (arbitrary) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary, weight: 1 });

/** A block's items laid out one of three ways: on one line, one per line, or one per line under comments. */
const block = (items: fc.Arbitrary<string[]>, indent: string, maybe: Maybe) =>
  fc.tuple(items, fc.constantFrom("one-line", "lines"), fc.array(maybe(fc.oneof(directive, blockDirective)), { maxLength: 3 }), maybe(blockDirective)).map(([list, layout, notes, inline]) => {
    if (list.length === 0) return "";
    // A block directive inside a one-line block: before its items, or after them.
    if (layout === "one-line") return inline === undefined ? ` { ${list.join(" ")} }` : list.length > 1 ? ` { ${list[0]} ${inline} ${list.slice(1).join(" ")} }` : ` { ${list.join(" ")} ${inline} }`;
    const lines = list.flatMap((item, i) => (notes[i] === undefined ? [] : [`${indent}    ${notes[i]}`]).concat(`${indent}    ${item}`));
    return ` {\n${lines.join("\n")}\n${indent}  }`;
  });

const agentItem = (maybe: Maybe) =>
  splitByDirective(
    fc.constantFrom('terminal done complete "done"', 'terminal stuck failed "stuck"', 'version "1.2.0"', 'version "01.2"', 'effect "x"', "join any of lead, helper"),
    "    ",
    ["join-invalid", "invalid-agent-version", "no-terminal-path"],
    maybe,
  );
const edgeItem = (maybe: Maybe) =>
  splitByDirective(
    fc.constantFrom("max_rounds 0", "max_rounds 2", "require goal.statement", "require goal.nonexistent", "require goal.nonexistent, goal.missing", `require ${LONG}`),
    "    ",
    ["unknown-field", "max-rounds-zero"],
    maybe,
  );
const agent = (maybe: Maybe) =>
  fc
    .tuple(name, fc.constantFrom("supervisor", "worker", "peer"), block(fc.array(agentItem(maybe), { maxLength: 2 }), "", maybe))
    .map(([n, role, b]) => `agent ${n}: ${role}${b}`);
const edge = (maybe: Maybe) =>
  fc
    .tuple(fc.constantFrom("delegate", "return", "transfer"), name, name, block(fc.array(edgeItem(maybe), { maxLength: 2 }), "", maybe))
    .map(([kind, from, to, b]) => `${kind} ${from} -> ${to}${b}`);

/**
 * An item with what comes before it: a separator, maybe a suppression on its own line (a block
 * one maybe followed by a plain comment) or a block one or a plain comment right before it on
 * its line; maybe one at its end (a block one may have the next item after it).
 */
const placed = (maybe: Maybe) =>
  fc
    .tuple(
      fc.oneof(agent(maybe), edge(maybe)),
      fc.constantFrom("\n", "\n\n", " "),
      maybe(directiveWithNote),
      maybe(fc.oneof(blockDirective, note)),
      maybe(fc.oneof(directive, blockDirective)),
    )
    .map(([item, separator, before, inline, after]) => {
      const lead = before === undefined ? separator : before.startsWith("//") || before.endsWith("// note") ? `\n  ${before}\n` : `${separator}${before}\n`;
      const indented = lead.endsWith("\n") ? `  ${item}` : item;
      return `${lead}${inline === undefined ? "" : `${inline} `}${indented}${after === undefined ? "" : ` ${after}`}`;
    });

/** A graph: its name (maybe in two scripts, which `mixed-script-name` reports on its head line) and its items. */
const graph = (maybe: Maybe) =>
  fc
    .tuple(fc.constantFrom("g", "g\u0440"), fc.array(placed(maybe), { minLength: 1, maxLength: 7 }))
    .map(([graphName, items]) => `graph ${graphName} {\n  envelope 1.3\n  entry lead\n  agent lead: supervisor { terminal done complete "done" }${items.join("")}\n}`);

/** What ends a line before a graph: a line break, a blank line, or a directive at the end of the line (which then silences the graph's head). */
const graphBreak = fc.oneof(fc.constantFrom("\n", "\n\n"), fc.oneof(directive, blockDirective).map((d) => ` ${d}\n`));

/** A file: the `seam` line and one or two graphs, comments as dense as `maybe` draws them. */
const file = (maybe: Maybe) =>
  fc
    .tuple(graphBreak, fc.array(fc.tuple(graph(maybe), graphBreak), { minLength: 1, maxLength: 2 }))
    .map(([first, graphs]) => `seam 1${first}${graphs.map(([g, after]) => `${g}${after}`).join("")}`);

const generated = fc.oneof(file(dense), file(sparse));

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
