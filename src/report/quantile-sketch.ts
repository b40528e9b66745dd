/**
 * A fixed-memory quantile sketch with a relative-error guarantee: the logarithmic buckets of
 * DDSketch (Masson, Rim and Lee, "DDSketch: a fast and fully-mergeable quantile sketch with
 * relative-error guarantees", VLDB 2019). A value x > 0 falls in bucket ceil(log_γ x) with
 * γ = (1 + α) / (1 - α); every value of a bucket is within α of the bucket's representative
 * 2γ^i / (γ + 1), so any quantile is returned within relative error α of a value of that rank.
 *
 * Memory is bounded: at most {@link MAX_BUCKETS} buckets; past that the lower half of the buckets
 * is merged into one (DDSketch's collapsing variant), which can only coarsen the lowest quantiles. With
 * α = 1% the buckets from 1 µs to 10^9 ms number about 1,400, so real latencies and sizes never
 * collapse.
 */

/** The sketch's relative accuracy α: each quantile is within 1% of a true value of its rank. */
export const RELATIVE_ERROR = 0.01;

/** The most buckets one sketch keeps. */
export const MAX_BUCKETS = 2048;

const GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);

/** Counts values and answers quantiles within {@link RELATIVE_ERROR}. */
export interface QuantileSketch {
  /**
   * Adds one value. Values at or below 0 are counted exactly as 0 (sizes and latencies of 0 are
   * real); NaN and infinities are ignored.
   */
  add(value: number): void;
  /** How many values were added. */
  readonly count: number;
  /** The largest value added (exact), or `undefined` when empty. */
  readonly max: number | undefined;
  /** Buckets in use: the sketch's memory, at most {@link MAX_BUCKETS}. */
  readonly buckets: number;
  /**
   * The q-quantile by nearest rank (the ceil(q·n)-th smallest value), within the relative
   * error; `undefined` when empty.
   *
   * @param q - between 0 and 1
   */
  quantile(q: number): number | undefined;
}

/** Creates an empty {@link QuantileSketch}. */
export function createQuantileSketch(): QuantileSketch {
  // Bucket index -> count; a Map keeps memory proportional to the buckets in use.
  const buckets = new Map<number, number>();
  let zeros = 0;
  let count = 0;
  let max: number | undefined;
  let floor = -Infinity; // buckets below this index were collapsed into it

  // Merges the lower half of the buckets into one, so collapsing costs one sort per
  // MAX_BUCKETS / 2 new buckets, whatever a hostile log holds.
  function collapse(): void {
    const sorted = [...buckets.keys()].sort((a, b) => a - b);
    floor = sorted[sorted.length >> 1] as number;
    let merged = 0;
    for (const index of sorted) {
      if (index >= floor) break;
      merged += buckets.get(index) as number;
      buckets.delete(index);
    }
    buckets.set(floor, (buckets.get(floor) as number) + merged);
  }

  return {
    add(value) {
      if (!Number.isFinite(value)) return;
      count++;
      if (max === undefined || value > max) max = value;
      if (value <= 0) {
        zeros++;
        return;
      }
      const index = Math.max(Math.ceil(Math.log(value) / LOG_GAMMA), floor);
      buckets.set(index, (buckets.get(index) ?? 0) + 1);
      if (buckets.size > MAX_BUCKETS) collapse();
    },
    get count() {
      return count;
    },
    get max() {
      return max;
    },
    get buckets() {
      return buckets.size;
    },
    quantile(q) {
      if (count === 0) return undefined;
      const rank = Math.min(count, Math.max(1, Math.ceil(q * count)));
      if (rank <= zeros) return 0;
      let seen = zeros;
      const sorted = [...buckets.keys()].sort((a, b) => a - b);
      for (const index of sorted) {
        seen += buckets.get(index) as number;
        if (seen >= rank) {
          const value = (2 * GAMMA ** index) / (GAMMA + 1);
          // The representative can overshoot the largest value by up to α: never report more than was seen.
          return max !== undefined && value > max ? max : value;
        }
      }
      return max;
    },
  };
}
