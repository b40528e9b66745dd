import { describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "./fake-io.js";

// A command that throws stands for any bug in Seam reaching the CLI.
vi.mock("../../src/cli/commands/check.js", () => ({
  checkCommand: () => {
    throw new TypeError("cannot read properties of undefined (reading 'range')");
  },
}));

describe("run: an exception from Seam itself", () => {
  it("prints a short report without a stack and exits 2", async () => {
    const io = createFakeIo(process.cwd());
    expect(await run(["check", "x.seam"], io)).toBe(2);
    const err = io.err();
    expect(err).toMatch(/^seam: internal error: cannot read properties of undefined \(reading 'range'\)\n/);
    expect(err).toContain("please report");
    expect(err).toContain("SEAM_DEBUG=1");
    expect(err).not.toMatch(/\n\s+at /);
    expect(io.out()).toBe("");
  });

  it("prints the stack when SEAM_DEBUG=1", async () => {
    const io = createFakeIo(process.cwd(), { env: { SEAM_DEBUG: "1" } });
    expect(await run(["check", "x.seam"], io)).toBe(2);
    expect(io.err()).toMatch(/TypeError: cannot read properties[^\n]*\n\s+at /);
  });
});
