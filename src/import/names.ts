/**
 * Source names as Seam identifiers (docs/language.md "Lexical structure"), deterministically:
 * every run of characters a name cannot hold becomes one `_`, a name that would start with a
 * digit or `-` gets a leading `_`, a keyword gets a trailing `_`, and a name already taken by an
 * earlier one gets `_2`, `_3`... A name that is a Seam name as written keeps its spelling even
 * when an earlier name would change into it (`Research Agent` becomes `Research_Agent_2` when
 * `Research_Agent` is there too), so that adding or removing one agent in the source does not
 * shift the names of others. The same source always gives the same names, so a drift check
 * compares like with like. Only letters and digits of Unicode's ID_Start/ID_Continue are kept
 * (never joiners or format characters), so an imported name cannot hide text.
 */
import { INVISIBLE } from "../core/invisible.js";
import { KEYWORDS } from "../core/vocabulary.js";

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);
// Invisible characters (core/invisible.ts: joiners, variation selectors, Hangul fillers) are no
// part of a name, as in the scanner.
const NOT_NAME = new RegExp(`(?:[^\\p{ID_Continue}-]|${INVISIBLE.source})+`, "gu");

/** Whether `name` is a Seam identifier as written (not a keyword). */
export function isSeamName(name: string): boolean {
  return /^[\p{ID_Start}_][\p{ID_Continue}]*(?:-[\p{ID_Continue}]+)*$/u.test(name) && !INVISIBLE.test(name) && !KEYWORD_SET.has(name);
}

/** `name` as an identifier, before collisions are resolved. */
export function toSeamName(name: string): string {
  let out = name.normalize("NFC").replace(NOT_NAME, "_").replace(/-{2,}/g, "-").replace(/-(?=_|$)|(?<=_)-/g, "_");
  if (out === "") out = "_";
  if (!/^[\p{ID_Start}_]/u.test(out)) out = `_${out}`;
  if (out.endsWith("-")) out = `${out.slice(0, -1)}_`;
  if (KEYWORD_SET.has(out)) out = `${out}_`;
  return out;
}

/** One name that had to change: the source's and the identifier written. */
export interface RenamedName {
  readonly source: string;
  readonly name: string;
}

/** Maps the names of one namespace (agents; or the terminals of one agent), first come first served. */
export interface NameMap {
  /** The identifier for a source name (the same one each time it is asked). */
  name(source: string): string;
  /** The names that changed, in the order first asked. */
  readonly renamed: readonly RenamedName[];
}

/**
 * Creates a {@link NameMap}: `reserved` names are taken from the start, and each of `sources`
 * (the namespace's source names, in order) that is a Seam name as written is given its own
 * spelling before any other name is mapped.
 */
export function createNameMap(reserved: readonly string[] = [], sources: readonly string[] = []): NameMap {
  const bySource = new Map<string, string>();
  const taken = new Set<string>(reserved);
  const renamed: RenamedName[] = [];
  // The next suffix to try per base name, so n colliding names cost O(n), not O(n^2).
  const nextSuffix = new Map<string, number>();
  for (const source of sources) {
    if (bySource.has(source) || taken.has(source) || toSeamName(source) !== source) continue;
    bySource.set(source, source);
    taken.add(source);
  }
  return {
    name(source) {
      const known = bySource.get(source);
      if (known !== undefined) return known;
      const base = toSeamName(source);
      let name = base;
      let n = nextSuffix.get(base) ?? 2;
      while (taken.has(name)) name = `${base}_${n++}`;
      nextSuffix.set(base, n);
      taken.add(name);
      bySource.set(source, name);
      if (name !== source) renamed.push({ source, name });
      return name;
    },
    renamed,
  };
}
