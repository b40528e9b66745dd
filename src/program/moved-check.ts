/**
 * A check carried across an edit that changes no finding: the old result with every offset after
 * the edit moved by the change in length, and the few objects the edit did change (a comment's
 * text, a description's value) swapped for their new versions. Built in time proportional to
 * what lies after the edit: the parts of the tree and model that end before it are shared, the
 * rest copied with moved ranges. The diagnostics are moved at once, the tree and model when first
 * read, so that an editor shows the findings of a keystroke in a 10^4-agent document before the
 * 10^5 objects after it are copied (the language server reads them while the editor is idle).
 * Deciding that an edit changes no finding is the caller's job (`token-edit.ts`); this copy only
 * declines when some range ends inside the edited span, or when it meets data it does not
 * understand.
 */
import type { Range, SourceFile } from "../core/source-file.js";
import type { CheckedAgent, CheckedEdge, CheckedGraph, CheckedJoin, CheckResult } from "../analysis/model.js";
import type { TextEdit } from "../parser/rescan.js";

/** Thrown inside the copy when a range cannot be moved without a fresh check. */
class NotReusable extends Error {}

/** The kinds of tree node that the checked model names as a `decl`: the only nodes the copy may meet twice. */
type DeclKind = (CheckedGraph | CheckedAgent | CheckedEdge | CheckedJoin)["decl"]["kind"];
const DECL_KIND: Readonly<Record<DeclKind, true>> = { Graph: true, Agent: true, Edge: true, Join: true };
const isDeclKind = (kind: string): boolean => Object.hasOwn(DECL_KIND, kind);

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
 * of a diagnostic lies in the edited span or would be empty at the edit (where a fresh check may
 * put it either side), or a diagnostic holds something other than plain objects and arrays.
 *
 * Only the diagnostics are moved now; `ast` and `graphs` are moved together (so a model object's
 * `decl` stays the very node of the tree) on the first read of either. A tree that cannot be moved
 * then (an empty range at the edit, which no random edit of the property suites has met) is taken
 * from `recheck()`, a fresh check of `file`: the edit changes no finding, so its diagnostics are
 * the moved ones.
 */
export function moveCheck(
  previous: CheckResult,
  file: SourceFile,
  edit: TextEdit,
  replaced: ReadonlyMap<object, unknown>,
  recheck: () => CheckResult,
): CheckResult | undefined {
  // The whole file's range is the new text's, also where the edit is at its end.
  const { ast, graphs } = previous;
  const swaps = new Map<object, unknown>([...replaced, [previous.file, file], [ast.range, { start: 0, end: file.text.length }]]);
  const diagnostics = moveOffsets(previous.diagnostics, edit, swaps);
  if (diagnostics === undefined) return undefined;
  let moved: Pick<CheckResult, "ast" | "graphs"> | undefined;
  const settled = (): Pick<CheckResult, "ast" | "graphs"> => {
    if (moved !== undefined) return moved;
    moved = moveOffsets({ ast, graphs }, edit, swaps) ?? recheck();
    return moved;
  };
  return {
    file,
    diagnostics,
    get ast() {
      return settled().ast;
    },
    get graphs() {
      return settled().graphs;
    },
  };
}

/**
 * `value` (plain objects and arrays: a check, a tree) with every range moved across `edit` and
 * each key of `replaced` swapped for its value, as {@link moveCheck} says; `undefined` when it
 * cannot be moved. What is unchanged is shared, not copied, and an object met twice (a
 * declaration, in the tree and as a model object's `decl`) maps to one copy.
 */
