import { ENVELOPE_VERSION } from "../../core/envelope-schema.js";
import { defineRule } from "../rule.js";

/** A version as `major.minor`, each part a number without leading zeros (semantic versioning). */
const CANONICAL_VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/**
 * `unsupported-envelope` (error): an `envelope` version newer than {@link ENVELOPE_VERSION} or of
 * another major, or one written with leading zeros (`1.03`, `01.3`), which semantic versioning
 * (https://semver.org, item 2) forbids and which reads as a different version than it is.
 */
export const unsupportedEnvelopeRule = defineRule({
  meta: {
    id: "unsupported-envelope",
    severity: "error",
    description: `The envelope version is not one this Seam can validate (${ENVELOPE_VERSION.major}.0 to ${ENVELOPE_VERSION.major}.${ENVELOPE_VERSION.minor}), or is written with leading zeros.`,
  },
  check({ model, report }) {
    const { major, minor } = ENVELOPE_VERSION;
    for (const item of model.bound.items.settings) {
      if (item.kind !== "Envelope") continue;
      const v = item.version;
      const written = model.file.text.slice(v.range.start, v.range.end);
      if (!CANONICAL_VERSION.test(written)) {
        report({
          range: v.range,
          message: `envelope ${written} has a leading zero: versions are written without them; write \`envelope ${v.major}.${v.minor}\`.`,
        });
        continue;
      }
      if (v.major === major && v.minor <= minor) continue;
      report({
        range: v.range,
        message: `envelope ${v.major}.${v.minor} is not supported: this Seam validates envelopes ${major}.0 to ${major}.${minor}; write \`envelope ${major}.${minor}\`.`,
      });
    }
  },
});
