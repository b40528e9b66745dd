/**
 * Agent versions and the one compatibility rule that `seam check`, `accept()` and `seam diff`
 * share. A version is written as Semantic Versioning 2.0.0 writes it (https://semver.org):
 * `MAJOR.MINOR.PATCH`, optionally shortened to `MAJOR.MINOR` or `MAJOR` (missing parts are 0),
 * each part a decimal without leading zeros, optionally followed by `-prerelease` and `+build`
 * (kept as text, ignored by the rule).
 *
 * The rule, as a caret range (`^declared` in npm's terms) read from the receiver's side: an
 * envelope that claims version `c` for an agent declared at `d` is compatible when
 * - `c` has the same compatibility key as `d`: the major, or for major 0 (where SemVer allows
 *   anything to change) the major and the minor;
 * - and `c` is not newer than `d` within that key: a producer that expects a minor feature the
 *   declared agent does not have yet (a newer minor; for 0.x, a newer patch) is refused.
 * Older minors and patches are compatible: a newer agent still reads what its older self read.
 */

/** A parsed agent version; `text` is the version as written. */
export interface AgentVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly text: string;
}

/** Why a claimed version does not fit the declared one; absent when it fits. */
export type VersionMismatch =
  | { readonly kind: "malformed"; readonly message: string }
  | { readonly kind: "other-major"; readonly message: string }
  | { readonly kind: "newer-minor"; readonly message: string };

const PART = "(0|[1-9][0-9]{0,15})";
// SemVer 2.0.0, items 9 and 10: a pre-release identifier that is all digits has no leading zero
// (`1.0.0-01` is not a version); build identifiers may have them (`1.0.0+001`).
const PRERELEASE_IDENT = "(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)";
const PRERELEASE = `${PRERELEASE_IDENT}(?:\\.${PRERELEASE_IDENT})*`;
const BUILD = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const VERSION = new RegExp(`^${PART}(?:\\.${PART}(?:\\.${PART})?)?(?:-${PRERELEASE})?(?:\\+${BUILD})?$`);

/**
 * Parses a version such as `2.4.0`, `2025.3` or `1.0.0-rc.1+build.5`.
 * @returns the version, or `undefined` when `text` is not of that form (leading zeros in a part
 * or in a numeric pre-release identifier, empty parts, parts over 16 digits, anything that is not
 * a string).
 */
export function parseAgentVersion(text: unknown): AgentVersion | undefined {
  if (typeof text !== "string" || text.length > 256) return undefined;
  const m = VERSION.exec(text);
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), text };
}

const ENVELOPE_VERSION_FORM = new RegExp(`^${PART}\\.${PART}\\.${PART}$`);

/**
 * The major version of an `envelope_version` such as `1.3.0`: exactly `MAJOR.MINOR.PATCH`, each
 * part as an agent version writes it (a decimal without leading zeros, at most 16 digits), with
 * no pre-release or build.
 * @returns the major, or `undefined` when `text` is not of that form (`01.3.0`, `1.3`, `1.3.0-rc`)
 */
export function envelopeVersionMajor(text: string): number | undefined {
  const m = ENVELOPE_VERSION_FORM.exec(text);
  return m === null ? undefined : Number(m[1]);
}

/**
 * Checks a version an envelope claims for an agent against the agent's declared version, by the
 * caret rule in this module's comment.
 * @param declared the version the graph declares for the agent.
 * @param claimed the envelope's value (any JSON value; not a string or not a version is
 *   `malformed`).
 * @returns `undefined` when compatible, else the kind of mismatch and a message that names both
 *   versions (the claimed text is not quoted in it: callers quote it, escaped, if they need to).
 */
export function checkClaimedVersion(declared: AgentVersion, claimed: unknown): VersionMismatch | undefined {
  const c = parseAgentVersion(claimed);
  if (c === undefined) {
    return {
      kind: "malformed",
      message: `is not a version of the form MAJOR.MINOR.PATCH; the agent is declared at ${declared.text}`,
    };
  }
  const zero = declared.major === 0;
  if (c.major !== declared.major || (zero && c.minor !== declared.minor)) {
    const key = zero ? `${declared.major}.${declared.minor}` : `${declared.major}`;
    return {
      kind: "other-major",
      message: `names a version outside ${key}.x; the agent is declared at ${declared.text} and does not accept another ${zero ? "0.x minor" : "major"}`,
    };
  }
  const newer = zero ? c.patch > declared.patch : c.minor > declared.minor;
  if (newer) {
    return {
      kind: "newer-minor",
      message: `asks for a newer ${zero ? "patch" : "minor"} than the agent's declared ${declared.text}; deploy the agent's new version first`,
    };
  }
  return undefined;
}