export function moveOffsets<T>(value: T, edit: TextEdit, replaced: ReadonlyMap<object, unknown>): T | undefined {
  const { from, oldTo } = edit;
  const delta = edit.newTo - edit.oldTo;
  // Swaps are looked up only where an object of their sort can be met: tree nodes and model
  // objects (a `decl`) in one map, which also remembers their copies; the few swapped ranges and
  // other objects (a checked terminal, the file) in short lists, since a map lookup for each of
  // the 10^5 ranges and objects after the edit would cost more than the copy.
  const moved = new Map<object, unknown>();
  const rangeKeys: object[] = [];
  const rangeValues: unknown[] = [];
  const otherKeys: object[] = [];
  const otherValues: unknown[] = [];
  const nodeKeys: object[] = [];
  const nodeValues: unknown[] = [];
  for (const [key, to] of replaced) {
    const kind = (key as { kind?: unknown }).kind;
    if (typeof kind === "string" ? isDeclKind(kind) : "decl" in key) moved.set(key, to);
    else if (typeof kind === "string") (nodeKeys.push(key), nodeValues.push(to));
    else if (isRange(key)) (rangeKeys.push(key), rangeValues.push(to));
    else (otherKeys.push(key), otherValues.push(to));
  }
  const copy = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < otherKeys.length; i++) if (otherKeys[i] === value) return otherValues[i];
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
    const start = fields["start"];
    if (typeof start === "number" && isRange(value)) {
      for (let i = 0; i < rangeKeys.length; i++) if (rangeKeys[i] === value) return rangeValues[i];
      const end = value.end;
      // moveStart and moveEnd, inlined: this runs for every range after the edit.
      const newStart = start < from ? start : start >= oldTo ? start + delta : -1;
      const newEnd = end <= from ? end : end > oldTo ? end + delta : -1;
      if (newStart < 0 || newEnd < 0 || newStart > newEnd || (start === end && newStart !== newEnd)) throw new NotReusable();
      return newStart === start && newEnd === end ? value : { start: newStart, end: newEnd };
    }
    const kind = fields["kind"];
    // A tree node is met once, in the tree, unless the model names it as a `decl`: only nodes of
    // the kinds the model names are looked up and remembered (a map entry for each of the 10^5
    // nodes after the edit cost more than the rest of the copy).
    const tracked = typeof kind === "string" ? isDeclKind(kind) : "decl" in fields;
    if (tracked) {
      const known = moved.get(value);
      if (known !== undefined) return known;
    } else if (typeof kind !== "string") {
      for (let i = 0; i < otherKeys.length; i++) if (otherKeys[i] === value) return otherValues[i];
    } else {
      for (let i = 0; i < nodeKeys.length; i++) if (nodeKeys[i] === value) return nodeValues[i];
    }
    // A tree node and everything under it lie before the edit; so does a checked agent, edge,
    // join or graph whose declaration does (it is made from that declaration alone).
    if (isNodeBefore(value, from) || isNodeBefore(fields["decl"] as object | undefined, from)) return value;
    let result: Record<string, unknown> | undefined;
    for (const key in fields) {
      const field = fields[key];
      const copied = copy(field);
      if (copied === field) continue;
      (result ??= { ...fields })[key] = copied;
      // A declaration of a kind not listed in DECL_KIND would be copied apart from its copy in
      // the tree, and the two would no longer be one object: a fresh check is the safe answer.
      if (key === "decl" && typeof field === "object" && field !== null && !isDeclKind(String((field as { kind?: unknown }).kind))) {
        throw new NotReusable();
      }
    }
    if (result !== undefined && tracked) moved.set(value, result);
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
  if (typeof (value as Range).start !== "number" || typeof (value as Range).end !== "number") return false;
  // Counted rather than listed with Object.keys, which would allocate an array per range; the
  // caller has checked that the prototype is Object.prototype, which has no enumerable keys.
  let keys = 0;
  for (const _ in value) keys++;
  return keys === 2;
}

/** True for a syntax tree node (a `kind` and a `range`) that ends before `offset`: its whole subtree does. */
function isNodeBefore(value: object | undefined, offset: number): boolean {
  const node = value as { kind?: unknown; range?: Range } | undefined;
  return typeof node?.kind === "string" && node.range !== undefined && node.range.end < offset;
}
