import { describe, expect, it } from "vitest";
import { checkClaimedVersion, parseAgentVersion } from "../../src/core/agent-version.js";

function declared(text: string) {
  const v = parseAgentVersion(text);
  if (v === undefined) throw new Error(`fixture version ${text} does not parse`);
  return v;
}

describe("parseAgentVersion", () => {
  it.each([
    ["2.4.0", 2, 4, 0],
    ["2025.3", 2025, 3, 0],
    ["7", 7, 0, 0],
    ["1.0.0-rc.1+build.5", 1, 0, 0],
    ["0.9.2", 0, 9, 2],
    ["1.0.0-0", 1, 0, 0],
    ["1.0.0-0a.alpha-01.10", 1, 0, 0],
    ["1.0.0-x.7.z.92", 1, 0, 0],
    ["1.0.0+001.0099", 1, 0, 0],
  ])("reads %s", (text, major, minor, patch) => {
    expect(parseAgentVersion(text)).toEqual({ major, minor, patch, text });
  });

  it.each(["", "01.2.0", "1..0", "1.2.3.4", "v1.2.0", "1.2.0-", " 1.2.0", "12345678901234567.0.0", "2.0.0-01", "1.0.0-rc.00", "1.0.0-rc..1", "1.0.0+"])("refuses %j", (text) => {
    expect(parseAgentVersion(text)).toBeUndefined();
  });

  it.each([12, null, ["1.0.0"], { major: 1 }])("refuses the non-string %j", (value) => {
    expect(parseAgentVersion(value)).toBeUndefined();
  });
});

describe("checkClaimedVersion", () => {
  it.each(["2.4.0", "2.4.9", "2.0.0", "2.3.1-beta", "2"])("2.4.0 accepts %s", (claimed) => {
    expect(checkClaimedVersion(declared("2.4.0"), claimed)).toBeUndefined();
  });

  it("refuses another major", () => {
    expect(checkClaimedVersion(declared("2.4.0"), "3.0.0")).toEqual({
      kind: "other-major",
      message: "names a version outside 2.x; the agent is declared at 2.4.0 and does not accept another major",
    });
  });

  it("refuses a newer minor", () => {
    expect(checkClaimedVersion(declared("2.4.0"), "2.5.0")).toEqual({
      kind: "newer-minor",
      message: "asks for a newer minor than the agent's declared 2.4.0; deploy the agent's new version first",
    });
  });

  it("treats the minor of a 0.x version as its major and the patch as its minor", () => {
    expect(checkClaimedVersion(declared("0.9.2"), "0.9.1")).toBeUndefined();
    expect(checkClaimedVersion(declared("0.9.2"), "0.10.0")?.kind).toBe("other-major");
    expect(checkClaimedVersion(declared("0.9.2"), "0.9.3")).toEqual({
      kind: "newer-minor",
      message: "asks for a newer patch than the agent's declared 0.9.2; deploy the agent's new version first",
    });
  });

  it("calls a claim that is no version malformed", () => {
    expect(checkClaimedVersion(declared("1.2.0"), 12)).toEqual({
      kind: "malformed",
      message: "is not a version of the form MAJOR.MINOR.PATCH; the agent is declared at 1.2.0",
    });
  });
});
