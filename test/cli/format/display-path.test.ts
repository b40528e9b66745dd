import { describe, expect, it } from "vitest";
import { displayPath } from "../../../src/cli/format/display-path.js";

describe("displayPath", () => {
  it("shows files inside the working folder relative to it", () => {
    expect(displayPath("examples/a.seam", "/work/repo")).toBe("examples/a.seam");
    expect(displayPath("/work/repo/examples/a.seam", "/work/repo")).toBe("examples/a.seam");
    expect(displayPath("..repo-like/a.seam", "/work/repo")).toBe("..repo-like/a.seam");
    expect(displayPath(".", "/work/repo")).toBe(".");
  });

  it("shows files outside it by their absolute path", () => {
    expect(displayPath("/dev/null", "/work/repo")).toBe("/dev/null");
    expect(displayPath("../other/b.seam", "/work/repo")).toBe("/work/other/b.seam");
  });
});
