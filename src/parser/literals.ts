/**
 * AST leaves (names, keywords, numbers, strings, field paths) from token text and offsets, for
 * the parser (`parser.ts`). Literal values that lex but cannot be used (negative integers, integers beyond
 * 2^53 - 1) are reported here; the language version check's message is here too.
 */
import type { Range } from "../core/source-file.js";
import type { FieldPath, Identifier, IntegerLiteral, Keyword, NumberLiteral, StringLiteral, VersionLiteral } from "./ast.js";
import type { CountSettingKeyword } from "../core/settings.js";
import { decodeString } from "./decode-string.js";
import { exponentInFraction, leadingDecimalPoint, notWholeNumber } from "./messages.js";

/** The one language version that exists (docs/language.md). */
export const LANGUAGE_VERSION = 1;

/** The message for a `seam N` line with N other than {@link LANGUAGE_VERSION}. */
export function unknownLanguageVersion(value: number): string {
  return `unknown language version ${value}: only version ${LANGUAGE_VERSION} exists (write 'seam 1' or leave the line out)`;
}

/** The settings whose value is an integer (the message for a negative one names its rule). */
export type IntegerSetting = "seam" | "hop_limit" | "join" | "within" | CountSettingKeyword;

const integerRules: Readonly<Record<IntegerSetting, string>> = {
  seam: `the language version is ${LANGUAGE_VERSION} (write 'seam ${LANGUAGE_VERSION}' or leave the line out)`,
  hop_limit: "hop_limit must be a whole number of at least 1",
  max_rounds: "max_rounds must be a whole number of at least 1",
  repairs: "repairs must be a whole number, 0 or more (0: the first refusal escalates)",
  join: "a join waits for a whole number of its inputs, at least 1 (or 'all', 'any')",
  within: "a join waits a whole number of seconds, at least 1",
};

/** Receives the errors found while building (a range in the file and a message). */
export type ReportSyntaxError = (range: Range, message: string) => void;

/** Builds leaves; `start` and `end` are the token's offsets, `end` exclusive. */
export interface LiteralBuilder {
  identifier(image: string, start: number, end: number): Identifier;
  keyword<T extends string>(image: string, start: number, end: number): Keyword<T>;
  /**
   * The value of `setting`; undefined (and reported) when it is negative (`-1` and `-1.5` lex as
   * one token, see `NegativeNumber` in tokens.ts), has an exponent or a leading point (`1e3`,
   * `.5`: `MalformedNumber`), or is not a safe integer.
   */
  integer(image: string, start: number, end: number, setting: IntegerSetting): IntegerLiteral | undefined;
  /**
   * An envelope version; undefined (and reported) when it has more than two parts (`1.3.0`
   * lexes as one token, see `LongVersion` in tokens.ts) or a part is not a safe integer.
   */
  version(image: string, start: number, end: number): VersionLiteral | undefined;
  string(image: string, start: number, end: number): StringLiteral;
  /**
   * A number from 0 to 1 written as an integer (`0`, `1`) or a decimal (`0.8`, which lexes as a
   * version-shaped token); undefined (and reported) outside 0 to 1, negative, with more dots,
   * with an exponent (`1e-3`) or without a digit before the point (`.5`). `what` names the
   * setting in the message (`min_confidence`, `confidence`).
   */
  fraction(image: string, start: number, end: number, what: string): NumberLiteral | undefined;
  /** `names` are the segments as written (`[]` for brackets), in order. */
  fieldPath(names: readonly string[], start: number, end: number): FieldPath;
}

/** Creates a {@link LiteralBuilder} that reports negative and unrepresentable integers to `report`. */
export function createLiteralBuilder(report: ReportSyntaxError): LiteralBuilder {
  const safeInteger = (text: string, start: number, end: number): number | undefined => {
    const value = Number(text);
    if (Number.isSafeInteger(value)) return value;
    report({ start, end }, `integer ${text} is too large: the largest allowed is ${Number.MAX_SAFE_INTEGER}`);
    return undefined;
  };

  return {
    identifier: (name, start, end) => ({ kind: "Identifier", name, range: { start, end } }),
    keyword: <T extends string>(image: string, start: number, end: number): Keyword<T> => ({
      kind: "Keyword",
      value: image as T,
      range: { start, end },
    }),
    integer(image, start, end, setting) {
      if (image.startsWith("-")) {
        report({ start, end }, `negative numbers are not allowed: ${integerRules[setting]}`);
        return undefined;
      }
      if (!/^[0-9]+$/.test(image)) {
        report({ start, end }, notWholeNumber(image, integerRules[setting]));
        return undefined;
      }
      const value = safeInteger(image, start, end);
      return value === undefined ? undefined : { kind: "IntegerLiteral", value, range: { start, end } };
    },
    version(image, start, end) {
      const parts = image.split(".");
      if (parts.length > 2) {
        report({ start, end }, `write the envelope version as major.minor, e.g. 'envelope ${parts[0]}.${parts[1]}'`);
        return undefined;
      }
      const dot = image.indexOf(".");
      const major = safeInteger(image.slice(0, dot), start, end);
      const minor = safeInteger(image.slice(dot + 1), start, end);
      if (major === undefined || minor === undefined) return undefined;
      return { kind: "VersionLiteral", major, minor, range: { start, end } };
    },
    fraction(image, start, end, what) {
      const value = Number(image);
      if (/[eE]/.test(image)) {
        // The same number with a decimal point, when it is one a setting could take.
        const decimal = value >= 0 && value <= 1 && !/e/.test(String(value)) ? String(value) : undefined;
        report({ start, end }, exponentInFraction(image, decimal));
        return undefined;
      }
      if (/^\.[0-9]+$/.test(image) && value <= 1) {
        report({ start, end }, leadingDecimalPoint(image));
        return undefined;
      }
      if (!/^[0-9]+(?:\.[0-9]+)?$/.test(image) || !(value >= 0 && value <= 1)) {
        report({ start, end }, `${what} takes a number from 0 to 1, such as 0.8; found ${image}`);
        return undefined;
      }
      return { kind: "NumberLiteral", value, text: image, range: { start, end } };
    },
    string: (image, start, end) => ({ kind: "StringLiteral", value: decodeString(image).value, range: { start, end } }),
    fieldPath(names, start, end) {
      let text = names[0] ?? "";
      for (let i = 1; i < names.length; i++) {
        const name = names[i] as string;
        text += name === "[]" ? name : `.${name}`;
      }
      return { kind: "FieldPath", segments: names, text, range: { start, end } };
    },
  };
}
