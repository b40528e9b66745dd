/**
 * Go to definition, find references and rename, for agents (scoped to their graph) and graphs.
 * A rename is refused, with a message the editor shows, when the new name is no identifier (the
 * scanner's reading: one name token, so no invisible character either), is a keyword, or is
 * already taken in the same scope (the rename would merge two agents).
 */
import { ResponseError, ErrorCodes, type Location, type Range as LspRange, type WorkspaceEdit } from "vscode-languageserver/node";
import { isIdentifier, KEYWORDS, type Analysis } from "./front-end.js";
import { isInvisible } from "../core/invisible.js";
import { invisibleInName } from "../parser/describe-unexpected.js";
import { occurrenceAt, occurrencesOf, type NameOccurrence } from "./names.js";
import { toLspRange } from "./positions.js";

/** The declarations of the name at `offset` (the first one first; duplicates follow), or none. */
export function definitionAt(analysis: Analysis, uri: string, offset: number): Location[] {
  const target = occurrenceAt(analysis, offset);
  if (target === undefined) return [];
  return occurrencesOf(analysis, target)
    .filter((o) => o.declaration)
    .map((o) => location(analysis, uri, o));
}

/** Every occurrence of the name at `offset`; declarations only when `includeDeclaration`. */
export function referencesAt(analysis: Analysis, uri: string, offset: number, includeDeclaration: boolean): Location[] {
  const target = occurrenceAt(analysis, offset);
  if (target === undefined) return [];
  return occurrencesOf(analysis, target)
    .filter((o) => includeDeclaration || !o.declaration)
    .map((o) => location(analysis, uri, o));
}

/** `textDocument/prepareRename`: the range of the renamable name at `offset` and its text, or `null`. */
export function prepareRenameAt(analysis: Analysis, offset: number): { range: LspRange; placeholder: string } | null {
  const target = occurrenceAt(analysis, offset);
  return target === undefined ? null : { range: toLspRange(analysis.file, target.range), placeholder: target.name };
}

/**
 * The edit that renames the name at `offset` to `newName` everywhere it is written.
 *
 * @throws ResponseError (InvalidParams) when `newName` is not an identifier, is a keyword, or
 *   names another agent of the same graph (another graph of the file, for a graph)
 */
export function renameAt(analysis: Analysis, uri: string, offset: number, newName: string): WorkspaceEdit | null {
  const target = occurrenceAt(analysis, offset);
  if (target === undefined) return null;
  if (KEYWORDS.includes(newName)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `'${newName}' is a keyword of Seam and cannot name ${describe(target)}`);
  }
  const invisible = [...newName].filter(isInvisible);
  if (invisible.length > 0) {
    throw new ResponseError(ErrorCodes.InvalidParams, `'${printable(newName)}' is not a valid name: ${invisibleInName(invisible)}`);
  }
  if (!isIdentifier(newName)) {
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `'${printable(newName)}' is not a valid name: start with a letter or '_', then letters, digits, '_' or '-'`,
    );
  }
  if (newName !== target.name && taken(analysis, target, newName)) {
    const scope = target.kind === "agent" ? `graph '${target.graph.name?.name ?? ""}' already has an agent` : "the file already has a graph";
    throw new ResponseError(ErrorCodes.InvalidParams, `${scope} named '${newName}'; pick another name`);
  }
  const edits = occurrencesOf(analysis, target).map((o) => ({ range: toLspRange(analysis.file, o.range), newText: newName }));
  return { changes: { [uri]: edits } };
}

function taken(analysis: Analysis, target: NameOccurrence, name: string): boolean {
  return occurrencesOf(analysis, { ...target, name }).some((o) => o.declaration);
}

function describe(target: NameOccurrence): string {
  return target.kind === "agent" ? "an agent" : "a graph";
}

/**
 * The refused name, bounded and with control and invisible characters shown as U+FFFD, for the
 * error message: `bill` and `bill` with U+FE00 must not print alike.
 */
function printable(name: string): string {
  const bounded = name.length > 60 ? `${name.slice(0, 59)}…` : name;
  return bounded.replace(/[\u0000-\u001f\u007f]/g, "\ufffd").replace(/[^]/gu, (c) => (isInvisible(c) ? "\ufffd" : c));
}

function location(analysis: Analysis, uri: string, occurrence: NameOccurrence): Location {
  return { uri, range: toLspRange(analysis.file, occurrence.range) };
}
