/**
 * Test helper: the shape of a grammar rule, read either from `grammar/seam.ebnf` (a small
 * hand-written parser of that file's notation) or from Chevrotain's serialized productions, so
 * the two can be compared rule by rule.
 */
import { alt, seq, showShape, type GrammarShape, type Shape } from "../../src/parser/spec/ebnf.js";

export { shapeFromChevrotain, showShape, type GrammarShape, type Shape } from "../../src/parser/spec/ebnf.js";

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
