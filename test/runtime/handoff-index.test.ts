/**
 * The memory store's index of accepted handoffs (a map per producer) against the joined key it
 * replaced (`length:producer:id`, `-:id` for none), on generated sequences of sets, deletes and
 * gets over near-miss keys: producers that are null, empty, or hold colons and digits, ids that
 * differ in one character. Both must find the same entries after every step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HandoffIndex } from "../../src/runtime/handoff-index.js";

/** The joined key of the previous store. */
const joined = (producer: string | null, id: string) => (producer === null ? `-:${id}` : `${producer.length}:${producer}:${id}`);

const producer = fc.oneof(fc.constant(null), fc.constantFrom("", "-", "1", "a", "a:b", "1:a", "3:a:b", "intake"), fc.string({ maxLength: 4 }));
const id = fc.oneof(fc.constantFrom("", "a", "b", ":a", "a:", "1:a", "-:a", "b:1:a"), fc.string({ maxLength: 4 }));
const step = fc.record({ op: fc.constantFrom("set", "set", "delete", "get"), producer, id, value: fc.nat() });

describe("the index of accepted handoffs", () => {
  it("finds what the joined key finds, step by step", () => {
    let hits = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const index = new HandoffIndex<number>();
        const model = new Map<string, number>();
        const keys: [string | null, string][] = [];
        for (const { op, producer, id, value } of steps) {
          if (op === "set") {
            index.set(producer, id, value);
            model.set(joined(producer, id), value);
            keys.push([producer, id]);
          } else if (op === "delete") {
            index.delete(producer, id);
            model.delete(joined(producer, id));
          }
          expect(index.get(producer, id)).toBe(model.get(joined(producer, id)));
          for (const [p, i] of keys) {
            const found = model.get(joined(p, i));
            if (found !== undefined) hits++;
            expect(index.get(p, i)).toBe(found);
          }
        }
      }),
      { numRuns: 500, seed: 20261202 },
    );
    expect(hits).toBeGreaterThan(1000);
  });
});
