/**
 * An envelope's text as `seam validate` reads it (a `.json` file, a line of a JSON Lines replay):
 * judged by the runtime's own `parseEnvelope`, so that what a service refuses before `accept()`
 * (a text past its size limit, `envelope-too-large`; a key twice in one object,
 * `duplicate-key`) validate refuses too, for the same reason and by the same code. Only text that
 * is not JSON at all is told apart: that is a broken file or log, which validate names at its
 * line and column and counts as unusable input (exit 2), not as an envelope refused.
 */
import { jsonError, type JsonSyntaxError } from "../core/json-syntax.js";
import { parseEnvelope } from "../runtime/parse-envelope.js";
import type { Reason } from "../runtime/reason.js";

/** What {@link parseEnvelopeText} gives. */
export type EnvelopeText =
  /** What `accept()` is to judge. */
  | { readonly kind: "envelope"; readonly envelope: unknown }
  /**
   * Refused before `accept()`, as `parseEnvelope` refuses it; `envelope` is the text parsed
   * anyway, for naming its agents in a report (`undefined` when it is not JSON either).
   */
  | { readonly kind: "refused"; readonly reasons: readonly Reason[]; readonly envelope: unknown }
  /** Not JSON: where (UTF-16 code units into the text given, a byte order mark counted) and why. */
  | ({ readonly kind: "not-json" } & JsonSyntaxError);

/**
 * Reads one envelope's text. The cost on the common path is `parseEnvelope`'s (one `JSON.parse`
 * and a count of keys); a refused or broken text is parsed a second time, to place its error or
 * name its agents.
 *
 * @param text - the envelope's text as recorded or stored (a leading byte order mark allowed)
 */
export function parseEnvelopeText(text: string): EnvelopeText {
  const parsed = parseEnvelope(text);
  if (parsed.ok) return { kind: "envelope", envelope: parsed.envelope };
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const json = bom === 1 ? text.slice(1) : text;
  let envelope: unknown;
  try {
    envelope = JSON.parse(json);
  } catch (error) {
    // Past the size limit a service refuses without parsing: so does validate, whatever the text.
    if (parsed.reasons.every((r) => r.rule === "invalid-json")) {
      const { offset, problem } = jsonError(json, error);
      return { kind: "not-json", offset: offset + bom, problem };
    }
  }
  return { kind: "refused", reasons: parsed.reasons, envelope };
}
