// Types of bench/sections.mjs, for the tests in test/bench/.

/** The bench's sections, in run order; each is bench/<name>.mjs. */
export const SECTIONS: readonly string[];
