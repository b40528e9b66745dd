import { describe, expect, it } from "vitest";
import { accept, delegate, reasons } from "./helpers.js";

describe("version-major: one version grammar", () => {
  it("refuses envelope_version with leading zeros, as agent versions and seam check do", () => {
    for (const version of ["01.3.0", "1.03.0", "1.3.00"]) {
      expect(reasons(accept(delegate((e) => (e["envelope_version"] = version)), { me: "billing" }))).toEqual([
        { path: "/envelope_version", rule: "version-major", message: `"${version}" is not MAJOR.MINOR.PATCH: three whole numbers without leading zeros, such as 1.3.0` },
      ]);
    }
  });

  it("stays quiet on 1.3.0 and 1.0.10", () => {
    for (const version of ["1.3.0", "1.0.10"]) expect(reasons(accept(delegate((e) => (e["envelope_version"] = version)), { me: "billing" }))).toEqual([]);
  });
});
