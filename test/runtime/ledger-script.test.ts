import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEDGER_SCRIPT } from "../../src/runtime/redis-scripts.js";
import { projectRoot } from "../emit/helpers.js";

describe("the Redis ledger script", () => {
  it("is one source: the JavaScript constant and the Python package's copy are src/runtime/ledger.lua", () => {
    const source = readFileSync(join(projectRoot, "src", "runtime", "ledger.lua"), "utf8");
    expect(LEDGER_SCRIPT).toBe(source);
    // `npm run build` writes the copies; a difference means one was edited by hand or not rebuilt.
    expect(readFileSync(join(projectRoot, "python", "src", "seam_handoff", "ledger.lua"), "utf8")).toBe(source);
  });
});
