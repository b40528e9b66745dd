/**
 * A check carried across an edit that changes no finding: the old result with every offset after
 * the edit moved by the change in length, and the few objects the edit did change (a comment's
 * text, a description's value) swapped for their new versions. The old result's tree and model
 * are moved in place, not copied: the program holds one check per path and replaces the old one
 * by the carried one, so nothing else reads it, and a copy of the 10^5 nodes after an edit in a
 * 10^4-agent document cost as much as checking it afresh. The diagnostics are copied (rules
 * give them range objects of the tree, which the move changes) and moved at once, the tree when
 * first read, so that an editor shows the findings of a keystroke in a long document before its
 * tree is moved (the language server reads it while the editor is idle). Deciding that an edit
 * changes no finding is the caller's job (`token-edit.ts`); a move declines, leaving the old
 * result as it was, when some range ends inside the edited span or when it meets data it does
 * not understand.
 */
import type { Diagnostic } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { CheckedAgent, CheckedEdge, CheckedGraph, CheckedJoin, CheckResult } from "../analysis/model.js";
import type { TextEdit } from "../parser/rescan.js";

/** Thrown inside the walk when a range cannot be moved without a fresh check. */
class NotReusable extends Error {}

/** The kinds of tree node that the checked model names as a `decl`: the nodes the walk meets twice. */
type DeclKind = (CheckedGraph | CheckedAgent | CheckedEdge | CheckedJoin)["decl"]["kind"];
/** Compared, not looked up: the walk asks this of every node (kinds are interned strings). */
const isDeclKind = (kind: string): kind is DeclKind => kind === "Agent" || kind === "Edge" || kind === "Join" || kind === "Graph";

/**
 * Where an offset of the old text lies in the new one, given `edit`: a range's start at the
 * edit's old end (the token after it) moves, a range's end at the edit's start (the token before
 * it) stays; -1 for an offset inside the edited span, which only a fresh check can place.
 */
export function moveStart(edit: TextEdit, offset: number): number {
  if (offset < edit.from) return offset;
  if (offset >= edit.oldTo) return offset + edit.newTo - edit.oldTo;
  return -1;
}

/** The end-of-range counterpart of {@link moveStart}. */
export function moveEnd(edit: TextEdit, offset: number): number {
  if (offset <= edit.from) return offset;
  if (offset > edit.oldTo) return offset + edit.newTo - edit.oldTo;
  return -1;
}

/**
 * Where the offsets of an old text lie in the new one: `start` places a range's start, `end` its
 * end, each -1 for an offset only a fresh check can place. Every offset below `from` stays where
 * it was, as a start and as an end, so that a walk can skip what ends before it.
 */
export interface OffsetShift {
  readonly from: number;
  start(offset: number): number;
  end(offset: number): number;
}

/** The shift of a text edit: {@link moveStart} and {@link moveEnd}. */
export function editShift(edit: TextEdit): OffsetShift {
  return { from: edit.from, start: (offset) => moveStart(edit, offset), end: (offset) => moveEnd(edit, offset) };
}

/**
 * Whether the range `[start, end)` of the old text, its ends moved to `newStart` and `newEnd`
 * ({@link moveStart}, {@link moveEnd}), is the range a fresh check would give: neither end inside
 * the edit, not reversed, and not an empty range at the edit (which a fresh check may put on
 * either side of the new text).
 */
function stillPlaced(start: number, end: number, newStart: number, newEnd: number): boolean {
  return newStart >= 0 && newEnd >= newStart && (start !== end || newStart === newEnd);
}

/**
 * `previous` (the check of an earlier text of `file`'s path, or of a tree equal to that text's
 * but for a name, `name-edit.ts`) made the check of `file`, whose text is the old one edited:
 * every range moved by `shift` ({@link editShift} for a text edit), and
 * each object that is a key of `replaced` (a handful: the edited comment or description and
 * their ranges) swapped for its value wherever it occurs. `undefined`, with `previous` untouched,
 * when a range of a diagnostic lies in the edited span or would be empty at the edit (where a
 * fresh check may put it either side).
 *
 * The diagnostics are moved now; `ast` and `graphs`, on the first read of either: then
 * `previous` is consumed (the result shares its tree and model, moved in place), so it must not
 * be read after that. A tree that cannot be moved then (an empty range at the edit, which no
 * random edit of the property suites has met, or data other than plain objects and arrays) is
 * left as it was and taken from `recheck()`, a fresh check of `file`: the edit changes no
 * finding, so its diagnostics are the moved ones.
 */
