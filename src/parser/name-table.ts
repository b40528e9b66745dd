/**
 * Interning of the names of one text by their offsets: a name written many times (an agent of a
 * 10^5-agent graph is named in about nine edges) is kept as one string, and a repeat is found
 * without cutting it out of the text first. `text.slice` + `Map.get` made a short-lived string
 * per name, about 10^6 of them for the bench's largest graph, each hashed and then dropped.
 */

/** Interns substrings of one text. */
export interface NameTable {
  /**
   * The text of `[start, end)`: equal (`===`) to `text.slice(start, end)`, and the same string
   * every time the same characters are asked for, at any offsets. `0 <= start <= end <= text.length`.
   */
  intern(start: number, end: number): string;
}

/** Slots of a new table; a power of two, doubled when half full. */
const INITIAL_SLOTS = 1024;

/** Creates an empty {@link NameTable} over `text`. */
export function createNameTable(text: string): NameTable {
  let mask = INITIAL_SLOTS - 1;
  let strings: (string | undefined)[] = new Array<string | undefined>(INITIAL_SLOTS).fill(undefined);
  let hashes = new Int32Array(INITIAL_SLOTS);
  let size = 0;

  // FNV-1a over UTF-16 code units: cheap, and names differ mostly in their last characters.
  const hashOf = (start: number, end: number): number => {
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
  };
  const sameText = (kept: string, start: number, end: number): boolean => {
    if (kept.length !== end - start) return false;
    for (let j = 0; j < kept.length; j++) if (kept.charCodeAt(j) !== text.charCodeAt(start + j)) return false;
    return true;
  };
  const grow = (): void => {
    const oldStrings = strings;
    const oldHashes = hashes;
    mask = mask * 2 + 1;
    strings = new Array<string | undefined>(mask + 1).fill(undefined);
    hashes = new Int32Array(mask + 1);
    for (let s = 0; s < oldStrings.length; s++) {
      const kept = oldStrings[s];
      if (kept === undefined) continue;
      const h = oldHashes[s] as number;
      let slot = h & mask;
      while (strings[slot] !== undefined) slot = (slot + 1) & mask;
      strings[slot] = kept;
      hashes[slot] = h;
    }
  };

  return {
    intern(start, end) {
      const h = hashOf(start, end);
      let slot = h & mask;
      for (;;) {
        const kept = strings[slot];
        if (kept === undefined) break;
        if (hashes[slot] === h && sameText(kept, start, end)) return kept;
        slot = (slot + 1) & mask;
      }
      const name = text.slice(start, end);
      strings[slot] = name;
      hashes[slot] = h;
      if (++size * 2 > mask) grow();
      return name;
    },
  };
}
