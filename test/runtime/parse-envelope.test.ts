import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { MAX_ENVELOPE_BYTES, parseEnvelope } from "../../src/runtime/parse-envelope.js";
import { readFixture, refundDesk } from "../emit/helpers.js";

const text = readFixture("cases", "envelopes", "valid-delegate.json");
const { accept } = createGraphAccept(refundDesk());

describe("parseEnvelope", () => {
  it("refuses a second to_agent that JSON.parse would let through", () => {
    const smuggled = text.replace('"to_agent": {', '"to_agent": { "id": "refunds", "role": "worker" }, "to_agent": {');
    // What every ingest path did before: the last key wins, unseen.
    expect(accept(JSON.parse(smuggled), { me: "billing" }).ok).toBe(true);
    expect(parseEnvelope(smuggled)).toEqual({
      ok: false,
      reasons: [
        {
          path: "/to_agent",
          rule: "duplicate-key",
          message: "the key \"to_agent\" is given twice in one object: parsers disagree on which value counts, so the envelope is refused",
        },
      ],
    });
  });

  it("stays quiet on an envelope with each key once, as text or as bytes", () => {
    expect(parseEnvelope(text)).toEqual({ ok: true, envelope: JSON.parse(text) });
    expect(parseEnvelope(new TextEncoder().encode(`\uFEFF${text}`))).toEqual({ ok: true, envelope: JSON.parse(text) });
  });

  it("refuses a text past the size limit before parsing it", () => {
    const big = `{"pad":"${"x".repeat(MAX_ENVELOPE_BYTES)}"}`;
    expect(parseEnvelope(big)).toEqual({
      ok: false,
      reasons: [{ path: "", rule: "envelope-too-large", message: `is more than ${MAX_ENVELOPE_BYTES} bytes of UTF-8, past the limit of ${MAX_ENVELOPE_BYTES}: an envelope carries pointers, not payloads` }],
    });
    expect(parseEnvelope("é".repeat(600), { maxBytes: 1000 })).toEqual({
      ok: false,
      reasons: [{ path: "", rule: "envelope-too-large", message: "is 1200 bytes of UTF-8, past the limit of 1000: an envelope carries pointers, not payloads" }],
    });
    expect(parseEnvelope("é".repeat(500), { maxBytes: 1000 }).ok).toBe(false);
    expect(parseEnvelope(`"${"é".repeat(499)}"`, { maxBytes: 1000 })).toEqual({ ok: true, envelope: "é".repeat(499) });
  });

  it("lists at most 20 duplicate keys, then one reason counting the rest", () => {
    const keys = Array.from({ length: 30 }, () => '"a":1').join(",");
    const parsed = parseEnvelope(`{${keys}}`);
    expect(parsed.ok).toBe(false);
    const reasons = parsed.ok ? [] : parsed.reasons;
    expect(reasons).toHaveLength(21);
    expect(reasons[20]).toEqual({ path: "/a", rule: "duplicate-key", message: "and 9 more duplicate-key reasons, not listed (a verdict lists at most 20 per rule)" });
  });

  it("turns bad JSON and bad UTF-8 into reasons, and a misuse into a TypeError", () => {
    expect(parseEnvelope('{"a":')).toEqual({ ok: false, reasons: [{ path: "", rule: "invalid-json", message: expect.stringMatching(/^is not JSON: "/) }] });
    expect(parseEnvelope(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, reasons: [{ path: "", rule: "invalid-json", message: "is not UTF-8 text" }] });
    expect(() => parseEnvelope(42 as unknown as string)).toThrow(new TypeError("parseEnvelope(text, options): text must be a string or a Uint8Array (the bytes received)"));
    expect(() => parseEnvelope(text, { maxBytes: 0 })).toThrow(TypeError);
  });
});
