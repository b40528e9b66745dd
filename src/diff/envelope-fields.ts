/**
 * The optional top-level envelope fields two envelope versions disagree on. Every minor of
 * envelope 1 adds optional fields only (`ENVELOPE_MINOR_VERSIONS`), and Seam's schemas are closed
 * objects, so a receiver on the older version refuses an envelope carrying a newer field.
 */
import { ENVELOPE_MINOR_VERSIONS } from "../core/envelope-schema.js";

/**
 * Fields that version `1.to` has and `1.from` lacks, in the order the versions added them.
 * @returns `[]` when `to` is not newer than `from` or the versions between add nothing
 */
export function envelopeFieldsAddedBetween(from: { readonly minor: number }, to: { readonly minor: number }): readonly string[] {
  return ENVELOPE_MINOR_VERSIONS.filter((v) => v.minor > from.minor && v.minor <= to.minor).flatMap((v) => v.adds);
}
