/**
 * Invisible characters, which no name of the language may hold: Unicode's
 * Default_Ignorable_Code_Point (UAX #31 section 2.3 recommends leaving them out of identifiers;
 * UTS #39 drops them from a skeleton). They include the joiners U+200C/U+200D, the variation
 * selectors U+FE00-U+FE0F and U+E0100-U+E01EF, U+034F COMBINING GRAPHEME JOINER, the Hangul
 * fillers U+115F, U+1160, U+3164 and U+FFA0, soft hyphen and zero width space: `bill` and `bill`
 * with U+FE00 look the same but would name two agents. The one definition of the rule: the
 * scanner, the look-alike skeleton, the language server's rename and the importers' names use it
 * (`spec/tokens.ts` states it again, as the specification the scanner is tested against).
 */
export const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

/** True when the character (one code point) `character` is invisible ({@link INVISIBLE}). */
export function isInvisible(character: string): boolean {
  return INVISIBLE.test(character);
}

/** `U+00A0`: a code point as messages name it. */
export function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
}
