/**
 * Both runtimes read an agent version the same way: Python's `parse_agent_version` (in
 * `seam_handoff/_untrusted.py`) against `parseAgentVersion` (`src/core/agent-version.ts`), which
 * `seam check`, `accept()` and `seam diff` share, on SemVer 2.0.0's edge cases and on random
 * texts over the characters a version is made of.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAgentVersion } from "../../src/core/agent-version.js";
import { projectRoot } from "../emit/helpers.js";

const python = join(projectRoot, ".venv", "bin", "python");
const ready = existsSync(python);
const SETUP = "python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python";
if (!ready) {
  if (process.env["CI"] === "true") throw new Error(`the Python version parity test needs .venv: ${SETUP}`);
  console.log(`skipped: needs .venv with the seam-handoff package (${SETUP})`);
}

const READ_ALL = `
import json, sys
from seam_handoff._untrusted import parse_agent_version
print(json.dumps([parse_agent_version(text) for text in json.load(sys.stdin)]))
`;

/** Each text as Python reads it: `[major, minor, patch, text]`, or null when it is no version. */
function readInPython(texts: readonly string[]): unknown[] {
  const result = spawnSync(python, ["-c", READ_ALL], { input: JSON.stringify(texts), encoding: "utf8", env: { ...process.env, PYTHONPATH: process.env["SEAM_TEST_PYTHONPATH"] ?? "" } });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as unknown[];
}

const EDGE_CASES = [
  "1.0.0-0", "1.0.0-00", "1.0.0-01", "1.0.0-0a", "1.0.0-a0", "1.0.0-rc.01", "1.0.0-rc.1", "1.0.0-alpha-01",
  "1.0.0+001", "1.0.0-0+00", "1.0.0-", "1.0.0+", "1.0.0-rc..1", "1.0.0-rc.", "01.0.0", "1.00.0", "1", "1.2",
  "1.0.0-x.7.z.92", "1.0.0--", "1.0.0-\u0661", "1.0.0\n", "18446744073709551616.0.0",
];

describe.skipIf(!ready)("agent versions in Python", () => {
  it("are read as the JavaScript runtime reads them", () => {
    const texts = [
      ...EDGE_CASES,
      ...fc.sample(fc.string({ unit: fc.constantFrom(..."0123.-+aZ"), maxLength: 14 }), { numRuns: 3000, seed: 7 }),
    ];
    const inJs = texts.map((text) => {
      const v = parseAgentVersion(text);
      return v === undefined ? null : [v.major, v.minor, v.patch, v.text];
    });
    expect(readInPython(texts)).toEqual(inJs);
  });
});
