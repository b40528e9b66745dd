import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { MAX_DEPTH, MAX_ENVELOPE_BYTES, parseEnvelope } from "../../src/runtime/parse-envelope.js";
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

  it("counts the bytes of a text that could be past the limit: three-byte characters and surrogate pairs", () => {
    const large = (size: number, limit: number) => ({
      ok: false,
      reasons: [{ path: "", rule: "envelope-too-large", message: `is ${size} bytes of UTF-8, past the limit of ${limit}: an envelope carries pointers, not payloads` }],
    });
    // 4 code units each: 8 bytes of UTF-8 and 6.
    expect(parseEnvelope('"€€"', { maxBytes: 7 })).toEqual(large(8, 7));
    expect(parseEnvelope('"€€"', { maxBytes: 8 })).toEqual({ ok: true, envelope: "€€" });
    expect(parseEnvelope('"😀"', { maxBytes: 5 })).toEqual(large(6, 5));
    expect(parseEnvelope('"😀"', { maxBytes: 6 })).toEqual({ ok: true, envelope: "😀" });
    // At most a third of the limit in code units is within it, whatever the characters.
    expect(parseEnvelope('"€€"', { maxBytes: 12 })).toEqual({ ok: true, envelope: "€€" });
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
    expect(parseEnvelope('{"a":')).toEqual({ ok: false, reasons: [{ path: "", rule: "invalid-json", message: "is not JSON: the text ends at line 1, column 6, before the JSON value is complete" }] });
    expect(parseEnvelope(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, reasons: [{ path: "", rule: "invalid-json", message: "is not UTF-8 text" }] });
    expect(() => parseEnvelope(42 as unknown as string)).toThrow(new TypeError("parseEnvelope(text, options): text must be a string or a Uint8Array (the bytes received)"));
    expect(() => parseEnvelope(text, { maxBytes: 0 })).toThrow(TypeError);
  });

  it("words a syntax fault in the catalogue's words with its line and column, not JSON.parse's", () => {
    const invalid = (message: string) => ({ ok: false, reasons: [{ path: "", rule: "invalid-json", message }] });
    expect(parseEnvelope("")).toEqual(invalid("is not JSON: the text is empty or only whitespace"));
    expect(parseEnvelope(" \n ")).toEqual(invalid("is not JSON: the text is empty or only whitespace"));
    expect(parseEnvelope('{\n  "a": NaN\n}')).toEqual(invalid("is not JSON: a value (an object, array, string, number, true, false or null) should begin at line 2, column 8"));
    expect(parseEnvelope("[1,]")).toEqual(invalid("is not JSON: a value (an object, array, string, number, true, false or null) should begin at line 1, column 4"));
    expect(parseEnvelope('{"a": 1} x')).toEqual(invalid("is not JSON: text follows the JSON value at line 1, column 10"));
    // Columns count characters: the emoji is one, though two UTF-16 code units.
    expect(parseEnvelope('["😀" "x"]')).toEqual(invalid("is not JSON: a ',' or ']' should come at line 1, column 6"));
  });

  it("refuses nesting past MAX_DEPTH at the first bracket past it, even where JSON.parse reads the text", () => {
    const deep = (depth: number): string => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    // The object is level 1: the 64th "[" is level 65, after the 5 characters of {"a":.
    const past = { ok: false, reasons: [{ path: "", rule: "invalid-json", message: `is nested deeper than ${MAX_DEPTH} levels of arrays and objects at line 1, column ${5 + MAX_DEPTH}: the parser reads no deeper (RFC 8259 section 9)` }] };
    expect(MAX_DEPTH).toBe(64);
    expect(parseEnvelope(deep(MAX_DEPTH - 1)).ok).toBe(true);
    expect(parseEnvelope(deep(MAX_DEPTH))).toEqual(past);
    expect(parseEnvelope(deep(1000))).toEqual(past);
    // A repeated key after the deep value: JSON.parse drops that value, the text still holds it.
    expect(parseEnvelope(`${deep(1000).slice(0, -1)},"a":1}`)).toEqual(past);
    expect(parseEnvelope(`{"a":{"b":1,"b":2}${",\"c\":[]".repeat(3)}}`).ok).toBe(false);
  });

  it("drops one byte order mark from a string or bytes, not two", () => {
    const second = { ok: false, reasons: [{ path: "", rule: "invalid-json", message: "is not JSON: a value (an object, array, string, number, true, false or null) should begin at line 1, column 1" }] };
    expect(parseEnvelope("\uFEFF{}")).toEqual({ ok: true, envelope: {} });
    expect(parseEnvelope(Buffer.from("\uFEFF{}"))).toEqual({ ok: true, envelope: {} });
    expect(parseEnvelope("\uFEFF\uFEFF{}")).toEqual(second);
    expect(parseEnvelope(Buffer.from("\uFEFF\uFEFF{}"))).toEqual(second);
  });
});
