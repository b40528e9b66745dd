/**
 * A letter typed in a name, the keystroke that changes the graph: `agent wrk_17` becoming
 * `agent wrk_17x` renames an agent, and every edge to it now names an unknown agent. The tokens
 * keep their kinds, so the parser makes the same tree but for that one name: its decisions read
 * token kinds, and the images only of keywords, literals and the names of guards and field paths
 * (which this declines), or of tokens quoted by a syntax error (a file with one is declined).
 * So the previous tree, with the name swapped, is the new text's tree; binding, graph facts,
 * hop limits and the rules run on it (`checkParsed`), skipping the scan and the parse and the
 * allocation of a new tree. They run in the old text's offsets, which differ from the new only
 * past the name; the result is then moved ({@link moveCheck}: diagnostics at once, tree when
 * first read). A property test holds the result to a fresh check on random edits.
 */
import { checkParsed, type CheckOptions } from "../analysis/check.js";
import type { CheckResult } from "../analysis/model.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { Identifier, SeamFile } from "../parser/ast.js";
import { sameGlue } from "../parser/glue.js";
import { looksLikeUtf16 } from "../parser/looks-like-utf16.js";
import { containingNode } from "../parser/navigate.js";
import type { Rescan } from "../parser/rescan.js";
import { K_IDENTIFIER, type ScanResult } from "../parser/scanner.js";
import { syntaxRule } from "../parser/syntax-rule.js";
import { moveCheck, type OffsetShift } from "./moved-check.js";

/**
 * The check of `file` made from `previous` (the check of an earlier text of the same path, whose
 * scan is `before`), given `change`, the rescan that made the new text's scan, when the edit lies
 * inside one identifier that stays one identifier and that identifier is an agent's declared name
 * or an edge's end; `undefined` otherwise, with `previous` untouched. When it answers, `previous`
 * is consumed (its tree becomes the result's, the name changed in place and moved when first
 * read), as {@link moveCheck}'s carried checks consume theirs; if the moved tree cannot be placed,
 * it comes from `recheck()`, a fresh check of `file`. The result equals `check(file, options)`.
 */
export function reuseAcrossNameEdit(
  previous: CheckResult,
  before: ScanResult,
  file: SourceFile,
  change: Rescan,
  options: CheckOptions,
  recheck: () => CheckResult,
): CheckResult | undefined {
  const { edit } = change;
  const after = change.scan;
  const oldText = previous.file.text;
  const delta = edit.newTo - edit.oldTo;
  if (looksLikeUtf16(oldText) || looksLikeUtf16(file.text) || change.newEnd !== change.oldEnd) return undefined;
  // A syntax error's message may quote a name as written; the parse is then not the same but for the name.
  if (previous.diagnostics.some((d) => d.rule === syntaxRule.id)) return undefined;
  // Tokens: the same kinds; one identifier holds the edit (its start kept, its end moved), the
  // others are the old ones, moved.
  let edited = -1;
  for (let i = change.first; i < change.oldEnd; i++) {
    if (after.kinds[i] !== before.kinds[i]) return undefined;
    const start = before.starts[i] as number;
    const end = before.ends[i] as number;
    const moved = end <= edit.from ? 0 : start >= edit.oldTo ? delta : undefined;
    if (moved !== undefined && after.starts[i] === start + moved && after.ends[i] === end + moved) continue;
    if (edited >= 0 || before.kinds[i] !== K_IDENTIFIER || edit.from < start || edit.oldTo > end) return undefined;
    if (after.starts[i] !== start || after.ends[i] !== end + delta) return undefined;
    edited = i;
  }
  if (edited < 0) return undefined;
  // Only digits glued to a name read differently apart.
  if (!sameGlue(before, after, change.first, change.oldEnd)) return undefined;
  const range: Range = { start: before.starts[edited] as number, end: before.ends[edited] as number };
  const shift = nameShift(range, delta);
  // Comments and unexpected characters: none in the rescanned stretch is new or changed.
  if (before.unterminatedComment >= 0 || after.unterminatedComment >= 0) return undefined;
  if (!samePairs(before.comments, after.comments, change, shift, true) || !samePairs(before.unexpected, after.unexpected, change, shift, false)) return undefined;
  const name = nameNodeAt(previous.ast, range);
  if (name === undefined) return undefined;
  const written = name as { name: string };
  const oldName = written.name;
  written.name = file.text.slice(range.start, range.end + delta);
  // In the old text's offsets (the tree's, and the old file's lines, which the edit kept).
  const checked = checkParsed(previous.file, { ast: previous.ast, diagnostics: [] }, options);
  const moved = moveCheck(checked, file, shift, new Map(), recheck);
  // Declined (a finding inside the name): `previous` must stay as it was.
  if (moved === undefined) written.name = oldName;
  return moved;
}

/**
 * The offsets of a text whose identifier at `range` grew by `delta` code units: those up to its
 * start stay, those from its end move; one strictly inside it (no token boundary) has no place.
 * The same for starts and ends: every range starts and ends at token boundaries.
 */
function nameShift(range: Range, delta: number): OffsetShift {
  const { start, end } = range;
  const place = (offset: number): number => (offset <= start ? offset : offset >= end ? offset + delta : -1);
  return { from: start, start: place, end: place };
}

/**
 * True when the pairs (comments `[start, end)`, or unexpected runs `[offset, length]`) that the
 * rescan found anew are the old ones, moved by `shift`.
 */
function samePairs(
  old: readonly (readonly [number, number])[],
  fresh: readonly (readonly [number, number])[],
  change: Rescan,
  shift: OffsetShift,
  ends: boolean,
): boolean {
  if (old.length !== fresh.length) return false;
  for (let i = 0; i < old.length; i++) {
    const [start, second] = old[i] as readonly [number, number];
    if (start < change.restart) continue;
    if (start >= change.oldStop) break;
    const [newStart, newSecond] = fresh[i] as readonly [number, number];
    if (shift.start(start) !== newStart || (ends ? shift.end(second) : second) !== newSecond) return false;
  }
  return true;
}

/**
 * The identifier node at exactly `range` when it is the declared name of an agent or an end of an
 * edge, in a graph and a declaration the parser completed; names elsewhere (guards, field paths,
 * settings) are read by the parser, so they are left out.
 */
function nameNodeAt(ast: SeamFile, range: Range): Identifier | undefined {
  const graph = containingNode(ast.graphs, range);
  if (graph === undefined || graph.hasError) return undefined;
  const item = containingNode(graph.items, range);
  if (item === undefined || item.hasError) return undefined;
  const at = (node: Identifier): boolean => node.range.start === range.start && node.range.end === range.end;
  if (item.kind === "Agent") return at(item.name) ? item.name : undefined;
  if (item.kind === "Edge") return at(item.from) ? item.from : at(item.to) ? item.to : undefined;
  return undefined;
}
