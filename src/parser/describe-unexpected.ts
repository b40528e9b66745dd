/**
 * The message for characters that start no token (the lexer's one kind of error besides bad
 * strings and unterminated comments), and what the language says about invisible characters.
 */
import { codePointName, isInvisible } from "../core/invisible.js";


/**
 * Why a name cannot hold the invisible `characters` and what to do, for the end of a message:
 * `U+FE00 is invisible, and a name cannot hold it (two names that look the same would differ);
 * remove it`. Each is named once, in order; `pronoun` says `it`/`they` instead, for a message
 * that has already named them.
 */
export function invisibleInName(characters: readonly string[], pronoun = false): string {
  const unique = [...new Set(characters)];
  const one = unique.length === 1;
  const names = unique.map(codePointName);
  const subject = pronoun ? (one ? "it" : "they") : one ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const them = one ? "it" : "them";
  return `${subject} ${one ? "is" : "are"} invisible, and a name cannot hold ${them} (two names that look the same would differ); remove ${them}`;
}

/** A character a name can hold: ID_Continue or `-`, not invisible. */
function isNameCharacter(character: string | undefined): boolean {
  return character !== undefined && /^[\p{ID_Continue}-]$/u.test(character) && !isInvisible(character);
}

/**
 * `unexpected character '#'`, or `unexpected characters '##'` for a run; invisible or non-ASCII
 * characters are named by code point (`U+00A0`). At most 16 characters are shown. When the run
 * holds an invisible character (`core/invisible.ts`) where a name is being read (the character
 * would be a letter or mark of the name, as U+FE00 or U+3164 are, or the run touches a name:
 * `touchesName`), the message says why a name cannot hold it and to remove it.
 */
export function describeUnexpected(chunk: string, touchesName = false): string {
  const characters = [...chunk];
  const shown = characters.slice(0, 16).map((c) => (/^[\x21-\x7e]$/.test(c) ? c : codePointName(c)));
  const printable = shown.every((s) => s.length === 1);
  const text = printable ? `'${shown.join("")}'` : shown.join(" ");
  const more = characters.length > 16 ? "..." : "";
  const message = `unexpected ${characters.length === 1 ? "character" : "characters"} ${text}${more}`;
  const invisible = characters.filter(isInvisible);
  if (invisible.length === 0 || !(touchesName || invisible.some((c) => /^\p{ID_Continue}$/u.test(c)))) return message;
  return `${message}: ${invisibleInName(invisible, invisible.length === characters.length)}`;
}

/** {@link describeUnexpected} for the run of `length` code units at `offset` of `text`. */
export function describeUnexpectedAt(text: string, offset: number, length: number): string {
  const before = offset > 0 ? String.fromCodePoint(text.codePointAt(offset - 1) as number) : undefined;
  // The character before may be the second half of a surrogate pair.
  const previous = before !== undefined && /^[\udc00-\udfff]$/.test(before) && offset > 1 ? String.fromCodePoint(text.codePointAt(offset - 2) as number) : before;
  const next = text.codePointAt(offset + length);
  const touchesName = isNameCharacter(previous) || isNameCharacter(next === undefined ? undefined : String.fromCodePoint(next));
  return describeUnexpected(text.slice(offset, offset + length), touchesName);
}
