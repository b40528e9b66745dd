import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createQuantileSketch, MAX_BUCKETS, RELATIVE_ERROR } from "../../src/report/quantile-sketch.js";

/** The q-quantile by nearest rank of a list. */
function exact(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] as number;
}

describe("quantile sketch", () => {
  it("answers every quantile within the relative error of the value of that rank", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1e-3, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const sketch = createQuantileSketch();
          for (const v of values) sketch.add(v);
          const truth = exact(values, q);
          const answer = sketch.quantile(q) as number;
          expect(Math.abs(answer - truth)).toBeLessThanOrEqual(truth * RELATIVE_ERROR * (1 + 1e-9));
        },
      ),
    );
  });

  it("counts zeros and negatives exactly as 0, keeps the exact max, ignores NaN and infinities", () => {
    const sketch = createQuantileSketch();
    for (const v of [0, -5, 0, 10, Number.NaN, Number.POSITIVE_INFINITY]) sketch.add(v);
    expect(sketch.count).toBe(4);
    expect(sketch.quantile(0.5)).toBe(0);
    expect(sketch.quantile(0.75)).toBe(0);
    expect(sketch.quantile(1)).toBe(10);
    expect(sketch.max).toBe(10);
  });

  it("answers nothing when empty", () => {
    const sketch = createQuantileSketch();
    expect(sketch.quantile(0.5)).toBeUndefined();
    expect(sketch.max).toBeUndefined();
  });

  it("stays within its bucket cap on values spanning every magnitude, keeping the high quantiles exact to the bound", () => {
    const sketch = createQuantileSketch();
    const values: number[] = [];
    // 1.05^k for k up to 6000 spans far more than MAX_BUCKETS buckets of 2% width.
    for (let k = 0; k < 6000; k++) values.push(1.05 ** k / 1e20);
    for (const v of values) sketch.add(v);
    expect(MAX_BUCKETS * Math.log((1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR))).toBeLessThan(Math.log(values.at(-1)! / values[0]!));
    const p99 = sketch.quantile(0.99) as number;
    const truth = exact(values, 0.99);
    expect(Math.abs(p99 - truth)).toBeLessThanOrEqual(truth * RELATIVE_ERROR);
    expect(sketch.count).toBe(6000);
    expect(sketch.buckets).toBeLessThanOrEqual(MAX_BUCKETS);
  });
});
