import { describe, expect, it } from "vitest";
import { describeFsError } from "../../src/cli/fs-errors.js";

// The CLI tests run as whatever user the machine has (often root, who may read anything), so
// the permission messages are checked here on the error objects themselves.
describe("describeFsError", () => {
  const cases: [code: string, problem: RegExp][] = [
    ["ENOENT", /no such file or folder/],
    ["EACCES", /permission denied/],
    ["EPERM", /permission denied/],
    ["ENOTDIR", /not a folder/],
    ["EISDIR", /is a folder/],
    ["ELOOP", /symbolic links/],
    ["EMFILE", /too many open files/],
    ["ENAMETOOLONG", /the name is too long/],
    ["ENOSPC", /cannot be written: no space left/],
  ];
  for (const [code, problem] of cases) {
    it(code, () => {
      const described = describeFsError(Object.assign(new Error(`${code}: raw text`), { code }));
      expect(described.problem).toMatch(problem);
      expect(described.problem).not.toContain(code);
      expect(described.hint).not.toBe("");
    });
  }

  it("keeps Node's message for an unknown error", () => {
    expect(describeFsError(Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" }))).toEqual({
      problem: "cannot be read: EIO: i/o error, read",
      hint: "check the path and the file",
    });
  });

  it("says 'cannot be written', never 'cannot be read', for a failed write", () => {
    expect(describeFsError(Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" }), "write")).toEqual({
      problem: "cannot be written: EIO: i/o error, write",
      hint: "check the path and the file",
    });
    expect(describeFsError(Object.assign(new Error("x"), { code: "ENAMETOOLONG" }), "write").problem).toBe("cannot be written: the name is too long");
    expect(describeFsError(Object.assign(new Error("x"), { code: "EACCES" }), "write").problem).toBe("cannot be written: permission denied");
  });
});
