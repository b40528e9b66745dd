import { describe, expect, it } from "vitest";
import fc from "fast-check";
import ajvFormats from "ajv-formats/dist/formats.js";
import ajvUcs2length from "ajv/dist/runtime/ucs2length.js";
import { formats, ucs2length } from "../../src/runtime/schema-helpers.js";

// The references: ajv-formats' full formats and Ajv's code-point count, which the helpers must
// match on every string (the Python runtime and every emitted module rely on one verdict).
const reference = ajvFormats.fullFormats as unknown as { "date-time": { validate(text: string): boolean }; uri(text: string): boolean };
const lengthModule = ajvUcs2length as unknown as ((text: string) => number) | { default: (text: string) => number };
const referenceLength = typeof lengthModule === "function" ? lengthModule : lengthModule.default;

/** Any UTF-16 text, lone surrogates included. */
const anyText = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 }).map((units) => String.fromCharCode(...units));

/** Two digits: mostly from `min` to `max`, sometimes anything up to 99 (month 13, hour 24, second 60...). */
const two = (min: number, max: number): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 6 }, { arbitrary: fc.integer({ min: 0, max: 99 }), weight: 1 }).map((n) => String(n).padStart(2, "0"));
/** Mostly the first value, sometimes one of the others. */
const mostly = (usual: string, ...others: string[]): fc.Arbitrary<string> => fc.oneof({ arbitrary: fc.constant(usual), weight: 6 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
const dateTimeLike = fc
  .tuple(
    mostly("2026", "2024", "1900", "2000", "2100", "0000", "9999", "202", "20266"),
    two(1, 12),
    two(1, 31),
    mostly("T", "t", " ", "\u00a0", "TT", "x"),
    two(0, 23),
    two(0, 59),
    fc.oneof(two(0, 59), fc.constant("60")),
    fc.constantFrom("", ".5", ".123456789", ".9999999999", ".99999999999999999", ".", ".12a"),
    fc.oneof(fc.constantFrom("Z", "+01:00", "-05:30", "+23:59"), fc.constantFrom("z", "+24:00", "+01:60", "+0100", "+01", "", "Zx", "-00:01", "+00:01")),
  )
  .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);

const uriLike = fc
  .tuple(
    mostly("https", "artefact", "a+b.c-d", "1http", "", "urn"),
    mostly("://", ":", ":/", "//", "://user@", ":///"),
    fc.constantFrom("example.com", "vsr-2026-03-0219", "127.0.0.1", "[::1]", "host:8080", "h%2Fx", "h%zz", "", "a b", "é"),
    fc.array(fc.constantFrom("/a", "/", "/%41", "/b:c@d", "/x y", "/%", "/\\", "/é"), { maxLength: 3 }),
    fc.constantFrom("", "?q=1", "?a/b?c", "#frag", "?q#f", "#a#b", "?%zz"),
  )
  .map(([scheme, sep, host, path, tail]) => `${scheme}${sep}${host}${path.join("")}${tail}`);

describe("formats", () => {
  it("date-time takes and refuses exactly what ajv-formats' date-time does", () => {
    for (const text of ["2026-03-11T08:40:19Z", "2024-02-29T23:59:59.123456789+01:00", "2023-02-29T00:00:00Z", "2026-12-31T23:59:60Z", "1990-12-31T15:59:60-08:00", "2026-03-11T08:40:59.99999999999999999Z"]) {
      expect(formats["date-time"].validate(text)).toBe(reference["date-time"].validate(text));
    }
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: dateTimeLike, weight: 4 }, { arbitrary: anyText, weight: 1 }), (text) => {
        const verdict = formats["date-time"].validate(text);
        expect(verdict).toBe(reference["date-time"].validate(text));
        if (verdict) taken++;
      }),
      { numRuns: 20_000 },
    );
    // Not vacuous: many generated strings are date-times, many are not.
    expect(taken).toBeGreaterThan(1_000);
    expect(taken).toBeLessThan(19_000);
  });

  it("uri takes and refuses exactly what ajv-formats' uri does", () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: uriLike, weight: 4 }, { arbitrary: anyText, weight: 1 }, { arbitrary: fc.string(), weight: 1 }), (text) => {
        const verdict = formats.uri(text);
        expect(verdict).toBe(reference.uri(text));
        if (verdict) taken++;
      }),
      { numRuns: 20_000 },
    );
    expect(taken).toBeGreaterThan(1_000);
    expect(taken).toBeLessThan(19_000);
  });
});

describe("ucs2length", () => {
  it("counts code points as Ajv does, a lone surrogate as one", () => {
    expect(ucs2length("a\ud83d\ude00b")).toBe(3);
    expect(ucs2length("\ud83d")).toBe(1);
    expect(ucs2length("\ude00\ud83d")).toBe(2);
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ unit: "binary" })), (text) => {
        expect(ucs2length(text)).toBe(referenceLength(text));
      }),
      { numRuns: 20_000 },
    );
  });
});
