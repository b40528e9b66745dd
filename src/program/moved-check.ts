/**
 * A check carried across an edit that changes no finding: the old result with every offset after
 * the edit moved by the change in length, and the few objects the edit did change (a comment's
 * text, a description's value) swapped for their new versions. Built in time proportional to
 * what lies after the edit: the parts of the tree and model that end before it are shared, the
 * rest copied with moved ranges. Deciding that an edit changes no finding is the caller's job
 * (`token-edit.ts`); this copy only declines when some range ends inside the edited span, or when
 * it meets data it does not understand.
 */
import type { Range, SourceFile } from "../core/source-file.js";
import type { CheckResult } from "../analysis/model.js";
import type { TextEdit } from "../parser/rescan.js";

/** Thrown inside the copy when a range cannot be moved without a fresh check. */
class NotReusable extends Error {}

/**
 * Where an offset of the old text lies in the new one, given `edit`: a range's start at the
 * edit's old end (the token after it) moves, a range's end at the edit's start (the token before
 * it) stays; `undefined` for an offset inside the edited span, which only a fresh check can place.
 */
export function moveStart(edit: TextEdit, offset: number): number | undefined {
  if (offset < edit.from) return offset;
  if (offset >= edit.oldTo) return offset + edit.newTo - edit.oldTo;
  return undefined;
}

/** The end-of-range counterpart of {@link moveStart}. */
export function moveEnd(edit: TextEdit, offset: number): number | undefined {
  if (offset <= edit.from) return offset;
  if (offset > edit.oldTo) return offset + edit.newTo - edit.oldTo;
  return undefined;
}

/**
 * `previous` (the check of an earlier text of `file`'s path) for `file`, whose text is the old one
 * with `edit` applied: every range moved ({@link moveStart}, {@link moveEnd}), and each object
 * that is a key of `replaced` swapped for its value wherever it occurs. `undefined` when a range
 * lies in the edited span, a range would be empty at the edit (where a fresh check may put it
 * either side), or the result holds something other than plain objects and arrays.
 */
export function moveCheck(previous: CheckResult, file: SourceFile, edit: TextEdit, replaced: ReadonlyMap<object, unknown>): CheckResult | undefined {
  return moveOffsets(previous, edit, new Map<object, unknown>([...replaced, [previous.file, file], [previous.ast.range, { start: 0, end: file.text.length }]]));
}

/**
 * `value` (plain objects and arrays: a check, a tree) with every range moved across `edit` and
 * each key of `replaced` swapped for its value, as {@link moveCheck} says; `undefined` when it
 * cannot be moved. What is unchanged is shared, not copied.
 */
export function moveOffsets<T>(value: T, edit: TextEdit, replaced: ReadonlyMap<object, unknown>): T | undefined {
  const moved = new Map<object, unknown>(replaced);
  const copy = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const known = moved.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      let items: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const copied = copy(item);
        if (copied !== item) (items ??= value.slice())[i] = copied;
      }
      return items ?? value;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotReusable(); // a Map, class instance...: not plain data this copy understands
    const fields = value as Record<string, unknown>;
    if (typeof fields["start"] === "number" && isRange(value)) {
      const start = moveStart(edit, value.start);
      const end = moveEnd(edit, value.end);
      if (start === undefined || end === undefined || start > end || (value.start === value.end && start !== end)) throw new NotReusable();
      return start === value.start && end === value.end ? value : { start, end };
    }
    // A tree node and everything under it lie before the edit; so does a checked agent, edge,
    // join or graph whose declaration does (it is made from that declaration alone).
    if (isNodeBefore(value, edit.from) || isNodeBefore(fields["decl"] as object | undefined, edit.from)) return value;
    let result: Record<string, unknown> | undefined;
    for (const key in fields) {
      const field = fields[key];
      const copied = copy(field);
      if (copied !== field) (result ??= { ...fields })[key] = copied;
    }
    // Only what changed is remembered, and only what may be met twice (a tree node, which the
    // model names as a `decl`; a model object): the same object met again maps to the same copy.
    if (result !== undefined && (typeof fields["kind"] === "string" || "decl" in fields)) moved.set(value, result);
    return result ?? value;
  };
  try {
    return copy(value) as T;
  } catch (error) {
    if (error instanceof NotReusable) return undefined;
    throw error;
  }
}

/** True when `[start, end)` of the old text lies before or after `edit`, so its text is the same in both versions. */
export function apart(edit: TextEdit, start: number, end: number): boolean {
  return end <= edit.from || start >= edit.oldTo;
}

function isRange(value: object): value is Range {
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as Range).start === "number" && typeof (value as Range).end === "number";
}

/** True for a syntax tree node (a `kind` and a `range`) that ends before `offset`: its whole subtree does. */
function isNodeBefore(value: object | undefined, offset: number): boolean {
  const node = value as { kind?: unknown; range?: Range } | undefined;
  return typeof node?.kind === "string" && node.range !== undefined && node.range.end < offset;
}
