/**
 * Syntax error messages in plain words: what was found, what was expected, after which token,
 * e.g. `expected '->' after 'research', found '{'`. Replaces Chevrotain's default messages,
 * which list every alternative path in full.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { chevrotain } from "./chevrotain.js";

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

/**
 * The first token of each expected path. Every alternation of this grammar is LL(1) with at
 * most three choices, so the list stays short (Chevrotain's default prints whole paths).
 */
function expectedFromPaths(paths: readonly (readonly TokenType[])[]): string {
  return listAlternatives(paths.flatMap((path) => (path[0] === undefined ? [] : [describeTokenType(path[0])])));
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
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous }) {
    const expected = expectedFromPaths(expectedPathsPerAlt.flat());
    return `expected ${expected}${after(previous)}, found ${describeToken(actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous }) {
    const expected = expectedFromPaths(expectedIterationPaths);
    return `expected ${expected}${after(previous)}, found ${describeToken(actual[0])}`;
  },
};

/**
 * The message for a keyword written where a name belongs (`agent peer: peer`): keywords are
 * reserved, so the fix is a different name.
 */
export function keywordAsName(word: string): string {
  return `'${word}' is a keyword and cannot be used as a name; rename it (e.g. '${word}_1')`;
}

/**
 * The message for digits glued to a name where a name belongs (`agent 9x: worker`, which lexes
 * as the integer `9` and the name `x`).
 */
export function nameStartsWithDigit(text: string): string {
  return `a name cannot start with a digit: '${text}'; start it with a letter or '_'`;
}
