/**
 * The Python runtime's ingest checks mirror the JavaScript runtime's: one module per rule id
 * (`seam_handoff/checks/<id with _>.py` beside `src/runtime/checks/<id>.ts`), the same rules in
 * the same pipeline order, each at the same stage and JSON Pointer, with the catalogue's
 * description.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INGEST_RULES } from "../../src/runtime/checks/index.js";
import { projectRoot } from "../emit/helpers.js";

const python = join(projectRoot, ".venv", "bin", "python");
const ready = existsSync(python);
const SETUP = "python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python";
if (!ready) {
  if (process.env["CI"] === "true") throw new Error(`the Python checks need .venv: ${SETUP}`);
  console.log(`skipped: needs .venv with the seam-handoff package (${SETUP})`);
}

const LIST = `
import json
from seam_handoff.checks import INGEST_RULES
print(json.dumps([rule._asdict() for rule in INGEST_RULES]))
`;

describe.skipIf(!ready)("the Python ingest checks", () => {
  it("are the JavaScript runtime's rules, in its pipeline order, stages and pointers", () => {
    const result = spawnSync(python, ["-c", LIST], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    const rules: unknown = JSON.parse(result.stdout);
    expect(rules).toEqual(INGEST_RULES.map((rule) => ({ id: rule.id, stage: rule.stage, pointer: rule.pointer, description: rule.description })));
  });

  it("are one module per rule id, as the JavaScript runtime's are", () => {
    const pyModules = readdirSync(join(projectRoot, "python", "src", "seam_handoff", "checks"))
      .filter((name) => name.endsWith(".py") && !name.startsWith("_"))
      .map((name) => name.slice(0, -".py".length).replace(/_/g, "-"))
      .sort();
    const jsModules = readdirSync(join(projectRoot, "src", "runtime", "checks"))
      .filter((name) => name.endsWith(".ts") && name !== "index.ts" && name !== "ingest-rule.ts")
      .map((name) => name.slice(0, -".ts".length))
      .sort();
    expect(pyModules).toEqual(jsModules);
    expect(pyModules).toEqual(INGEST_RULES.map((rule) => rule.id).sort());
  });
});
