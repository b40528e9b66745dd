/**
 * Every token of the Seam language (docs/language.md) as Chevrotain token types: the
 * grammar specification's vocabulary. Keywords are declared
 * with `longer_alt: Identifier`, so `agents` or `seam-bot` lex as identifiers, not as a keyword
 * followed by letters (Chevrotain's keyword pattern). All keywords and identifiers share the
 * {@link Name} category, which is what a field path segment after `.` accepts: envelope fields
 * such as `provenance[].agent` or `version` are keywords elsewhere.
 *
 * The patterns are the specification of each token: Seam lexes with its own scanner
 * (`scanner.ts`), which a test compares with a Chevrotain `Lexer` built from {@link allTokens}.
 * The Chevrotain grammar (`grammar.ts`) takes its token vocabulary from here.
 */
import type { TokenType } from "chevrotain";
import { KEYWORDS } from "../../core/vocabulary.js";
import { chevrotain } from "./chevrotain.js";

const { createToken, Lexer } = chevrotain;

/** Any identifier or keyword (abstract category; never produced by the lexer itself). */
export const Name = createToken({ name: "Name", label: "a field name", pattern: Lexer.NA });

/**
 * A name: a Unicode ID_Start character or `_`, then ID_Continue characters and hyphens (UAX #31
 * identifiers, without `$`), none of them invisible (Default_Ignorable_Code_Point: the joiners
 * U+200C/U+200D, variation selectors, U+034F, the Hangul fillers); a hyphen directly followed by
 * `>` is left for the arrow, so `a->b` reads as `a -> b`.
 */
export const Identifier = createToken({
  name: "Identifier",
  label: "a name",
  // A custom matcher: Chevrotain's lexer does not read characters outside the Basic
  // Multilingual Plane (surrogate pairs) with a plain Unicode pattern.
  pattern: { exec: (text: string, offset: number) => matchAt(identifierPattern, text, offset) },
  line_breaks: false,
  categories: [Name],
});

/** The name pattern, sticky: matched at an offset by {@link matchAt}. */
const identifierPattern = /(?!\p{Default_Ignorable_Code_Point})[\p{ID_Start}_](?:(?!\p{Default_Ignorable_Code_Point})\p{ID_Continue}|-(?!>))*/uy;

/** `pattern` matched at exactly `offset` of `text`, or null. */
function matchAt(pattern: RegExp, text: string, offset: number): RegExpExecArray | null {
  pattern.lastIndex = offset;
  return pattern.exec(text);
}

function keyword(word: string): TokenType {
  return createToken({
    name: `Kw_${word}`,
    label: `'${word}'`,
    pattern: new RegExp(word),
    longer_alt: Identifier,
    categories: [Name],
  });
}

/** Every keyword of the vocabulary (`core/vocabulary.ts`), in its order. */
export const keywordTokens: readonly TokenType[] = KEYWORDS.map(keyword);

/**
 * The token type of a keyword.
 *
 * @throws Error when `word` is not a keyword (a bug in Seam).
 */
export function keywordToken(word: string): TokenType {
  const token = keywordTokens[KEYWORDS.indexOf(word)];
  if (token === undefined) throw new Error(`internal: '${word}' is not a keyword`);
  return token;
}

/** `major.minor`, e.g. `1.3`; listed before {@link Integer} so `1.3` is one token. */
export const VersionNumber = createToken({
  name: "VersionNumber",
  label: "a version such as 1.3",
  pattern: /[0-9]+\.[0-9]+/,
});

/**
 * Three or more dotted parts, e.g. `1.3.0` (how envelopes write `envelope_version`). It counts as
 * a {@link VersionNumber} for the parser, so `envelope 1.3.0` is one error, reported when the
 * AST is built (a Seam file writes `major.minor`), not a version followed by a stray `.0`.
 * Lexed before {@link VersionNumber} (see {@link allTokens}), which would take its first two parts.
 */
export const LongVersion = createToken({
  name: "LongVersion",
  label: "a version such as 1.3",
  pattern: /[0-9]+(?:\.[0-9]+){2,}/,
  categories: [VersionNumber],
});

/** A decimal integer; its range is checked when the AST is built. */
export const Integer = createToken({ name: "Integer", label: "an integer", pattern: /[0-9]+/ });

