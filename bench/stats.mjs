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
 * Micro-benchmark harness for side-by-side measures. Each measure is `{ op, setup? }`: a batch
 * runs `op(i)` for i in 0..ops-1, after `setup()` and a full garbage collection (both untimed;
 * setup is e.g. a fresh duplicate store), so that no batch pays for the garbage of the one before
 * or of its setup.
 * Batches of all measures are interleaved round by round, so load that comes and goes on a
 * shared machine hits every measure alike and their ratios stay fair; `warmupRounds` untimed
 * rounds come first. Every op's result goes through a sink so the JIT cannot drop the work.
 * @returns {Record<string, number[]>} nanoseconds per operation of each timed batch, by measure
 */
export function nsPerOp(measures, { ops, rounds = 9, warmupRounds = 3 }) {
  let sink = 0;
  const batch = ({ op, setup }) => {
    setup?.();
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) {
      const result = op(i);
      if (result === sink) sink = 1; // a cheap, never-provable use of the result
    }
    return Number(process.hrtime.bigint() - start) / ops;
  };
  const results = Object.fromEntries(Object.keys(measures).map((name) => [name, []]));
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (const [name, measure] of Object.entries(measures)) {
      const ns = batch(measure);
      if (round >= warmupRounds) results[name].push(ns);
    }
  }
  globalThis.__benchSink = sink;
  return results;
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
