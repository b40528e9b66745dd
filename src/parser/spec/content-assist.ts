/**
 * What the grammar allows after a run of tokens: Chevrotain's content assist
 * (`computeContentAssist`) on the grammar specification, as Langium computes its completion from
 * the grammar's follow elements. Completion reads this, so a keyword added to the grammar (or to
 * the settings table it is built from) is offered without an edit to the language server.
 *
 * The grammar is built on first use (its self-analysis costs 15-30 ms): only the language server
 * asks.
 */
import type { IToken } from "chevrotain";
import { getSeamGrammar } from "./grammar.js";

/** One token the grammar accepts next, and where. */
export interface NextToken {
  /** The token type's name in `tokens.ts`: `Kw_agent`, `Identifier`, `Name`, `Integer`, `LCurly`... */
  readonly type: string;
  /** The keyword, for keyword tokens. */
  readonly keyword?: string;
  /** The grammar rules the token would be read in, outermost first (`file`, `graph`, `graphItem`, `edgeDecl`...). */
  readonly rules: readonly string[];
}

/**
 * The tokens the grammar accepts after `tokens` (parsed from the `file` rule), each token type
 * once per innermost rule, in the grammar's order. Empty when `tokens` is no valid beginning of a
 * file. Never throws.
 */
export function nextTokensAfter(tokens: readonly IToken[]): NextToken[] {
  const paths = getSeamGrammar().computeContentAssist("file", [...tokens]);
  const seen = new Set<string>();
  const out: NextToken[] = [];
  for (const path of paths) {
    const type = path.nextTokenType.name;
    const rules = path.ruleStack;
    const key = `${type} ${rules[rules.length - 1] ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const keyword = type.startsWith("Kw_") ? type.slice(3) : undefined;
    out.push(keyword === undefined ? { type, rules } : { type, keyword, rules });
  }
  return out;
}

/** One token as a Chevrotain token for {@link nextTokensAfter} (scanner kind and UTF-16 offsets). */
export { toChevrotainToken } from "./chevrotain-tokens.js";
