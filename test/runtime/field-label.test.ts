import { describe, expect, it } from "vitest";
import { fieldLabel, fieldOf } from "../../src/runtime/field-label.js";

describe("fieldOf", () => {
  it("folds array indices, keeps other segments", () => {
    expect(fieldOf("/artefacts/12/ref")).toBe("/artefacts/*/ref");
    expect(fieldOf("/hop/path/0")).toBe("/hop/path/*");
    expect(fieldOf("/budget/consumed/tokens")).toBe("/budget/consumed/tokens");
    expect(fieldOf("/x/01")).toBe("/x/01");
    expect(fieldOf("")).toBe("");
  });
});

describe("fieldLabel", () => {
  it("names an invented property by its parent", () => {
    expect(fieldLabel("/goal/my_notes", "additional-property")).toBe("/goal/*");
    expect(fieldLabel("/payload", "additional-property")).toBe("/*");
    expect(fieldLabel("/decisions/2/extra", "additional-property")).toBe("/decisions/*/*");
  });
  it("keeps the field of any other rule", () => {
    expect(fieldLabel("/goal/statement", "min-length")).toBe("/goal/statement");
  });
});
