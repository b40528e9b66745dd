/**
 * The `syntax` rule (docs/rules/syntax.md): every lexical and parse error is reported under it.
 */
import type { RuleMeta } from "../core/diagnostic.js";

/** Metadata of the `syntax` rule; the parser creates all its diagnostics from it. */
export const syntaxRule: RuleMeta = {
  id: "syntax",
  severity: "error",
  description: "The file does not follow the Seam grammar; every error is reported, with recovery.",
};

/**
 * The most `syntax` diagnostics one file gets; past it, one more says the rest were left out,
 * and the parser stops reading (a file that broken needs fixing from the top, and a garbage file
 * gets a short answer quickly: Chevrotain's recovery costs about 0.1 ms per error).
 */
export const MAX_SYNTAX_DIAGNOSTICS = 200;
