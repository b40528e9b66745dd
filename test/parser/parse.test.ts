import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn } from "../../src/core/source-file.js";
import type { AgentDecl, EdgeDecl, GraphDecl, GraphItem, MaybeIncomplete, SeamFile, TerminalDecl } from "../../src/parser/ast.js";
import { parse } from "../../src/parser/parse.js";
import { scan } from "../../src/parser/scanner.js";

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/parser/${name}`, import.meta.url), "utf8");

function parseText(text: string) {
  const file = createSourceFile("test.seam", text);
  return { file, ...parse(file) };
}

/** `rule line:column message` of every diagnostic, for compact assertions. */
function summary(text: string): string[] {
  const { file, diagnostics } = parseText(text);
  return diagnostics.map((d) => {
    const { line, column } = getLineAndColumn(file, d.range.start);
    return `${d.rule} ${d.severity} ${line}:${column} ${d.message}`;
  });
}

/** The whole items of a graph (what the analysis reads), without those the parser could not complete. */
function itemsOf(text: string, graph = 0): readonly GraphItem[] {
  return wholeItems(wholeGraphs(parseText(text).ast)[graph]?.items ?? []);
}

/** The graphs the parser completed (a graph without a name is incomplete). */
function wholeGraphs(ast: SeamFile): GraphDecl[] {
  return ast.graphs.filter((g): g is GraphDecl => !g.hasError);
}

function wholeItems(items: readonly MaybeIncomplete<GraphItem>[] | undefined): GraphItem[] {
  return (items ?? []).filter((i): i is GraphItem => !i.hasError);
}

function agentNames(items: readonly GraphItem[]): string[] {
  return items.filter((i): i is AgentDecl => i.kind === "Agent").map((a) => a.name.name);
}

describe("parse: the language reference example", () => {
  const text = fixture("design-example.seam");
  const { ast, diagnostics } = parseText(text);
  const graph = wholeGraphs(ast)[0] as GraphDecl;
  const items = wholeItems(graph.items);
  const slice = (r: { start: number; end: number }) => text.slice(r.start, r.end);

  it("has no diagnostics and one graph", () => {
    expect(diagnostics).toEqual([]);
    expect(ast.kind).toBe("File");
    expect(ast.range).toEqual({ start: 0, end: text.length });
    expect(ast.graphs).toHaveLength(1);
    expect(ast.languageVersion?.value?.value).toBe(1);
    expect(slice(ast.languageVersion!.range)).toBe("seam 1");
    expect(graph.name.name).toBe("supplier_due_diligence");
  });

  it("keeps every item in source order", () => {
    expect(graph.items.map((i) => i.kind)).toEqual([
      "Envelope", "Entry", "HopLimit", "OnHopLimit", "LoopSignature",
      "Agent", "Agent", "Agent", "Agent", "Contract",
      "Edge", "Edge", "Edge", "Edge", "Edge", "Edge",
    ]);
    expect(agentNames(items)).toEqual(["intake", "research", "drafting", "reviewer"]);
  });

  it("gives ranges that cover the source text of each node", () => {
    expect(slice(graph.name.range)).toBe("supplier_due_diligence");
    const intake = graph.items[5] as AgentDecl;
    expect(slice(intake.range)).toMatch(/^agent intake: supervisor \{[\s\S]*"request refused at intake"\n  \}$/);
    expect(intake.role.value).toBe("supervisor");
    expect(slice(intake.role.range)).toBe("supervisor");
    const terminal = intake.items[1] as TerminalDecl;
    expect(slice(terminal.range)).toBe('terminal out_of_policy failed "request refused at intake"');
    expect(terminal.outcome?.value).toBe("failed");
    expect(terminal.description?.value).toBe("request refused at intake");
    const edge = graph.items[10] as EdgeDecl;
    expect(slice(edge.range)).toBe("delegate intake -> research { max_rounds 2 }");
    expect([edge.edgeKind.value, edge.from.name, edge.to.name]).toEqual(["delegate", "intake", "research"]);
    expect(edge.items).toEqual([
      expect.objectContaining({ kind: "MaxRounds", value: expect.objectContaining({ value: 2 }) }),
    ]);
    const observed = graph.items[15] as EdgeDecl;
    expect(observed.observe && slice(observed.observe)).toBe("observe");
  });

  it("reads field paths with their segments and text", () => {
    const signature = items[4];
    expect(signature?.kind).toBe("LoopSignature");
    if (signature?.kind !== "LoopSignature") return;
    expect(signature.paths.map((p) => p.text)).toEqual(["goal.statement", "decisions[].statement", "artefacts[].digest"]);
    expect(signature.paths[1]?.segments).toEqual(["decisions", "[]", "statement"]);
    expect(slice(signature.paths[1]!.range)).toBe("decisions[].statement");
  });
});

describe("parse: every construct", () => {
  const text = fixture("all-items.seam");
  const { ast, diagnostics } = parseText(text);

  it("parses without diagnostics into two graphs", () => {
    expect(diagnostics).toEqual([]);
    expect(wholeGraphs(ast).map((g) => g.name.name)).toEqual(["all_items", "second"]);
    expect(wholeGraphs(ast)[1]?.items.map((i) => i.kind)).toEqual(["Entry", "Agent"]);
  });

  it("decodes values", () => {
    const items = wholeItems(wholeGraphs(ast)[0]!.items);
    const byKind = <K extends GraphItem["kind"]>(kind: K) => items.find((i) => i.kind === kind) as Extract<GraphItem, { kind: K }>;
    expect(byKind("Envelope").version).toMatchObject({ major: 1, minor: 3 });
    expect(byKind("Entry").agents.map((a) => a.name)).toEqual(["a", "research-agent"]);
    expect(byKind("HopLimit").value).toMatchObject({ kind: "IntegerLiteral", value: 12 });
    expect(byKind("OnHopLimit").action.value).toBe("failed");
    expect(byKind("LoopSignature").paths.map((p) => p.text)).toEqual([
      "goal.statement", "provenance[].agent", "decisions[].version",
    ]);
    const agent = byKind("Agent");
    expect(agent.items.map((i) => i.kind)).toEqual(["AgentVersion", "Terminal", "Terminal", "Terminal"]);
    const [version, done, refused, asked] = agent.items as [
      Extract<typeof agent.items[number], { kind: "AgentVersion" }>, TerminalDecl, TerminalDecl, TerminalDecl,
    ];
    expect(version.value?.value).toBe("2.0.0");
    expect(done.outcome).toBeUndefined();
    expect(done.description).toBeUndefined();
    expect(refused.description?.value).toBe('said "no"\tthen\\left\u00e9');
    expect(asked.outcome?.value).toBe("escalate");
    const contract = byKind("Contract");
    expect(contract.edgeKind.value).toBe("return");
    expect(contract.requires.map((r) => r.paths.map((p) => p.text))).toEqual([["status", "artefacts[].digest"], ["provenance"]]);
    const edge = byKind("Edge");
    expect([edge.from.name, edge.to.name, edge.observe !== undefined]).toEqual(["a", "research-agent", true]);
    expect(edge.items.map((i) => i.kind)).toEqual(["MaxRounds", "Require"]);
  });

  it("accepts a hop limit of auto as a keyword", () => {
    const items = itemsOf("graph g { hop_limit auto }");
    expect(items[0]).toMatchObject({ kind: "HopLimit", value: { kind: "Keyword", value: "auto" } });
  });

  it("treats the language version line as optional", () => {
    expect(parseText("graph g {}").ast.languageVersion).toBeUndefined();
  });
});

describe("parse: syntax errors (rule, severity, line, column, message)", () => {
  const cases: { name: string; code: string; expected: string[] }[] = [
    { name: "empty file", code: "", expected: ["syntax error 1:1 expected 'graph', found end of file"] },
    {
      name: "only comments",
      code: "// nothing\n/* here */\n",
      expected: ["syntax error 3:1 expected 'graph', found end of file"],
    },
    {
      name: "missing arrow",
      code: "graph g {\n  delegate intake { max_rounds 2 }\n}",
      expected: ["syntax error 2:19 expected '->' after 'intake', found '{'"],
    },
    {
      name: "graph without a name",
      code: "graph {\n}",
      expected: ["syntax error 1:7 expected a name after 'graph', found '{'"],
    },
    {
      name: "missing closing brace",
      code: "graph g {\n  entry a\n",
      expected: ["syntax error 2:10 expected a graph item or '}' after 'a', found end of file"],
    },
    {
      name: "missing colon",
      code: "graph g {\n  agent a worker\n}",
      expected: ["syntax error 2:11 expected ':' after 'a', found 'worker'"],
    },
    {
      name: "unknown role",
      code: "graph g {\n  agent a: boss\n}",
      expected: ["syntax error 2:12 expected 'supervisor', 'worker' or 'peer' after ':', found 'boss'"],
    },
    {
      name: "unknown item",
      code: "graph g {\n  agents a\n}",
      expected: ["syntax error 2:3 expected a graph item or '}' after '{', found 'agents'"],
    },
    {
      name: "junk inside an agent block",
      code: "graph g {\n  agent a: worker { terminal t\n    junk }\n}",
      expected: ["syntax error 3:5 expected 'terminal', 'version', 'gate', 'effect', 'join' or '}' after 't', found 'junk'"],
    },
    {
      name: "integer where a version is expected",
      code: "graph g { envelope 1 }",
      expected: ["syntax error 1:20 expected a version such as 1.3 after 'envelope', found '1'"],
    },
    {
      name: "hop limit that is not a number",
      code: "graph g { hop_limit many }",
      expected: ["syntax error 1:21 expected an integer or 'auto' after 'hop_limit', found 'many'"],
    },
    {
      name: "path ending in a dot",
      code: "graph g { loop_signature goal. }",
      expected: ["syntax error 1:32 expected a field name after '.', found '}'"],
    },
    {
      name: "text after the last graph",
      code: "graph g {}\n}",
      expected: ["syntax error 2:1 expected 'graph' or end of file, found '}'"],
    },
    {
      name: "integer beyond 2^53 - 1",
      code: "graph g { hop_limit 9007199254740992 }",
      expected: ["syntax error 1:21 integer 9007199254740992 is too large: the largest allowed is 9007199254740991"],
    },
    {
      name: "language version other than 1",
      code: "seam 2\ngraph g {}",
      expected: ["syntax error 1:6 unknown language version 2: only version 1 exists (write 'seam 1' or leave the line out)"],
    },
    {
      name: "unexpected characters",
      code: "graph g {\n  #@ entry a\n}",
      expected: ["syntax error 2:3 unexpected characters '#@'"],
    },
    {
      name: "invisible character",
      code: "graph g {\u00a0}",
      expected: ["syntax error 1:10 unexpected character U+00A0"],
    },
    {
      name: "bad escape in a string",
      code: 'graph g { agent a: worker { version "1\\.0" } }',
      expected: ["syntax error 1:39 invalid escape '\\.' in string: use \\\", \\\\, \\n, \\t or \\uXXXX"],
    },
    {
      name: "unterminated string",
      code: 'graph g { agent a: worker { version "1.0 } }\n}',
      expected: [
        "syntax error 1:37 unterminated string: close it with '\"' on the same line",
        "syntax error 2:2 expected a graph item or '}' after '}', found end of file",
      ],
    },
    {
      name: "keyword as an agent name",
      code: "graph g {\n  agent peer: peer\n}",
      expected: ["syntax error 2:9 'peer' is a keyword and cannot be used as a name; rename it (e.g. 'peer_1')"],
    },
    {
      name: "keyword as an entry name, the last item of the graph",
      code: "graph g {\n  entry agent\n}",
      expected: ["syntax error 2:9 'agent' is a keyword and cannot be used as a name; rename it (e.g. 'agent_1')"],
    },
    {
      name: "keyword as a later entry name",
      code: "graph g {\n  entry a, peer\n  agent a: worker\n}",
      expected: ["syntax error 2:12 'peer' is a keyword and cannot be used as a name; rename it (e.g. 'peer_1')"],
    },
    {
      name: "keyword as an agent name that starts items elsewhere",
      code: "graph g {\n  agent graph: worker\n}",
      expected: ["syntax error 2:9 'graph' is a keyword and cannot be used as a name; rename it (e.g. 'graph_1')"],
    },
    {
      name: "keyword as a graph name",
      code: "graph graph {\n}",
      expected: ["syntax error 1:7 'graph' is a keyword and cannot be used as a name; rename it (e.g. 'graph_1')"],
    },
    {
      name: "keyword as an edge target, before the next item",
      code: "graph g {\n  transfer a -> return\n  agent b: worker\n}",
      expected: ["syntax error 2:17 'return' is a keyword and cannot be used as a name; rename it (e.g. 'return_1')"],
    },
    {
      name: "keyword as the first segment of a field path",
      code: "graph g {\n  contract transfer { require version.x }\n}",
      expected: ["syntax error 2:31 'version' is a keyword and cannot be used as a name; rename it (e.g. 'version_1')"],
    },
    {
      name: "missing name before the next item (not a keyword used as a name)",
      code: "graph g {\n  entry\n  agent a: worker\n}",
      expected: ["syntax error 3:3 expected a name after 'entry', found 'agent'"],
    },
    {
      name: "missing name before an item whose keyword takes a keyword",
      code: "graph g {\n  entry\n  on_hop_limit escalate\n}",
      expected: ["syntax error 3:3 expected a name after 'entry', found 'on_hop_limit'"],
    },
    {
      name: "name starting with a digit",
      code: "graph g {\n  agent 9x: worker\n}",
      expected: ["syntax error 2:9 a name cannot start with a digit: '9x'; start it with a letter or '_'"],
    },
    {
      name: "names starting with digits in a list and a field path",
      code: "graph g {\n  entry a, 2b-c\n  loop_signature 1st.x\n}",
      expected: [
        "syntax error 2:12 a name cannot start with a digit: '2b-c'; start it with a letter or '_'",
        "syntax error 3:18 a name cannot start with a digit: '1st'; start it with a letter or '_'",
      ],
    },
    {
      name: "a number and a name apart are not one name",
      code: "graph g {\n  agent 9 x: worker\n}",
      expected: ["syntax error 2:9 expected a name after 'agent', found '9'"],
    },
    {
      name: "negative hop limit",
      code: "graph g {\n  hop_limit -1\n}",
      expected: ["syntax error 2:13 negative numbers are not allowed: hop_limit must be a whole number of at least 1"],
    },
    {
      name: "negative max_rounds",
      code: "graph g {\n  delegate a -> b { max_rounds -2 }\n}",
      expected: ["syntax error 2:32 negative numbers are not allowed: max_rounds must be a whole number of at least 1"],
    },
    {
      name: "negative repairs",
      code: "graph g {\n  delegate a -> b { repairs -1 }\n}",
      expected: ["syntax error 2:29 negative numbers are not allowed: repairs must be a whole number, 0 or more (0: the first refusal escalates)"],
    },
    {
      name: "negative language version",
      code: "seam -1\ngraph g {}",
      expected: ["syntax error 1:6 negative numbers are not allowed: the language version is 1 (write 'seam 1' or leave the line out)"],
    },
    {
      name: "negative decimal in a guard, quoted whole",
      code: "graph g {\n  transfer a -> d when confidence <= -0.1\n}",
      expected: ["syntax error 2:38 confidence takes a number from 0 to 1, such as 0.8; found -0.1"],
    },
    {
      name: "negative decimal where an integer belongs",
      code: "graph g {\n  delegate a -> b { max_rounds -1.5 }\n}",
      expected: ["syntax error 2:32 negative numbers are not allowed: max_rounds must be a whole number of at least 1"],
    },
    {
      name: "exponent in a guard, with the number to write instead",
      code: "graph g {\n  transfer a -> d when confidence >= 1e-3\n}",
      expected: ["syntax error 2:38 exponents are not allowed: write 1e-3 with a decimal point, as 0.001"],
    },
    {
      name: "exponent with a sign and no decimal form that a setting takes",
      code: "graph g {\n  delegate a -> b { min_confidence 1E+3 }\n}",
      expected: ["syntax error 2:36 exponents are not allowed: write the number with a decimal point, such as 0.8; found 1E+3"],
    },
    {
      name: "exponent where an integer belongs",
      code: "graph g {\n  hop_limit 1e3\n}",
      expected: ["syntax error 2:13 exponents are not allowed: hop_limit must be a whole number of at least 1; found 1e3"],
    },
    {
      name: "no digit before the decimal point in a guard",
      code: "graph g {\n  transfer a -> d when confidence >= .5\n}",
      expected: ["syntax error 2:38 write a digit before the decimal point: 0.5, not .5"],
    },
    {
      name: "no digit before the decimal point where an integer belongs",
      code: "graph g {\n  delegate a -> b { repairs .5 }\n}",
      expected: ["syntax error 2:29 decimals are not allowed: repairs must be a whole number, 0 or more (0: the first refusal escalates); found .5"],
    },
    {
      name: "a letter e after a number is a name, not an exponent",
      code: "graph g {\n  transfer a -> d when confidence >= 0.5e\n}",
      expected: ["syntax error 2:41 expected a graph item or '}' after '0.5', found 'e'"],
    },
    {
      name: "negative number where no number belongs",
      code: "graph g { agent a -1: worker }",
      expected: ["syntax error 1:19 expected ':' after 'a', found '-1'"],
    },
    {
      name: "envelope version in three parts",
      code: "graph g {\n  envelope 1.3.0\n}",
      expected: ["syntax error 2:12 write the envelope version as major.minor, e.g. 'envelope 1.3'"],
    },
    {
      name: "envelope version in four parts",
      code: "graph g { envelope 2.0.1.4 entry a }",
      expected: ["syntax error 1:20 write the envelope version as major.minor, e.g. 'envelope 2.0'"],
    },
    {
      name: "unterminated block comment",
      code: "graph g {}\n/* open",
      expected: ["syntax error 2:1 unterminated block comment: close it with '*/'"],
    },
    {
      name: "unterminated block comment inside a graph: the missing '}' is in the comment",
      code: "graph g {\n  agent a: worker\n  /* open\n  agent b: worker\n}\n",
      expected: ["syntax error 3:3 unterminated block comment: close it with '*/'"],
    },
    {
      name: "unterminated block comment in the middle of an item",
      code: "graph g {\n  delegate a -> /* b }",
      expected: ["syntax error 2:17 unterminated block comment: close it with '*/'"],
    },
    {
      name: "unterminated block comment as the whole file",
      code: "/* nothing else",
      expected: ["syntax error 1:1 unterminated block comment: close it with '*/'"],
    },
    {
      name: "unterminated block comment after an error of its own",
      code: "graph g {\n  agent a worker\n  /* open",
      expected: [
        "syntax error 2:11 expected ':' after 'a', found 'worker'",
        "syntax error 3:3 unterminated block comment: close it with '*/'",
      ],
    },
  ];

  it.each(cases)("$name", ({ code, expected }) => {
    expect(summary(code)).toEqual(expected);
  });

  it("points at end of file just after the last token, not after trailing comments", () => {
    expect(summary("graph g {\n  entry a // x\n\n")).toEqual([
      "syntax error 2:10 expected a graph item or '}' after 'a', found end of file",
    ]);
  });
});

describe("parse: recovery", () => {
  it("reports a broken edge between two good agents and keeps both agents", () => {
    const text = "graph g {\n  agent a: worker\n  delegate a b { max_rounds 1 ] }\n  agent b: worker\n}\n";
    expect(summary(text)).toHaveLength(2);
    expect(agentNames(itemsOf(text))).toEqual(["a", "b"]);
  });

  it("does not take the closing brace of a broken item for the graph's", () => {
    const text = "graph g {\n  delegate intake { max_rounds 2 }\n  agent b: worker\n}\n";
    expect(summary(text)).toHaveLength(1);
    expect(agentNames(itemsOf(text))).toEqual(["b"]);
  });

  it("reports every error of a file and keeps the good items", () => {
    const text = fixture("several-errors.seam");
    expect(summary(text)).toEqual([
      "syntax error 7:18 expected ':' after 'research', found 'worker'",
      "syntax error 8:19 expected '->' after 'intake', found 'research'",
      "syntax error 10:13 expected an integer or 'auto' after 'hop_limit', found 'many'",
    ]);
    // A missing ':' or '->' is repaired by inserting it, so those items survive; the hop limit
    // has no value and is dropped.
    expect(itemsOf(text).map((i) => i.kind)).toEqual(["Entry", "Agent", "Agent", "Edge", "Agent", "Edge"]);
  });

  it("drops an item that misses a part, such as an agent without a role", () => {
    const items = itemsOf("graph g {\n  agent a: boss\n  agent b: peer\n}");
    expect(agentNames(items)).toEqual(["b"]);
  });

  it("drops a graph without a name but parses the next one", () => {
    const { ast, diagnostics } = parseText("graph { entry a }\ngraph h { entry b }");
    expect(diagnostics).toHaveLength(1);
    expect(wholeGraphs(ast).map((g) => g.name.name)).toEqual(["h"]);
  });

  it("keeps a path with a missing segment, marked, and the paths after it", () => {
    const graph = wholeGraphs(parseText("graph g { loop_signature a., b.c }").ast)[0];
    expect(graph?.items[0]).toMatchObject({ kind: "LoopSignature", hasError: true, paths: [{ text: "a", hasError: true }, { text: "b.c" }] });
    expect(itemsOf("graph g { loop_signature a., b.c }")).toEqual([]);
  });

  it("ends on unbalanced braces after the last graph (found by fuzzing: used to loop)", () => {
    expect(summary("graph g {} } {{")).toEqual(["syntax error 1:12 expected 'graph' or end of file, found '}'"]);
    expect(summary("graph g {\n  }}\n  transfer a b-> c {{ max_rounds 3")).toHaveLength(1);
  });

  it("reads a keyword used as a name as that name, so the items that use it survive", () => {
    const text = "graph g {\n  entry peer\n  agent peer: peer\n  agent a: worker\n  transfer peer -> a\n}";
    expect(summary(text)).toHaveLength(3);
    const items = itemsOf(text);
    expect(items.map((i) => i.kind)).toEqual(["Entry", "Agent", "Agent", "Edge"]);
    expect(agentNames(items)).toEqual(["peer", "a"]);
    expect(items[3]).toMatchObject({ from: { name: "peer" }, to: { name: "a" } });
  });

  it("keeps a terminal named by a keyword, with its outcome", () => {
    const agent = itemsOf("graph g { agent a: worker { terminal failed failed } }")[0] as AgentDecl;
    expect(agent.items[0]).toMatchObject({ kind: "Terminal", name: { name: "failed" }, outcome: { value: "failed" } });
  });

  it("reads digits glued to a name as one name, reported over its whole range", () => {
    const text = "graph g {\n  agent 9x: worker\n  agent a: worker\n  transfer a -> 9x\n}";
    const { diagnostics } = parseText(text);
    expect(diagnostics.map((d) => text.slice(d.range.start, d.range.end))).toEqual(["9x", "9x"]);
    const items = itemsOf(text);
    expect(agentNames(items)).toEqual(["9x", "a"]);
    expect(items[2]).toMatchObject({ kind: "Edge", to: { name: "9x", range: { start: text.lastIndexOf("9x"), end: text.lastIndexOf("9x") + 2 } } });
  });

  it("drops a negative hop limit or max_rounds, so nothing is checked against its digits", () => {
    expect(itemsOf("graph g { hop_limit -1 entry a }").map((i) => i.kind)).toEqual(["Entry"]);
    const edge = itemsOf("graph g { delegate a -> b { max_rounds -1 require goal } }")[0] as EdgeDecl;
    expect(edge.items.filter((i) => !i.hasError).map((i) => i.kind)).toEqual(["Require"]);
    expect(edge.items[0]).toMatchObject({ kind: "MaxRounds", value: undefined, hasError: true });
  });

  it("reports a number written with a sign, an exponent or no leading digit over its whole range, once", () => {
    for (const number of ["-0.1", "1e-3", "1.5E+2", ".5", "-.5"]) {
      const text = `graph g {\n  transfer a -> d when confidence >= ${number}\n  agent d: worker\n}`;
      const { diagnostics } = parseText(text);
      expect(diagnostics.map((d) => text.slice(d.range.start, d.range.end))).toEqual([number]);
      expect(agentNames(itemsOf(text))).toEqual(["d"]);
    }
  });

  it("drops an envelope version in three parts and keeps the items after it", () => {
    expect(itemsOf("graph g { envelope 1.3.0 entry a }").map((i) => i.kind)).toEqual(["Entry"]);
  });

  it("keeps the items before an unterminated block comment", () => {
    expect(agentNames(itemsOf("graph g {\n  agent a: worker\n  /* open\n  agent b: worker\n}\n"))).toEqual(["a"]);
  });

  it("keeps a language version line it reports", () => {
    expect(parseText("seam 3\ngraph g {}").ast.languageVersion?.value?.value).toBe(3);
  });
});

describe("parse: partial declarations and comments (what an editor needs mid-edit)", () => {
  it("keeps an edge being typed with what it has", () => {
    const { ast, diagnostics } = parseText("graph g {\n  agent a: worker\n  delegate a -> ");
    const edge = ast.graphs[0]?.items?.[1];
    expect(edge).toEqual({
      kind: "Edge",
      edgeKind: { kind: "Keyword", value: "delegate", range: { start: 30, end: 38 } },
      from: { kind: "Identifier", name: "a", range: { start: 39, end: 40 } },
      to: undefined,
      observe: undefined,
      items: [],
      hasError: true,
      range: { start: 30, end: 43 },
    });
    expect(diagnostics.map((d) => d.message)).toEqual(["expected a name after '->', found end of file"]);
  });

  it("keeps an agent without a role, a graph without a name and a terminal without a name", () => {
    const { ast } = parseText("graph {\n  agent a: \n  agent b: worker { terminal }\n}");
    const graph = ast.graphs[0];
    expect(graph).toMatchObject({ kind: "Graph", name: undefined, hasError: true });
    expect(graph?.items?.[0]).toMatchObject({ kind: "Agent", name: { name: "a" }, role: undefined, hasError: true });
    expect(graph?.items?.[1]).toMatchObject({ kind: "Agent", items: [{ kind: "Terminal", name: undefined, hasError: true }] });
    expect(graph?.items?.[1]?.hasError).toBeUndefined();
  });

  it("reads the block of an edge whose header is broken", () => {
    const { ast } = parseText("graph g {\n  delegate a { max_rounds 2 }\n}");
    expect(ast.graphs[0]?.items?.[0]).toMatchObject({ kind: "Edge", from: { name: "a" }, to: undefined, items: [{ kind: "MaxRounds", value: { value: 2 } }] });
  });

  it("keeps every comment, line and block, in text order with its range", () => {
    const text = "// head\ngraph g { /* inside */ entry a // tail\n}\n/* end */";
    expect(parseText(text).ast.comments).toEqual([
      { kind: "Comment", style: "line", text: "// head", range: { start: 0, end: 7 } },
      { kind: "Comment", style: "block", text: "/* inside */", range: { start: 18, end: 30 } },
      { kind: "Comment", style: "line", text: "// tail", range: { start: 39, end: 46 } },
      { kind: "Comment", style: "block", text: "/* end */", range: { start: 49, end: 58 } },
    ]);
  });

  it("reads Unicode names (ID_Start, ID_Continue) as JavaScript does", () => {
    const { ast, diagnostics } = parseText("graph 流程 {\n  agent Größe_1: worker\n  agent 𝑥: peer\n  transfer Größe_1 -> 𝑥\n}");
    expect(diagnostics).toEqual([]);
    const graph = wholeGraphs(ast)[0];
    expect(graph?.name.name).toBe("流程");
    expect(agentNames(wholeItems(graph?.items))).toEqual(["Größe_1", "𝑥"]);
    expect(summary("graph g { agent 1é: worker }")).toEqual(["syntax error 1:17 a name cannot start with a digit: '1é'; start it with a letter or '_'"]);
  });
});

describe("parse: files that are not Seam text, and files with very many errors", () => {
  const utf16 = (text: string): string => [...text].map((c) => `${c}\0`).join("");

  it("reports UTF-16 text once, at 1:1, with an empty tree", () => {
    const text = utf16(fixture("design-example.seam"));
    expect(summary(text)).toEqual(["syntax error 1:1 the file looks like UTF-16 text; save it as UTF-8"]);
    expect(parseText(text).ast).toEqual({ kind: "File", graphs: [], comments: [], range: { start: 0, end: text.length } });
  });

  it("reports a run of unexpected characters once, and a stray NUL as itself", () => {
    expect(summary("graph g {\0}")).toEqual(["syntax error 1:10 unexpected character U+0000"]);
    expect(summary(`graph g {${"\0".repeat(40)}}`)).toEqual([
      `syntax error 1:10 unexpected characters ${Array(16).fill("U+0000").join(" ")}...`,
    ]);
  });

  it("stops after 200 parse errors, says so at the 201st, and leaves the tree empty", () => {
    const text = `graph g {\n${"  agent a worker\n".repeat(300)}}\n`;
    const found = summary(text);
    expect(found).toHaveLength(201);
    expect(found[0]).toBe("syntax error 2:11 expected ':' after 'a', found 'worker'");
    expect(found[199]).toBe("syntax error 201:11 expected ':' after 'a', found 'worker'");
    expect(found[200]).toBe("syntax error 202:11 too many syntax errors; stopped after 200");
    expect(parseText(text).ast.graphs).toEqual([]);
  });

  it("counts lexical and parse errors together, in source order", () => {
    const text = `graph g {\n${"  # agent a worker\n".repeat(150)}}\n`;
    const found = summary(text);
    expect(found).toHaveLength(201);
    expect(found.slice(0, 2)).toEqual([
      "syntax error 2:3 unexpected character '#'",
      "syntax error 2:13 expected ':' after 'a', found 'worker'",
    ]);
    expect(found[200]).toBe("syntax error 102:3 too many syntax errors; stopped after 200");
  });

  it("caps lexical errors in a file that otherwise parses, and keeps its tree", () => {
    const text = `graph g { entry a }\n${"#\n".repeat(250)}`;
    const found = summary(text);
    expect(found).toHaveLength(201);
    expect(found[199]).toBe("syntax error 201:1 unexpected character '#'");
    expect(found[200]).toBe("syntax error 202:1 too many syntax errors; stopped after 200");
    expect(itemsOf(text).map((i) => i.kind)).toEqual(["Entry"]);
  });

  it("shows exactly 200 errors without a note", () => {
    const found = summary(`graph g { entry a }\n${"#\n".repeat(200)}`);
    expect(found).toHaveLength(200);
    expect(found.every((line) => line.endsWith("unexpected character '#'"))).toBe(true);
  });
});

describe("parse: line endings, BOM and comments", () => {
  const lf = fixture("design-example.seam");
  const reference = parseText(lf);

  it.each([
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("parses %s text to the same tree, with ranges of the new text", (_name, eol) => {
    const text = lf.replace(/\n/g, eol);
    const { ast, diagnostics } = parseText(text);
    expect(diagnostics).toEqual([]);
    expect(wholeGraphs(ast)[0]?.items.map((i) => i.kind)).toEqual(wholeGraphs(reference.ast)[0]?.items.map((i) => i.kind));
    const edge = wholeGraphs(ast)[0]?.items[10] as EdgeDecl;
    expect(text.slice(edge.range.start, edge.range.end)).toBe("delegate intake -> research { max_rounds 2 }");
  });

  it("reports errors on the right line with CRLF", () => {
    expect(summary("graph g {\r\n  entry a\r\n  agent b boss\r\n}")).toEqual([
      "syntax error 3:11 expected ':' after 'b', found 'boss'",
    ]);
  });

  it("skips a BOM and keeps offsets of the text with the BOM", () => {
    const text = `\uFEFF${lf}`;
    const { ast, diagnostics } = parseText(text);
    expect(diagnostics).toEqual([]);
    const name = wholeGraphs(ast)[0]!.name;
    expect(name.range.start).toBe(wholeGraphs(reference.ast)[0]!.name.range.start + 1);
    expect(text.slice(name.range.start, name.range.end)).toBe("supplier_due_diligence");
  });

  it("reports a BOM that is not at the start", () => {
    expect(summary("graph g {\uFEFF}")).toEqual(["syntax error 1:10 unexpected character U+FEFF"]);
  });

  it("ignores comments everywhere", () => {
    const { ast, diagnostics } = parseText(
      "/* a */graph/* b */g// c\n{/*d*/agent/**/x:/*\n*/worker//e\n}//f",
    );
    expect(diagnostics).toEqual([]);
    expect(agentNames(wholeItems(wholeGraphs(ast)[0]!.items))).toEqual(["x"]);
  });
});

describe("parse: a scan made by the caller", () => {
  it("gives what parsing the text alone gives, errors included", () => {
    const text = 'graph g {\n  entry a\n  agent 9x: worker /* note */\n  delegate a ->\n  agent a: supervisor { terminal done complete "d" }\n}\n';
    const file = createSourceFile("x.seam", text);
    expect(parse(file).diagnostics.length).toBeGreaterThan(0);
    expect(parse(file, scan(text))).toEqual(parse(file));
  });
});
