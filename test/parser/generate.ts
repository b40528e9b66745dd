/**
 * fast-check generators of `.seam` text built from the grammar and the vocabulary
 * (`core/vocabulary.ts`): valid files with odd spacing and comments, and mutations of them.
 * Roles, outcomes, actions and edge kinds come from the vocabulary, so a new edge kind is
 * generated without editing this file (`vocabulary.test.ts` checks every keyword is produced).
 */
import fc from "fast-check";
import { EDGE_KINDS, HOP_LIMIT_ACTIONS, KEYWORDS, OUTCOMES, ROLES } from "../../src/core/vocabulary.js";

const id = fc.constantFrom("a", "b", "research-agent", "x_1", "agents", "seam_bot", "名前", "Größe", "𝑥1");
const keywordName = fc.constantFrom(...KEYWORDS);
const integer = fc.constantFrom("0", "1", "8", "007", "-1", "9007199254740991", "9007199254740993");
const str = fc.constantFrom('""', '"ok"', '"esc \\" \\u00e9"', '"bad \\q"', '"open\n');
/** Whitespace and comments between tokens. */
export const gap = fc.constantFrom(" ", "  ", "\n", "\r\n", " /* c */ ", " // c\n", "\t", "\n\n  // note\n");
const path = fc
  .tuple(id, fc.array(fc.oneof(fc.tuple(fc.constant("."), fc.oneof(id, keywordName)).map((p) => p.join("")), fc.constant("[]")), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.join(""));
const list = <T extends string>(item: fc.Arbitrary<T>) => fc.array(item, { minLength: 1, maxLength: 3 }).map((a) => a.join(", "));
const requireDecl = list(path).map((p) => `require ${p}`);
const edgeKind = fc.constantFrom(...EDGE_KINDS);
const block = (items: fc.Arbitrary<string>) =>
  fc.option(fc.tuple(fc.array(items, { maxLength: 3 }), gap).map(([a, g]) => `{${g}${a.join(g)}${g}}`), { nil: "" });
const outcome = fc.constantFrom("", ...OUTCOMES.map((o) => ` ${o}`));
const fraction = fc.constantFrom("0", "1", "0.8", "0.75", "2", "1.5", "-1", "0.8.1");
/** A guard's test: every subject with either test, so the subject checks are exercised too. */
const condition = fc.oneof(
  fc.tuple(fc.constantFrom("status", "allowed_next_step", "confidence", "mood"), list(fc.constantFrom("ready", "partial", "failed", "draft", "redy"))).map(([s, v]) => `${s} is ${v}`),
  fc.tuple(fc.constantFrom("confidence", "status"), fc.constantFrom("<", "<=", ">", ">="), fraction).map(([s, o, n]) => `${s} ${o} ${n}`),
);
const guard = fc.oneof(
  fc.constant(""),
  fc.constant(" otherwise"),
  fc.array(condition, { minLength: 1, maxLength: 3 }).map((c) => ` when ${c.join(" and ")}`),
);

/** One graph item of any kind. */
export const graphItem = fc.oneof(
  fc.constantFrom("envelope 1.3", "envelope 9007199254740993.0", "envelope 1.3.0"),
  list(id).map((a) => `entry ${a}`),
  fc.oneof(integer, fc.constant("auto")).map((v) => `hop_limit ${v}`),
  fc.constantFrom(...HOP_LIMIT_ACTIONS).map((a) => `on_hop_limit ${a}`),
  list(path).map((p) => `loop_signature ${p}`),
  fc
    .tuple(id, fc.constantFrom(...ROLES), block(fc.oneof(
      fc.tuple(id, outcome, fc.option(str, { nil: "" })).map(([n, o, s]) => `terminal ${n}${o} ${s}`),
      str.map((s) => `version ${s}`),
      str.map((s) => `effect ${s}`),
      fc.constant("gate"),
      fc
        .tuple(
          fc.oneof(fc.constantFrom("all", "any"), integer),
          list(id),
          fc.option(integer.map((n) => ` within ${n} seconds`), { nil: "" }),
          fc.option(fc.oneof(fc.constant(" otherwise escalate"), id.map((n) => ` otherwise ${n}`)), { nil: "" }),
        )
        .map(([w, inputs, within, otherwise]) => `join ${w} of ${inputs}${within}${otherwise}`),
    )))
    .map(([n, r, b]) => `agent ${n}: ${r} ${b}`),
  fc.tuple(edgeKind, fc.array(requireDecl, { maxLength: 2 })).map(([k, r]) => `contract ${k} { ${r.join(" ")} }`),
  fc
    .tuple(edgeKind, id, id, guard, fc.constantFrom("", " observe"), block(fc.oneof(
      requireDecl,
      integer.map((n) => `max_rounds ${n}`),
      integer.map((n) => `repairs ${n}`),
      fc.tuple(fraction, fc.option(list(id), { nil: undefined })).map(([n, d]) => `min_confidence ${n}${d === undefined ? "" : ` for ${d}`}`),
      fc.constant("gate"),
      id.map((n) => `fan_out ${n}`),
    )))
    .map(([k, f, t, g, o, b]) => `${k} ${f}->${t}${g}${o} ${b}`),
);

const graph = fc.tuple(id, fc.array(graphItem, { maxLength: 6 }), gap).map(([n, items, g]) => `graph ${n} {${g}${items.join(g)}${g}}`);

/** A file the grammar accepts (some with literal errors: negative or too large numbers, long versions). */
export const validFile = fc
  .tuple(fc.constantFrom("", "seam 1\n", "seam 2 ", "\uFEFFseam 1 ", "// leading\n"), fc.array(graph, { minLength: 1, maxLength: 2 }))
  .map(([version, graphs]) => version + graphs.join("\n"));

/** Token-sized pieces of a text: words, numbers, strings, comments, punctuation, whitespace. */
export function chunks(text: string): string[] {
  return text.match(/"[^"\n]*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[\p{ID_Start}_][\p{ID_Continue}-]*|\d+(?:\.\d+)?|->|\[\]|\s+|./gu) ?? [];
}

/** `validFile` with 1-3 pieces inserted or deleted, pieces taken from `sources`. */
export function mutatedFile(sources: readonly string[]): fc.Arbitrary<string> {
  const pieces = [...new Set(sources.flatMap(chunks))];
  return fc
    .tuple(validFile, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...pieces), fc.boolean()), { minLength: 1, maxLength: 3 }))
    .map(([text, edits]) => {
      const parts = chunks(text);
      for (const [at, piece, insert] of edits) {
        if (insert) parts.splice(at % (parts.length + 1), 0, piece);
        else parts.splice(at % Math.max(1, parts.length), 1);
      }
      return parts.join("");
    });
}
