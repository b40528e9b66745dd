import { describe, expect, it, vi } from "vitest";

// The look-alike rules reach the Unicode tables only through these two functions; a file of
// ASCII names must never call them (start-up and check time stay what they were).
const calls = vi.hoisted(() => ({ skeleton: 0, mixedScripts: 0 }));
vi.mock("../../src/analysis/unicode/skeleton.js", async (original) => {
  const real = await original<typeof import("../../src/analysis/unicode/skeleton.js")>();
  return {
    ...real,
    skeleton: (name: string) => (calls.skeleton++, real.skeleton(name)),
    mixedScripts: (name: string) => (calls.mixedScripts++, real.mixedScripts(name)),
  };
});

const { checkText } = await import("../../src/analysis/check.js");

describe("the confusables table is read only for names beyond ASCII", () => {
  it("an ASCII file never reaches it", () => {
    checkText("a.seam", "graph g {\n  entry a\n  agent a: worker { terminal t }\n  agent rn: worker\n  agent m: worker\n}\n");
    expect(calls).toEqual({ skeleton: 0, mixedScripts: 0 });
  });

  it("a file with one name beyond ASCII does", () => {
    checkText("u.seam", "graph g {\n  entry a\n  agent a: worker { terminal t }\n  agent \u00e9: worker\n}\n");
    expect(calls.skeleton).toBeGreaterThan(0);
    expect(calls.mixedScripts).toBe(1);
  });
});
