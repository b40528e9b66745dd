/**
 * The fingerprint of a delivered envelope, for claim leases: a takeover of an expired claim must
 * redeliver the very envelope that was claimed, not other content under its `handoff_id`. The
 * SHA-256 (FIPS 180-4) of the envelope's RFC 8785 canonical JSON, as lower-case hex: the same
 * for the same JSON in both runtimes (Python: `seam_handoff._lease.envelope_digest`).
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/** The digest of `envelope`, or `null` when it has no canonical JSON form (a store then compares nothing). */
export function envelopeDigest(envelope: unknown): string | null {
  let text: string | undefined;
  try {
    text = canonicalize(envelope);
  } catch {
    return null;
  }
  return text === undefined ? null : createHash("sha256").update(text, "utf8").digest("hex");
}