export function moveCheck(
  previous: CheckResult,
  file: SourceFile,
  shift: OffsetShift,
  replaced: ReadonlyMap<object, unknown>,
  recheck: () => CheckResult,
): CheckResult | undefined {
  const { ast, graphs } = previous;
  // The whole file's range is the new text's, also where the edit is at its end.
  const swaps = new Map<object, unknown>([...replaced, [previous.file, file], [ast.range, { start: 0, end: file.text.length }]]);
  const diagnostics = movedDiagnostics(previous.diagnostics, shift, swaps);
  if (diagnostics === undefined) return undefined;
  let moved: Pick<CheckResult, "ast" | "graphs"> | undefined;
  const settled = (): Pick<CheckResult, "ast" | "graphs"> => {
    if (moved !== undefined) return moved;
    const move = planMove({ ast, graphs }, shift, swaps);
    move?.();
    moved = move === undefined ? recheck() : { ast, graphs };
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
 * Copies of `diagnostics` with their ranges moved by `shift` and the keys of `replaced` (the
 * file, a swapped range) swapped; `undefined` when a range cannot be moved.
 */
function movedDiagnostics(diagnostics: readonly Diagnostic[], shift: OffsetShift, replaced: ReadonlyMap<object, unknown>): Diagnostic[] | undefined {
  const moved: Diagnostic[] = [];
  const place = (range: Range): Range | undefined => {
    const swapped = replaced.get(range) as Range | undefined;
    if (swapped !== undefined) return swapped;
    const start = shift.start(range.start);
    const end = shift.end(range.end);
    if (!stillPlaced(range.start, range.end, start, end)) return undefined;
    return start === range.start && end === range.end ? range : { start, end };
  };
  const fileOf = (file: SourceFile): SourceFile => (replaced.get(file) as SourceFile | undefined) ?? file;
  for (const diagnostic of diagnostics) {
    const range = place(diagnostic.range);
    if (range === undefined) return undefined;
    let related: Diagnostic["related"];
    if (diagnostic.related !== undefined) {
      const items: NonNullable<Diagnostic["related"]>[number][] = [];
      for (const item of diagnostic.related) {
        const itemRange = place(item.range);
        if (itemRange === undefined) return undefined;
        items.push({ ...item, file: fileOf(item.file), range: itemRange });
      }
      related = items;
    }
    moved.push({ ...diagnostic, file: fileOf(diagnostic.file), range, ...(related === undefined ? {} : { related }) });
  }
  return moved;
}

/**
 * The move of `root` (plain objects and arrays: a tree and its model) by `shift`, planned
 * without changing anything: a function that then moves every range after `shift.from` in place
 * and puts each key of `replaced` met in `root` by its value; `undefined` when `root` cannot be
 * moved. Every new offset is worked out from the old ones before any is written, so an object
 * met twice (a declaration, in the tree and as a model object's `decl`) is moved once.
 */
export function planMove(root: object, shift: OffsetShift, replaced: ReadonlyMap<object, unknown>): (() => void) | undefined {
  const { from } = shift;
  // A few swaps, so a scan of two short lists per object costs less than a map lookup for each.
  const swapKeys = [...replaced.keys()];
  const swapValues = [...replaced.values()];
  /** The position of `value` in `swapKeys`, or -1: a loop the walk inlines, where `indexOf` is a call per object. */
  const swapOf = (value: object): number => {
    for (let i = 0; i < swapKeys.length; i++) if (swapKeys[i] === value) return i;
    return -1;
  };
  const ranges: { start: number; end: number }[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const holders: Record<string | number, unknown>[] = [];
  const keys: (string | number)[] = [];
  const values: unknown[] = [];
  // Declarations, met in the tree and as a model object's `decl`: remembered so that the tree
  // under each (the whole tree, for a graph) is walked once; moving twice would do no harm, as
  // every offset is worked out before any is written. A set entry for each of the 10^5 nodes
  // after an edit would cost more than the move.
  const visited = new Set<object>();
  const moveRange = (range: Range): void => {
    const { start, end } = range;
    const newStart = shift.start(start);
    const newEnd = shift.end(end);
    if (!stillPlaced(start, end, newStart, newEnd)) throw new NotReusable();
    if (newStart !== start || newEnd !== end) (ranges.push(range as { start: number; end: number }), starts.push(newStart), ends.push(newEnd));
  };
  const visit = (holder: Record<string | number, unknown>, key: string | number, value: object): void => {
    const swap = swapOf(value);
    if (swap >= 0) {
      holders.push(holder);
      keys.push(key);
      values.push(swapValues[swap]);
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) visit(value as unknown as Record<number, unknown>, i, item);
      }
      return;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotReusable(); // a Map, class instance...: not plain data this move understands
    const fields = value as Record<string, unknown>;
    // Each field read once: these reads meet every shape of node, so each one costs.
    const kind = fields["kind"];
    const range = fields["range"] as Range | undefined;
    if (typeof kind === "string" && range !== undefined) {
      // A tree node: it and everything under it lie before the edit, or it is walked.
      if (range.end < from) return;
      if (isDeclKind(kind)) {
        if (visited.has(value)) return;
        visited.add(value);
      }
    } else {
      const start = fields["start"];
      if (typeof start === "number" && isRange(value)) return moveRange(value);
      const decl = fields["decl"] as object | undefined;
      // A checked agent, edge, join or graph whose declaration lies before the edit does too (it
      // is made from that declaration alone).
      if (decl !== undefined && isNodeBefore(decl, from)) return;
    }
    for (const name in fields) {
      const field = fields[name];
      if (typeof field !== "object" || field === null) continue;
      // A node's or model object's range (the tree's types say it is one): most of what is moved.
      if (name === "range" && swapOf(field) < 0) moveRange(field as Range);
      else visit(fields, name, field);
    }
  };
  try {
    visit({ root }, "root", root);
  } catch (error) {
    if (error instanceof NotReusable) return undefined;
    throw error;
  }
  return () => {
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i] as { start: number; end: number };
      range.start = starts[i] as number;
      range.end = ends[i] as number;
    }
    for (let i = 0; i < holders.length; i++) (holders[i] as Record<string | number, unknown>)[keys[i] as string | number] = values[i];
  };
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
