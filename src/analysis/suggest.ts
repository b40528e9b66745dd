/**
 * "Did you mean ...?" suggestions by Levenshtein distance, with the work capped so that a file
 * with 10^5 agents and many unknown names stays near-linear: candidates whose length differs by
 * more than the allowed distance are skipped without computing anything, the distance is only
 * computed inside a band of that width, and each call stops after `maxComparisons` band checks.
 */

/**
 * Levenshtein distance of `a` and `b` if it is at most `limit`, else `limit + 1`.
 * A banded dynamic programme that stops as soon as a whole row exceeds the limit.
 */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a === b) return 0;
  const width = b.length;
  if (scratch.length < 2 * (width + 1)) scratch = new Int32Array(4 * (width + 1));
  // Two rows in one reused buffer: this runs once per candidate name, so no allocation here.
  let previous = 0;
  let current = width + 1;
  const big = limit + 1;
  for (let j = 0; j <= width; j++) scratch[previous + j] = j <= limit ? j : big;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(width, i + limit);
    scratch[current] = i <= limit ? i : big;
    if (lo > 1) scratch[current + lo - 1] = big;
    if (hi < width) scratch[current + hi + 1] = big;
    let rowMin = scratch[current] as number;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (scratch[previous + j - 1] as number) + cost,
        (scratch[previous + j] as number) + 1,
        (scratch[current + j - 1] as number) + 1,
        big,
      );
      scratch[current + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return big;
    [previous, current] = [current, previous];
  }
  return Math.min(scratch[previous + width] as number, big);
}

let scratch = new Int32Array(256);

/** Options of {@link suggestName}. */
export interface SuggestOptions {
  /** Largest distance accepted; default: a third of the name's length, at least 1, at most 4. */
  readonly maxDistance?: number;
  /** Most candidates compared by distance for this name; default 20,000. */
  readonly maxComparisons?: number;
  /**
   * A budget shared by several calls (one per unknown name in a file): each comparison takes one
   * from `remaining`, and at 0 no more candidates are compared, so many unknown names in a huge
   * graph cannot make the checker quadratic.
   */
  readonly shared?: { remaining: number };
}

/**
 * The candidate nearest to `name` by edit distance (ties: the earlier candidate), or `undefined`
 * when none is close enough. A candidate that differs only in letter case wins outright.
 */
export function suggestName(name: string, candidates: Iterable<string>, options: SuggestOptions = {}): string | undefined {
  const limit = options.maxDistance ?? Math.min(4, Math.max(1, Math.floor(name.length / 3)));
  let budget = options.maxComparisons ?? 20_000;
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name || Math.abs(candidate.length - name.length) > Math.min(limit, bestDistance)) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    if (budget-- <= 0 || (options.shared && options.shared.remaining-- <= 0)) break;
    const d = boundedEditDistance(name, candidate, Math.min(limit, bestDistance - 1));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
