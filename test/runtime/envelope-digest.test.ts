/** The envelope digest claim leases compare: RFC 8785 canonical JSON, SHA-256; the same in the Python runtime. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envelopeDigest } from "../../src/runtime/envelope-digest.js";
import { projectRoot, readJsonFixture } from "../emit/helpers.js";

const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const envelope = { ...(readJsonFixture("cases", "envelopes", "valid-delegate.json") as object), x: [1.5e-7, 1e21, "é\u2028", { b: 1, a: 2 }] };
const DIGEST = "dd630b412e04ffd8053fce599df95f8887e8a8f20a8e67e255e9afe5a25bc0f9";

describe("envelopeDigest", () => {
  it("is the SHA-256 of the canonical JSON: key order and number forms do not change it", () => {
    expect(envelopeDigest(envelope)).toBe(DIGEST);
    expect(envelopeDigest(JSON.parse(JSON.stringify(envelope)))).toBe(DIGEST);
    expect(envelopeDigest({ ...envelope, x: [1.5e-7, 1e21, "é\u2028", { a: 2, b: 1 }] })).toBe(DIGEST);
    expect(envelopeDigest({ ...envelope, x: [] })).not.toBe(DIGEST);
  });

  it("is null for a value with no JSON form", () => {
    expect(envelopeDigest(undefined)).toBe(null);
    expect(envelopeDigest({ n: Number.NaN })).toBe(null);
  });

  it.skipIf(!existsSync(VENV_PYTHON))("is the Python runtime's digest of the same envelope", () => {
    const code = "import json, sys\nfrom seam_handoff._stores import envelope_digest\nprint(envelope_digest(json.loads(sys.stdin.read())))";
    const run = spawnSync(VENV_PYTHON, ["-c", code], { input: JSON.stringify(envelope), encoding: "utf8" });
    expect(run.stdout.trim()).toBe(DIGEST);
  });
});
