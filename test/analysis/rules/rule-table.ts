/**
 * ESLint-style rule tables: `valid` sources must not trigger the rule; in each `invalid` source a
 * `«` marks where each expected diagnostic starts (TypeSpec marks spans inline the same way),
 * and the rule must report exactly there, in that order, with the given severity. Where the
 * source also marks ends with `»` (one per `«`), each diagnostic's whole range is asserted.
 */
import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import type { CheckOptions } from "../../../src/analysis/check.js";
import { getLineAndColumn } from "../../../src/core/source-file.js";

/** One expected diagnostic at the next `«` marker. */
export interface ExpectedError {
  readonly severity?: "error" | "warning" | "info";
  /** Words that must appear in the message. */
  readonly mentions?: readonly string[];
  /** The whole message, when the test states it exactly. */
  readonly message?: string;
}

export interface InvalidCase {
  readonly name: string;
  readonly code: string;
  readonly errors: readonly ExpectedError[];
  readonly options?: CheckOptions;
}

export interface ValidCase {
  readonly name: string;
  readonly code: string;
}

const MARK = "«";
const END = "»";

/** Lines joined with LF, so test sources read like files. */
export function lines(...text: string[]): string {
  return text.join("\n") + "\n";
}

/** Registers the tests of one rule. */
export function ruleTable(rule: string, table: { valid: readonly ValidCase[]; invalid: readonly InvalidCase[] }): void {
  describe(rule, () => {
    for (const { name, code } of table.valid) {
      it(`stays quiet: ${name}`, () => {
        const result = checkText("valid.seam", code);
        expect(result.diagnostics.filter((d) => d.rule === "syntax" || d.rule === "internal-error")).toEqual([]);
        expect(result.diagnostics.filter((d) => d.rule === rule).map((d) => d.message)).toEqual([]);
      });
    }
    for (const { name, code, errors, options } of table.invalid) {
      it(`reports: ${name}`, () => {
        const marks: number[] = [];
        const ends: number[] = [];
        let text = "";
        for (const ch of code) {
          if (ch === MARK) marks.push(text.length);
          else if (ch === END) ends.push(text.length);
          else text += ch;
        }
        expect(marks.length, "one « per expected diagnostic").toBe(errors.length);
        const result = checkText("invalid.seam", text, options);
        expect(result.diagnostics.filter((d) => d.rule === "syntax" || d.rule === "internal-error")).toEqual([]);
        const found = result.diagnostics.filter((d) => d.rule === rule);
        const actual = found.map((d) => ({ rule: d.rule, severity: d.severity, ...getLineAndColumn(d.file, d.range.start) }));
        const expected = errors.map((e, i) => ({
          rule,
          severity: e.severity ?? "error",
          ...getLineAndColumn(result.file, marks[i] as number),
        }));
        expect(actual).toEqual(expected);
        if (ends.length > 0) {
          expect(ends.length, "one » per «").toBe(marks.length);
          expect(found.map((d) => [d.range.start, d.range.end])).toEqual(marks.map((m, i) => [m, ends[i]]));
        }
        errors.forEach((e, i) => {
          for (const word of e.mentions ?? []) expect(found[i]?.message).toContain(word);
          if (e.message !== undefined) expect(found[i]?.message).toBe(e.message);
        });
      });
    }
  });
}