/**
 * A minus sign directly followed by a number, e.g. `-1` or `-0.1`. No value of the language is
 * negative, but the token counts as an {@link Integer} for the parser, so `hop_limit -1` and
 * `confidence >= -0.1` are one error each (reported when the AST is built, where the setting is
 * known), not a stray `-` and a wrong `hop_limit 1`, or `-0` and a stray `.1`.
 */
export const NegativeNumber = createToken({
  name: "NegativeNumber",
  label: "an integer",
  pattern: /-[0-9]+(?:\.[0-9]+)*/,
  categories: [Integer],
});

/**
 * A number written as the language does not write numbers: with an exponent (`1e-3`, `-2E5`), or
 * without a digit before its point (`.5`). It counts as an {@link Integer} for the parser, so
 * `confidence >= 1e-3` is one error, reported when the AST is built with the number to write
 * instead, not `1` and a stray name `e-3`. Lexed before every other number and before
 * {@link Dot}, which would take its start.
 */
export const MalformedNumber = createToken({
  name: "MalformedNumber",
  label: "an integer",
  pattern: /-?(?:[0-9]+(?:\.[0-9]+)*|\.[0-9]+(?:\.[0-9]+)*)[eE][+-]?[0-9]+|-?\.[0-9]+(?:\.[0-9]+)*/,
  categories: [Integer],
});

/** A well-formed string: escapes `\" \\ \n \t \uXXXX`, no raw line break. */
export const StringLiteral = createToken({
  name: "StringLiteral",
  label: "a string",
  pattern: /"(?:[^"\\\r\n]|\\(?:["\\nt]|u[0-9a-fA-F]{4}))*"/,
});

/**
 * A string with a bad escape or no closing quote (it stops at the end of the line). It counts
 * as a {@link StringLiteral} for the parser, so the only error reported is the lexical one.
 */
export const MalformedString = createToken({
  name: "MalformedString",
  label: "a string",
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n]?)*"?/,
  categories: [StringLiteral],
});

/** The punctuation '->'. */
export const Arrow = createToken({ name: "Arrow", label: "'->'", pattern: /->/ });
/** A comparison of a guard: `<`, `<=`, `>` or `>=`. */
export const Comparison = createToken({ name: "Comparison", label: "a comparison such as >=", pattern: /[<>]=?/ });
/** The punctuation '{'. */
export const LCurly = createToken({ name: "LCurly", label: "'{'", pattern: /\{/ });
/** The punctuation '}'. */
export const RCurly = createToken({ name: "RCurly", label: "'}'", pattern: /\}/ });
/** The punctuation ','. */
export const Comma = createToken({ name: "Comma", label: "','", pattern: /,/ });
/** The punctuation ':'. */
export const Colon = createToken({ name: "Colon", label: "':'", pattern: /:/ });
/** The punctuation '.'. */
export const Dot = createToken({ name: "Dot", label: "'.'", pattern: /\./ });
/** The punctuation '[]'. */
export const Brackets = createToken({ name: "Brackets", label: "'[]'", pattern: /\[\]/ });

/** Spaces, tabs and line breaks between tokens (skipped). */
export const WhiteSpace = createToken({
  name: "WhiteSpace",
  pattern: /[ \t\f\v\r\n]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
/** A `//` comment, to the end of the line (skipped). */
export const LineComment = createToken({
  name: "LineComment",
  pattern: /\/\/[^\r\n]*/,
  group: Lexer.SKIPPED,
});
/** A block comment (slash-star to star-slash), possibly over several lines (skipped). */
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: /\/\*[\s\S]*?\*\//,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
/** The name of the token group that holds lexical errors the lexer recognises itself. */
export const ERROR_GROUP = "errors";
/** `/*` with no closing `*\/`: swallows the rest of the file, reported as one error. */
export const UnterminatedComment = createToken({
  name: "UnterminatedComment",
  pattern: /\/\*[\s\S]*/,
  group: ERROR_GROUP,
  line_breaks: true,
});

/** All tokens in lexing order (first match wins, keywords before identifiers). */
export const allTokens: readonly TokenType[] = [
  WhiteSpace,
  LineComment,
  BlockComment,
  UnterminatedComment,
  Arrow,
  Comparison,
  LCurly,
  RCurly,
  Comma,
  Colon,
  MalformedNumber,
  Dot,
  Brackets,
  LongVersion,
  VersionNumber,
  Integer,
  NegativeNumber,
  StringLiteral,
  MalformedString,
  ...keywordTokens,
  Identifier,
  Name,
];
