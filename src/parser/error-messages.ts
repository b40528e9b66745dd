/**
 * Syntax error messages in plain words: what was found, what was expected, after which token,
 * e.g. `expected '->' after 'research', found '{'`. Replaces Chevrotain's default messages,
 * which list every alternative path in full.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { chevrotain } from "./chevrotain.js";

/** Lists longer than this are replaced by a description of the rule. */
const MAX_LISTED = 5;

/** What a rule expects, for places where listing every first token would be too long. */
const ruleDescriptions: Readonly<Record<string, string>> = {
  graphItem: "a graph item ('agent', 'entry', an edge such as 'delegate', ...)",
};

/** What may close a block besides `}`: said when the closing brace is missing. */
const blockContents: Readonly<Record<string, string>> = {
  graph: "a graph item or '}'",
  agentDecl: "'terminal', 'version' or '}'",
  contractDecl: "'require' or '}'",
  edgeDecl: "'require', 'max_rounds' or '}'",
};

/** How a token type is named in messages: its label (`'->'`, `a name`), else its name. */
export function describeTokenType(type: TokenType): string {
  if (type === chevrotain.EOF) return "end of file";
  return type.LABEL ?? type.name;
}

/** How a found token is shown: its text in quotes (shortened), or `end of file`. */
export function describeToken(token: IToken | undefined): string {
  if (token === undefined || token.tokenType === chevrotain.EOF) return "end of file";
  const image = token.image.length > 24 ? `${token.image.slice(0, 21)}...` : token.image;
  return `'${image}'`;
}

function after(previous: IToken | undefined): string {
  if (previous === undefined || previous.tokenType === chevrotain.EOF || !Number.isFinite(previous.startOffset)) {
    return "";
  }
  return ` after ${describeToken(previous)}`;
}

function listAlternatives(words: readonly string[]): string {
  const unique = [...new Set(words)];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} or ${unique[unique.length - 1]}`;
}

function expectedFromPaths(paths: readonly (readonly TokenType[])[], ruleName: string): string {
  const firsts = paths.flatMap((path) => (path[0] === undefined ? [] : [describeTokenType(path[0])]));
  const unique = [...new Set(firsts)];
  const description = ruleDescriptions[ruleName];
  if (description !== undefined && unique.length > MAX_LISTED) return description;
  return listAlternatives(unique);
}

/** The message provider given to the Seam parser (Chevrotain's `errorMessageProvider`). */
export const seamErrorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous, ruleName }) {
    const expectedText =
      expected.name === "RCurly" && blockContents[ruleName] !== undefined
        ? (blockContents[ruleName] as string)
        : describeTokenType(expected);
    return `expected ${expectedText}${after(previous)}, found ${describeToken(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `expected 'graph' or end of file, found ${describeToken(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }) {
    const expected = expectedFromPaths(expectedPathsPerAlt.flat(), ruleName);
    return `expected ${expected}${after(previous)}, found ${describeToken(actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }) {
    const expected = expectedFromPaths(expectedIterationPaths, ruleName);
    return `expected ${expected}${after(previous)}, found ${describeToken(actual[0])}`;
  },
};
