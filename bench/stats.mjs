// Small statistics and timing helpers shared by the bench sections. Medians (not means) so
// that one descheduled batch on a shared 2-core machine does not move the result.

/** The q-quantile (0..1) of a list of numbers, nearest-rank on the sorted copy. */
export function quantile(values, q) {
  if (values.length === 0) throw new RangeError("quantile of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** The median (upper median for even lengths, as nearest-rank gives). */
export const median = (values) => quantile(values, 0.5);

/** Milliseconds since an arbitrary origin, sub-microsecond resolution. */
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Times `fn` for `runs` runs after `warmup` untimed ones, stopping early (after at least one
 * timed run) once the timed runs have used `budgetMs`, so a slow build cannot stall the bench.
 * @returns {number[]} wall time of each timed run, ms
 */
export function timeRuns(fn, { runs, warmup = 1, budgetMs = Infinity }) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  let spent = 0;
  for (let i = 0; i < runs && (i === 0 || spent < budgetMs); i++) {
    const start = nowMs();
    fn();
    times.push(nowMs() - start);
    spent += times[times.length - 1];
  }
  return times;
}

/**
 * Micro-benchmark harness: runs `op(i)` for i in 0..ops-1 as one batch, `batches` times after
 * `warmupBatches` untimed batches, and returns the nanoseconds per operation of each batch.
 * `setup()` (untimed) runs before each batch, e.g. to give accept() a fresh duplicate store.
 * Every op's result goes through a sink so the JIT cannot drop the work.
 */
export function nsPerOp(op, { ops, batches = 9, warmupBatches = 3, setup = () => {} }) {
  let sink = 0;
  const one = () => {
    setup();
    const start = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) {
      const result = op(i);
      if (result === sink) sink = 1; // a cheap, never-provable use of the result
    }
    return Number(process.hrtime.bigint() - start) / ops;
  };
  for (let b = 0; b < warmupBatches; b++) one();
  const perBatch = [];
  for (let b = 0; b < batches; b++) perBatch.push(one());
  globalThis.__benchSink = sink;
  return perBatch;
}

/**
 * Least-squares slope of log(y) against log(x): the growth exponent of y in x
 * (1 = linear, 2 = quadratic).
 */
export function logLogSlope(points) {
  const xs = points.map((p) => Math.log(p.x));
  const ys = points.map((p) => Math.log(p.y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}
