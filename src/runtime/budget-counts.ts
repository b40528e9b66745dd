/**
 * `a + b` for two budget counts (each at most 2^53 - 1, the largest integer the envelope schema
 * allows), stopping at 2^53 - 1 (`Number.MAX_SAFE_INTEGER`): beyond it a double's sum is
 * inexact and no envelope could report it, so a task whose branches' spend or limits add up past
 * it holds that count, and has no spend left to report.
 */
export function addCounts(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_SAFE_INTEGER);
}
