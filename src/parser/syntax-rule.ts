/**
 * The `syntax` rule (DESIGN.md section 3): every lexical and parse error is reported under it.
 */
import type { RuleMeta } from "../core/diagnostic.js";

/** Metadata of the `syntax` rule; the parser creates all its diagnostics from it. */
export const syntaxRule: RuleMeta = {
  id: "syntax",
  severity: "error",
  description: "The file does not follow the Seam grammar; every error is reported, with recovery.",
};
