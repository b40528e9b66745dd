import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNameTable } from "../../src/parser/name-table.js";

// The name table replaces `text.slice` + a Map of strings: every span must read as its slice,
// through collisions and the table's growth. (That equal spans give one string object is a memory
// matter JavaScript cannot observe: strings compare by value.)
const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 300);

/** Texts of few distinct characters, so spans repeat often; a surrogate pair and an empty span too. */
const text = fc.array(fc.constantFrom("a", "b", "-", "1", "é", "\uD83D", "\uDE00", "ab"), { maxLength: 400 }).map((parts) => parts.join(""));

describe("createNameTable", () => {
  it("reads each span as its slice", () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(12)), { minLength: 1, maxLength: 3000 }), (t, spans) => {
        const table = createNameTable(t);
        for (const [at, length] of spans) {
          const start = t.length === 0 ? 0 : at % (t.length + 1);
          const end = Math.min(t.length, start + length);
          expect(table.intern(start, end)).toBe(t.slice(start, end));
        }
      }),
      { numRuns },
    );
  });

  it("keeps every distinct name across growth past its first slots", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `wrk-${i}`);
    const t = names.join(" ");
    const table = createNameTable(t);
    const offsets: [number, number][] = [];
    let at = 0;
    for (const name of names) {
      offsets.push([at, at + name.length]);
      at += name.length + 1;
    }
    expect(offsets.map(([s, e]) => table.intern(s, e))).toEqual(names);
    expect(offsets.map(([s, e]) => table.intern(s, e))).toEqual(names);
  });
});
