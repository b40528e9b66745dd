import { ENVELOPE_VERSION } from "../../core/envelope-schema.js";
import { defineRule } from "../rule.js";

/** `unsupported-envelope` (error): an `envelope` version whose major is not 1 or whose minor is above 3. */
export const unsupportedEnvelopeRule = defineRule({
  meta: {
    id: "unsupported-envelope",
    severity: "error",
    description: "The envelope version is not one this Seam can validate (1.0 to 1.3).",
  },
  check({ model, report }) {
    const { major, minor } = ENVELOPE_VERSION;
    for (const item of model.bound.items.settings) {
      if (item.kind !== "Envelope") continue;
      const v = item.version;
      if (v.major === major && v.minor <= minor) continue;
      report({
        range: v.range,
        message: `envelope ${v.major}.${v.minor} is not supported: this Seam validates envelopes ${major}.0 to ${major}.${minor}; write \`envelope ${major}.${minor}\`.`,
      });
    }
  },
});
