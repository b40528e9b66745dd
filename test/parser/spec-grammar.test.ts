import { describe, expect, it, vi } from "vitest";
import { chevrotain } from "../../src/parser/spec/chevrotain.js";
import { createSeamGrammar } from "../../src/parser/spec/grammar.js";

describe("grammar specification", () => {
  it("pass Chevrotain's own validations (production skips them)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(() => createSeamGrammar({ validate: true })).not.toThrow();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("loads the bundle of the installed version, not the entry point", async () => {
    const entryPoint = await import("chevrotain");
    expect(chevrotain.VERSION).toBe(entryPoint.VERSION);
    expect(chevrotain.CstParser).not.toBe(entryPoint.CstParser);
  });
});
