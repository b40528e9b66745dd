import { describe, expect, it } from "vitest";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";

describe("createMemorySeenStore", () => {
  it("records handoffs and hop owners, refusing duplicates and second owners without writing", () => {
    const store = createMemorySeenStore();
    expect(store.hasHandoff("h1")).toBe(false);
    expect(store.record("h1", "t", 1, "billing")).toBe("recorded");
    expect(store.hasHandoff("h1")).toBe(true);
    expect(store.ownerOf("t", 1)).toBe("billing");
    expect(store.record("h1", "t", 2, "billing")).toBe("duplicate");
    expect(store.ownerOf("t", 2)).toBeUndefined();
    expect(store.record("h2", "t", 1, "refunds")).toBe("owner-conflict");
    expect(store.hasHandoff("h2")).toBe(false);
    expect(store.record("h3", "t", 1, "billing")).toBe("recorded");
    expect(store.ownerOf("other", 1)).toBeUndefined();
  });
});
