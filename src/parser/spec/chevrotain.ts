/**
 * Chevrotain, loaded from the single-file ES module bundle the package ships
 * (`chevrotain/lib/chevrotain.mjs`) instead of its `exports` entry point.
 *
 * Why: the entry point (`lib/src/api.js`) pulls in several hundred `lodash-es` modules and costs
 * about half a second of start-up on every `seam` run; the bundle is the same code in one file and
 * loads in a few milliseconds. The bundle is not in the package's `exports` map, so it is located
 * next to the resolved entry point. Every Seam module takes Chevrotain from here, so token types
 * and parsers always come from one copy of the library.
 */
import type * as ChevrotainApi from "chevrotain";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const entryPoint = createRequire(import.meta.url).resolve("chevrotain");

/** The installed Chevrotain package folder (the entry point is `<folder>/lib/src/api.js`). */
export const chevrotainPackageDir = join(dirname(entryPoint), "..", "..");

const bundleUrl = pathToFileURL(join(chevrotainPackageDir, "lib", "chevrotain.mjs")).href;

/** The Chevrotain API (typed by the package's own declarations). */
export const chevrotain: typeof ChevrotainApi = (await import(bundleUrl)) as typeof ChevrotainApi;
