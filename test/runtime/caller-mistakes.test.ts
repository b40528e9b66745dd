import { describe, expect, it } from "vitest";
import { accept, acceptAsync, delegate } from "./checks/helpers.js";

describe("caller mistakes raise a clear TypeError", () => {
  it("seen: undefined is not 'no store'", async () => {
    const message = "options.seen is undefined: pass a store, or leave the key out for no duplicate detection";
    expect(() => accept(delegate(), { me: "billing", seen: undefined })).toThrow(new TypeError(`accept(envelope, options): ${message}`));
    await expect(acceptAsync(delegate(), { me: "billing", seen: undefined })).rejects.toThrow(new TypeError(`acceptAsync(envelope, options): ${message}`));
  });

  it("a store whose claim returns undefined does not accept everything", async () => {
    const seen = { claim: () => undefined as never };
    const message = 'options.seen.claim returned undefined, not a claim result such as { outcome: "claimed" }';
    expect(() => accept(delegate(), { me: "billing", seen })).toThrow(new TypeError(message));
    await expect(acceptAsync(delegate(), { me: "billing", seen: { claim: async () => undefined as never } })).rejects.toThrow(new TypeError(message));
  });

  it("a clock in seconds is refused", () => {
    expect(() => accept(delegate(), { me: "billing", now: () => 1_764_500_000 })).toThrow(
      new TypeError("accept(envelope, options): options.now() returned 1764500000, which is seconds since the Unix epoch: it must return milliseconds (Date.now())"),
    );
  });

  it("stays quiet for a left-out store, a store answering, and a clock in ms", () => {
    expect(accept(delegate(), { me: "billing" }).ok).toBe(true);
    expect(accept(delegate(), { me: "billing", seen: { claim: () => ({ outcome: "claimed" }) }, now: () => 1_764_500_000_000 }).ok).toBe(true);
  });
});
