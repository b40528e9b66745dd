/**
 * The clock a caller passes to the runtime (`options.now` of `accept()`, `finish()`,
 * `joinState()` and `settle()`, and the builders' `now`): milliseconds since the Unix epoch, as
 * `Date.now()` returns them. Every caller reads it here, so a wrong clock gets the same words
 * wherever it is passed; Python's `seam_handoff._clock.read_clock` is the same reading in seconds.
 */

/** The range of `Date` (ECMA-262 section 21.4.1.31, TimeClip): 10^8 days either side of 1970, in ms. */
const MAX_TIME_MS = 8.64e15;

/** Times from 10^9 to 10^11 are 1970-1973 in ms, but today in seconds: a clock in seconds is a misuse. */
const SECONDS_FROM = 1e9;
const SECONDS_TO = 1e11;

/**
 * Throws unless `now` is undefined (the default clock) or a function.
 *
 * @throws TypeError `<place>: <option> must be a function returning ms since the Unix epoch`
 */
export function checkClock(now: unknown, place: string, option: string): void {
  if (now !== undefined && typeof now !== "function") throw new TypeError(`${place}: ${option} must be a function returning ms since the Unix epoch`);
}

/**
 * `now()` (`Date.now()` when `now` is undefined) in ms since the Unix epoch, fractions kept.
 *
 * @param place - the call the errors name, such as `accept(envelope, options)` or `firstEnvelope`
 * @param option - the clock's name in that call, such as `options.now` or `now`
 * @throws TypeError as {@link checkClock}; `<place>: <option>() must return a number of ms since the Unix epoch` when it
 *   returns anything else, and `... which is seconds since the Unix epoch ...` for a time from
 *   10^9 to 10^11; RangeError `<place>: <option>() returned <n>, outside the range of Date` for
 *   NaN or a time more than 8.64e15 ms from 1970
 */
export function readClock(now: unknown, place: string, option: string): number {
  checkClock(now, place, option);
  const ms: unknown = now === undefined ? Date.now() : (now as () => unknown)();
  if (typeof ms !== "number") throw new TypeError(`${place}: ${option}() must return a number of ms since the Unix epoch`);
  if (!(Math.abs(ms) <= MAX_TIME_MS)) throw new RangeError(`${place}: ${option}() returned ${ms}, outside the range of Date`);
  if (ms >= SECONDS_FROM && ms < SECONDS_TO) {
    throw new TypeError(`${place}: ${option}() returned ${ms}, which is seconds since the Unix epoch: it must return milliseconds (Date.now())`);
  }
  return ms;
}
