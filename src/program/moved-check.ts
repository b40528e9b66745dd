/**
 * A check carried across an edit that changes no finding: the old result with every offset after
 * the edit moved by the change in length, and the few objects the edit did change (a comment's
 * text, a description's value) swapped for their new versions. The old result's tree is moved
 * in place (the model holds no offsets of its own), not copied: the program holds one check per path and replaces the old one
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
import type { CheckResult } from "../analysis/model.js";
import type { TextEdit } from "../parser/rescan.js";

/** Thrown inside the walk when a range cannot be moved without a fresh check. */
class NotReusable extends Error {}

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
 * their ranges, all at the edit) swapped for its value where it is held. `undefined`, with `previous` untouched,
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
  const inTree = new Map<object, unknown>([...replaced, [ast.range, { start: 0, end: file.text.length }]]);
  const diagnostics = movedDiagnostics(previous.diagnostics, shift, new Map([...inTree, [previous.file, file]]));
  if (diagnostics === undefined) return undefined;
  let moved: Pick<CheckResult, "ast" | "graphs"> | undefined;
  const settled = (): Pick<CheckResult, "ast" | "graphs"> => {
    if (moved !== undefined) return moved;
    const move = planMove(ast, graphs, shift, inTree);
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
 * Every range object of a tree (plain objects and arrays), by end, ties in the order met: made on
 * the tree's first move and kept with it, since the carried checks of a document's keystrokes
 * share one tree. A move keeps the order (it is monotonic, and declines for an offset it cannot
 * place), so each later move reads only the ranges that end at or after its edit, not the whole
 * tree: at 10^4 agents a walk of the 5 * 10^5 objects after a mid-document edit took 60 ms.
 * `undefined` for a tree with data other than plain objects and arrays.
 */
const treeRanges = new WeakMap<object, Range[]>();

function rangesOf(tree: object): Range[] | undefined {
  const known = treeRanges.get(tree);
  if (known !== undefined) return known;
  const ranges: Range[] = [];
  const visit = (value: object): void => {
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) if (typeof item === "object" && item !== null) visit(item);
      return;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotReusable(); // a Map, class instance...: not plain data this move understands
    if (isRange(value)) {
      ranges.push(value);
      return;
    }
    const fields = value as Record<string, unknown>;
    for (const name in fields) {
      const field = fields[name];
      if (typeof field === "object" && field !== null) visit(field);
    }
  };
  try {
    visit(tree);
  } catch (error) {
    if (error instanceof NotReusable) return undefined;
    throw error;
  }
  ranges.sort((a, b) => a.end - b.end);
  treeRanges.set(tree, ranges);
  return ranges;
}

/** The first position of `ranges` (sorted by end) whose range ends at or after `offset`. */
function firstEndingFrom(ranges: readonly Range[], offset: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ranges[middle] as Range).end < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The move of `tree` (plain objects and arrays, every offset in a range object) and `model` (what
 * was made from the tree, holding no range of its own) by `shift`, planned without changing
 * anything: a function that then moves every range of the tree that ends at or after
 * `shift.from` in place, and puts each key of `replaced` met by its value (the replaced objects
 * lie at the edit: they are looked for only in nodes whose range holds it, and in the model
 * objects of such nodes); `undefined` when the tree cannot be moved. Every new offset is worked
 * out from the old ones before any is written, so a range object held twice is moved once.
 */
export function planMove(tree: object, model: object, shift: OffsetShift, replaced: ReadonlyMap<object, unknown>): (() => void) | undefined {
  const ranges = rangesOf(tree);
  if (ranges === undefined) return undefined;
  const first = firstEndingFrom(ranges, shift.from);
  const count = ranges.length - first;
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const range = ranges[first + i] as Range;
    // A replaced range (an edited comment's) gives way to its replacement, which is placed already.
    if (replaced.has(range)) {
      starts[i] = -1;
      continue;
    }
    const newStart = shift.start(range.start);
    const newEnd = shift.end(range.end);
    if (!stillPlaced(range.start, range.end, newStart, newEnd)) return undefined;
    starts[i] = newStart;
    ends[i] = newEnd;
  }
  const swaps = swapsAt({ tree, model }, shift.from, replaced);
  if (swaps === undefined) return undefined;
  return () => {
    for (let i = 0; i < count; i++) {
      if (starts[i] === -1) continue;
      const range = ranges[first + i] as { start: number; end: number };
      range.start = starts[i] as number;
      range.end = ends[i] as number;
    }
    for (const [holder, key, value] of swaps) holder[key] = value;
    // The index holds the tree's range objects: a replaced one gives way to its replacement.
    let sorted = true;
    for (let i = 0; i < count; i++) {
      if (starts[i] !== -1) continue;
      const at = first + i;
      const swapped = replaced.get(ranges[at] as Range) as Range;
      ranges[at] = swapped;
      sorted &&= (at === 0 || (ranges[at - 1] as Range).end <= swapped.end) && (at + 1 === ranges.length || swapped.end <= (ranges[at + 1] as Range).end);
    }
    if (!sorted) ranges.sort((a, b) => a.end - b.end);
  };
}

/** Where the keys of `replaced` are held in `root`: `[holder, key, replacement]`, each found once or more; `undefined` for data other than plain objects and arrays. */
function swapsAt(root: object, offset: number, replaced: ReadonlyMap<object, unknown>): [Record<string | number, unknown>, string | number, unknown][] | undefined {
  const swaps: [Record<string | number, unknown>, string | number, unknown][] = [];
  // The keys not met yet; a replaced node's range, held only inside it, needs no holder. The walk
  // stops once every key is met: for a letter typed in a name, at the root's range.
  const unmet = new Set(replaced.keys());
  const holds = (range: Range | undefined): boolean => range === undefined || (range.start <= offset && offset <= range.end);
  const visit = (holder: Record<string | number, unknown>, key: string | number, value: object): void => {
    if (unmet.size === 0) return;
    const replacement = replaced.get(value);
    if (replacement !== undefined) {
      swaps.push([holder, key, replacement]);
      unmet.delete(value);
      unmet.delete((value as { range?: object }).range as object);
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && unmet.size > 0; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) visit(value as unknown as Record<number, unknown>, i, item);
      }
      return;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotReusable();
    const fields = value as Record<string, unknown>;
    // A node, or a model object made from one, away from the edit holds nothing it replaced.
    if (!holds(fields["range"] as Range | undefined) || !holds((fields["decl"] as { range?: Range } | undefined)?.range)) return;
    if (isRange(value)) return;
    for (const name in fields) {
      const field = fields[name];
      if (typeof field === "object" && field !== null) visit(fields, name, field);
      if (unmet.size === 0) return;
    }
  };
  try {
    visit({ root }, "root", root);
  } catch (error) {
    if (error instanceof NotReusable) return undefined;
    throw error;
  }
  return swaps;
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
