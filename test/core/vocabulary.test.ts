import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import {
  assertNever,
  DEFAULT_CONTRACTS,
  EDGE_KIND_TABLE,
  EDGE_KINDS,
  HOP_LIMIT_ACTIONS,
  KEYWORDS,
  OUTCOMES,
  ROLES,
  type Role,
} from "../../src/core/vocabulary.js";
import { keywordOfKind, scan } from "../../src/parser/scanner.js";
import { validFile } from "../parser/generate.js";

const tmLanguage = readFileSync(new URL("../../grammar/seam.tmLanguage.json", import.meta.url), "utf8");

/** The words of every alternation `(?:a|b|c)` or `(a|b|c)` of the TextMate grammar, by scope name. */
function alternationsByScope(): Map<string, string[][]> {
  const found = new Map<string, string[][]>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const rule = node as { name?: string; match?: string; captures?: Record<string, { name?: string }> };
    if (typeof rule.match === "string") {
      const groups = [...rule.match.matchAll(/\((?:\?:)?([a-z_]+(?:\|[a-z_]+)+)\)/g)].map((m) => (m[1] as string).split("|"));
      const scope = rule.name ?? Object.values(rule.captures ?? {}).map((c) => c.name).join(" ");
      found.set(scope, [...(found.get(scope) ?? []), ...groups]);
    }
    Object.values(node).forEach(visit);
  };
  visit(JSON.parse(tmLanguage));
  return found;
}

describe("the vocabulary", () => {
  it("lists each keyword once, with every role, outcome, action and edge kind", () => {
    expect(new Set(KEYWORDS).size).toBe(KEYWORDS.length);
    for (const word of [...ROLES, ...OUTCOMES, ...HOP_LIMIT_ACTIONS, ...EDGE_KINDS]) expect(KEYWORDS).toContain(word);
    expect(Object.keys(DEFAULT_CONTRACTS)).toEqual([...EDGE_KINDS]);
  });

  it("is what the TextMate grammar colours: roles, edge kinds, outcomes and every keyword", () => {
    const groups = alternationsByScope();
    const scoped = (scope: string): string[][] => [...groups].filter(([name]) => name.includes(scope)).flatMap(([, g]) => g);
    expect(scoped("support.type.role.seam")).toEqual([[...ROLES], [...ROLES]]);
    expect(scoped("keyword.control.edge.seam")).toEqual([[...EDGE_KINDS], [...EDGE_KINDS]]);
    expect(scoped("constant.language.outcome.seam")).toEqual([[...new Set([...OUTCOMES, ...HOP_LIMIT_ACTIONS])]]);
    const coloured = new Set([...groups.values()].flat(2));
    for (const word of ["graph", "agent", "terminal", "entry", "auto", "observe"]) coloured.add(word);
    expect(KEYWORDS.filter((word) => !coloured.has(word))).toEqual([]);
  });

  it("is what the fuzz generator writes: every keyword appears in generated files", () => {
    const seen = new Set<string>();
    for (const text of fc.sample(validFile, { numRuns: 400, seed: 7 })) {
      const scanned = scan(text);
      for (let i = 0; i < scanned.count; i++) {
        const word = keywordOfKind(scanned.kinds[i] as number);
        if (word !== undefined) seen.add(word);
      }
    }
    expect(KEYWORDS.filter((word) => !seen.has(word))).toEqual([]);
  });

  it("is the table role-mismatch enforces: every edge kind between every pair of roles", () => {
    for (const kind of EDGE_KINDS) {
      for (const from of ROLES) {
        for (const to of ROLES) {
          // A delegate back from `b` makes every return legitimate as a pairing.
          const back = kind === "return" ? "delegate b -> a" : "";
          const text = `graph g {\n  agent a: ${from}\n  agent b: ${to}\n  ${kind} a -> b\n  ${back}\n}`;
          const found = checkText("t.seam", text).diagnostics.filter((d) => d.rule === "role-mismatch" && d.range.start >= text.indexOf(kind));
          const table = EDGE_KIND_TABLE[kind] as { from: readonly Role[]; to: readonly Role[] };
          const fromWrong = found.some((d) => text.slice(d.range.start, d.range.end) === "a");
          const toWrong = found.some((d) => text.slice(d.range.start, d.range.end) === "b");
          expect([kind, from, to, fromWrong, toWrong]).toEqual([kind, from, to, !table.from.includes(from), !table.to.includes(to)]);
        }
      }
    }
  });

  it("assertNever throws on a value outside the vocabulary", () => {
    expect(() => assertNever("handover" as never, "edge kind")).toThrow("internal: unhandled edge kind 'handover'");
  });
});
