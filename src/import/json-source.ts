/**
 * JSON input for the importers: parsed with `JSON.parse`, a syntax error placed at a 1-based
 * line and column of the input (`core/json-syntax.ts`), a key given twice in one
 * object refused at its place (the runtime's reader, `runtime/duplicate-keys.ts`: `JSON.parse`
 * keeps the last value silently, Step Functions and Python keep others), and small readers that
 * check the shape of what was parsed and say where it is wrong (`nodes[2].id`).
 */
import { getLineAndColumn, type SourceFile } from "../core/source-file.js";
import { duplicateKeyProblem, findDuplicateKeys, hasDuplicateKeys } from "../runtime/duplicate-keys.js";
import { jsonError } from "../core/json-syntax.js";
import type { ImportProblem } from "./model.js";

/** A JSON value, or why the text is not JSON. */
export type JsonRead = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: ImportProblem };

/**
 * Parses `file` as JSON (RFC 8259). A leading byte order mark is skipped. A key given twice in
 * one object is refused (RFC 8259 section 4 leaves its meaning open), at the second key.
 */
export function readJson(file: SourceFile, what: string): JsonRead {
  const skip = file.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const text = file.text.slice(skip);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const { offset, problem } = jsonError(text, error);
    const { line, column } = getLineAndColumn(file, offset + skip);
    return { ok: false, problem: { message: `is not valid JSON: ${problem}`, line, column, hint: `give the ${what} as JSON` } };
  }
  const repeated = hasDuplicateKeys(text, value) ? findDuplicateKeys(text)[0] : undefined;
  if (repeated !== undefined) {
    const { line, column } = getLineAndColumn(file, repeated.offset + skip);
    return {
      ok: false,
      problem: {
        message: duplicateKeyProblem(repeated),
        line,
        column,
        hint: `give each key of an object once in the ${what}`,
      },
    };
  }
  return { ok: true, value };
}

/** A shape error in parsed input, thrown inside an importer and caught by {@link readShape}. */
export class ShapeError extends Error {
  constructor(
    readonly where: string,
    readonly expected: string,
  ) {
    super(`${where} should be ${expected}`);
  }
}

/**
 * Runs `read` and turns a {@link ShapeError} into an {@link ImportProblem} (`hint` says what input
 * was expected). Any other error is a bug and is rethrown.
 */
export function readShape<T>(read: () => T, hint: string): { ok: true; value: T } | { ok: false; problem: ImportProblem } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, problem: { message: `${error.where} should be ${error.expected}`, hint } };
    throw error;
  }
}

/** `value` as a plain object, or a {@link ShapeError} at `where`. */
export function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ShapeError(where, "an object");
  return value as Record<string, unknown>;
}

/** `value` as an array, or a {@link ShapeError} at `where`. */
export function array(value: unknown, where: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(where, "an array");
  return value;
}

/** `value` as a non-empty string, or a {@link ShapeError} at `where`. */
export function text(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") throw new ShapeError(where, "a non-empty string");
  return value;
}

/** `value` as a string when it is one, else undefined. */
export function optionalText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
