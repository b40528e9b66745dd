/**
 * grammar/seam.ebnf from the Chevrotain grammar specification (`grammar.ts`): each rule's shape
 * read from Chevrotain's serialized productions and printed in EBNF (ISO/IEC 14977 style:
 * `=`, `;`, `|`, `( )`, and the postfix `? * +` of W3C's EBNF notation). `npm run grammar`
 * writes the file; a test checks the committed file equals this output.
 */
import type { ISerializedGast } from "chevrotain";
import { KEYWORDS } from "../../core/vocabulary.js";
import { getSeamGrammar } from "./grammar.js";

/** A rule body: sequence, alternation, the three repetitions, a token or a rule reference. */
export type Shape =
  | { readonly type: "seq"; readonly items: readonly Shape[] }
  | { readonly type: "alt"; readonly options: readonly Shape[] }
  | { readonly type: "opt" | "star" | "plus"; readonly body: Shape }
  | { readonly type: "token"; readonly name: string }
  | { readonly type: "rule"; readonly name: string };

/** Rule name -> shape, in the order the rules are written. */
export type GrammarShape = Map<string, Shape>;

/** Flattens nested sequences and unwraps one-element ones. */
export function seq(items: readonly Shape[]): Shape {
  const flat = items.flatMap((i) => (i.type === "seq" ? i.items : [i]));
  return flat.length === 1 ? (flat[0] as Shape) : { type: "seq", items: flat };
}

/** Flattens nested alternations and unwraps one-option ones. */
export function alt(options: readonly Shape[]): Shape {
  const flat = options.flatMap((o) => (o.type === "alt" ? o.options : [o]));
  return flat.length === 1 ? (flat[0] as Shape) : { type: "alt", options: flat };
}

/** EBNF names of Chevrotain's token classes; keywords and punctuation use their quoted label. */
const tokenClasses: Readonly<Record<string, string>> = {
  Identifier: "ID",
  Name: "NAME",
  Integer: "INT",
  VersionNumber: "VERSION",
  StringLiteral: "STRING",
  Comparison: "COMPARISON",
};

function terminalName(node: ISerializedGast & { name?: string; label?: string }): string {
  const name = node.name ?? "";
  const cls = tokenClasses[name];
  if (cls !== undefined) return cls;
  const quoted = /^'(.*)'$/.exec(node.label ?? "");
  if (quoted === null) throw new Error(`internal: token ${name} has no EBNF name`);
  return `"${quoted[1]}"`;
}

function fromGast(node: ISerializedGast): Shape {
  const children = (node.definition ?? []).map(fromGast);
  const node2 = node as ISerializedGast & { name?: string; label?: string; separator?: ISerializedGast };
  switch (node.type) {
    case "Terminal":
      return { type: "token", name: terminalName(node2) };
    case "NonTerminal":
      return { type: "rule", name: node2.name ?? "" };
    case "Alternative":
      return seq(children);
    case "Alternation":
      return alt(children);
    case "Option":
      return { type: "opt", body: seq(children) };
    case "Repetition":
      return { type: "star", body: seq(children) };
    case "RepetitionMandatory":
      return { type: "plus", body: seq(children) };
    case "RepetitionMandatoryWithSeparator":
    case "RepetitionWithSeparator": {
      // X (SEP X)*, or that whole sequence optional when no first item is required.
      const separator = node2.separator === undefined ? [] : [fromGast(node2.separator)];
      const body = seq(children);
      const list = seq([body, { type: "star", body: seq([...separator, body]) }]);
      return node.type === "RepetitionWithSeparator" ? { type: "opt", body: list } : list;
    }
    default:
      throw new Error(`internal: unknown production type ${node.type}`);
  }
}

/** The shapes of Chevrotain's serialized rules (`parser.getSerializedGastProductions()`). */
export function shapeFromChevrotain(rules: readonly ISerializedGast[]): GrammarShape {
  const shapes: GrammarShape = new Map();
  for (const rule of rules) {
    const name = (rule as ISerializedGast & { name: string }).name;
    shapes.set(name, seq((rule.definition ?? []).map(fromGast)));
  }
  return shapes;
}

/** A readable one-line form of a shape, close to the EBNF notation, for failure messages. */
export function showShape(shape: Shape): string {
  const wrap = (s: Shape): string => (s.type === "seq" || s.type === "alt" ? `(${showShape(s)})` : showShape(s));
  switch (shape.type) {
    case "seq":
      return shape.items.map(wrap).join(" ");
    case "alt":
      return shape.options.map(showShape).join(" | ");
    case "opt":
      return `${wrap(shape.body)}?`;
    case "star":
      return `${wrap(shape.body)}*`;
    case "plus":
      return `${wrap(shape.body)}+`;
    default:
      return shape.name;
  }
}

/** Wraps `text` to lines of at most `width` characters, each starting with `indent`. */
function wrap(words: readonly string[], indent: string, width = 96): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    if (line.length + word.length + 1 > width && line.trim() !== "") {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  if (line.trim() !== "") lines.push(line.trimEnd());
  return lines;
}

/** The text of grammar/seam.ebnf, from the shared grammar instance. Deterministic. */
export function renderEbnf(): string {
  const shapes = shapeFromChevrotain(getSeamGrammar().getSerializedGastProductions());
  const width = Math.max(...[...shapes.keys()].map((name) => name.length));
  const header = [
    "(*",
    "  The Seam language, version 1. Generated by `npm run grammar` from the Chevrotain grammar",
    "  specification (src/parser/spec/grammar.ts); do not edit. docs/language.md explains it.",
    "",
    "  Notation: `=` defines a rule, `;` ends it, `|` separates alternatives, `( )` groups,",
    "  `?` is optional, `*` is zero or more, `+` is one or more. Quoted text is a keyword or",
    "  punctuation; upper-case names are the tokens below.",
    "",
    "  Tokens",
    "    ID       a name: a Unicode letter (ID_Start) or '_', then letters, digits (ID_Continue)",
    "             and '-', as JavaScript identifiers without '$' and with no invisible character",
    "             (Default_Ignorable_Code_Point); a keyword is not an ID, and a hyphen directly",
    "             followed by '>' is left to '->' (so a->b reads as a -> b)",
    "    NAME     an ID or any keyword (after '.' in a field path: provenance[].agent)",
    "    INT      [0-9]+, at most 9007199254740991",
    "    VERSION  [0-9]+ '.' [0-9]+ such as 1.3",
    "    STRING   '\"' ... '\"' on one line, escapes \\\" \\\\ \\n \\t \\uXXXX",
    "    \"[]\"     the two characters '[' ']' together",
    "  Skipped: spaces, tabs, line breaks (LF, CRLF, CR), // line comments, /* block comments */,",
    "  a byte order mark at the very start.",
    "",
    ...wrap(["Keywords:", ...KEYWORDS], "  "),
    "*)",
    "",
  ];
  const rules = [...shapes].map(([name, shape]) => `${name.padEnd(width)} = ${showShape(shape)} ;`);
  return `${[...header, ...rules].join("\n")}\n`;
}
