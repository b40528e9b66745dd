/**
 * Test helper: the shape of a grammar rule, read either from `grammar/seam.ebnf` (a small
 * hand-written parser of that file's notation) or from Chevrotain's serialized productions, so
 * the two can be compared rule by rule.
 */
import type { ISerializedGast } from "chevrotain";

/** A rule body: sequence, alternation, the three repetitions, a token or a rule reference. */
export type Shape =
  | { readonly type: "seq"; readonly items: readonly Shape[] }
  | { readonly type: "alt"; readonly options: readonly Shape[] }
  | { readonly type: "opt" | "star" | "plus"; readonly body: Shape }
  | { readonly type: "token"; readonly name: string }
  | { readonly type: "rule"; readonly name: string };

/** Rule name -> shape, in the order the rules are written. */
export type GrammarShape = Map<string, Shape>;

/** Flattens nested sequences and alternations and unwraps one-element ones. */
function seq(items: readonly Shape[]): Shape {
  const flat = items.flatMap((i) => (i.type === "seq" ? i.items : [i]));
  return flat.length === 1 ? (flat[0] as Shape) : { type: "seq", items: flat };
}

function alt(options: readonly Shape[]): Shape {
  const flat = options.flatMap((o) => (o.type === "alt" ? o.options : [o]));
  return flat.length === 1 ? (flat[0] as Shape) : { type: "alt", options: flat };
}

/**
 * Parses the EBNF notation of `grammar/seam.ebnf`: `name = expr ;`, `|`, `( )`, postfix
 * `? * +`, `"quoted"` terminals, upper-case token names, `(* comments *)`.
 *
 * @throws Error with the offset of the first thing it cannot read.
 */
export function parseEbnf(text: string): GrammarShape {
  const tokens: { value: string; offset: number }[] = [];
  const lexeme = /\s+|\(\*[\s\S]*?\*\)|[A-Za-z_][A-Za-z0-9_]*|"[^"]*"|[=;|()?*+]/y;
  while (lexeme.lastIndex < text.length) {
    const offset = lexeme.lastIndex;
    const match = lexeme.exec(text);
    if (match === null) throw new Error(`ebnf: cannot read offset ${offset}: ${text.slice(offset, offset + 20)}`);
    if (!/^\s|^\(\*/.test(match[0])) tokens.push({ value: match[0], offset });
  }
  let pos = 0;
  const peek = (): string | undefined => tokens[pos]?.value;
  const next = (): string => {
    const token = tokens[pos++];
    if (token === undefined) throw new Error("ebnf: unexpected end of file");
    return token.value;
  };
  const expect = (value: string): void => {
    const offset = tokens[pos]?.offset;
    if (next() !== value) throw new Error(`ebnf: expected '${value}' at offset ${offset}`);
  };

  const primary = (): Shape => {
    const offset = tokens[pos]?.offset;
    const token = next();
    if (token === "(") {
      const inner = expression();
      expect(")");
      return inner;
    }
    if (token.startsWith('"')) return { type: "token", name: token };
    if (/^[A-Z][A-Z0-9_]*$/.test(token)) return { type: "token", name: token };
    if (/^[a-z][A-Za-z0-9_]*$/.test(token)) return { type: "rule", name: token };
    throw new Error(`ebnf: unexpected '${token}' at offset ${offset}`);
  };
  const postfix = (): Shape => {
    const body = primary();
    const op = peek();
    if (op === "?" || op === "*" || op === "+") {
      pos++;
      return { type: op === "?" ? "opt" : op === "*" ? "star" : "plus", body };
    }
    return body;
  };
  const sequence = (): Shape => {
    const items = [postfix()];
    while (peek() !== undefined && !["|", ")", ";"].includes(peek() as string)) items.push(postfix());
    return seq(items);
  };
  const expression = (): Shape => {
    const options = [sequence()];
    while (peek() === "|") {
      pos++;
      options.push(sequence());
    }
    return alt(options);
  };

  const rules: GrammarShape = new Map();
  while (pos < tokens.length) {
    const name = next();
    if (rules.has(name)) throw new Error(`ebnf: rule ${name} defined twice`);
    expect("=");
    rules.set(name, expression());
    expect(";");
  }
  return rules;
}

/** EBNF names of Chevrotain's token classes; keywords and punctuation use their quoted label. */
const tokenClasses: Readonly<Record<string, string>> = {
  Identifier: "ID",
  Name: "NAME",
  Integer: "INT",
  VersionNumber: "VERSION",
  StringLiteral: "STRING",
};

function terminalName(node: ISerializedGast & { name?: string; label?: string }): string {
  const name = node.name ?? "";
  const cls = tokenClasses[name];
  if (cls !== undefined) return cls;
  const quoted = /^'(.*)'$/.exec(node.label ?? "");
  if (quoted === null) throw new Error(`grammar: token ${name} has no EBNF name`);
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
      throw new Error(`grammar: unknown production type ${node.type}`);
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

/** Every difference between two grammars: rules missing on either side, rules whose shape differs. */
export function compareGrammars(ebnf: GrammarShape, parser: GrammarShape): string[] {
  const problems: string[] = [];
  for (const name of ebnf.keys()) if (!parser.has(name)) problems.push(`rule ${name} is in the EBNF but not in the parser`);
  for (const [name, shape] of parser) {
    const written = ebnf.get(name);
    if (written === undefined) problems.push(`rule ${name} is in the parser but not in the EBNF`);
    else if (showShape(written) !== showShape(shape)) {
      problems.push(`rule ${name} differs:\n  ebnf:   ${showShape(written)}\n  parser: ${showShape(shape)}`);
    }
  }
  return problems;
}
