import { describe, expect, it } from "vitest";
import { envelopeSchema } from "../../src/core/envelope-schema.js";
import { dataCheckSource } from "../../src/emit/data-check-code.js";
import { createDataCheck, inheritsEnumerable } from "../../src/runtime/json-data.js";
import { clone, readJsonFixture } from "./helpers.js";

type Envelope = Record<string, unknown>;

/** The emitted check, loaded as an emitted module would: with `inheritsEnumerable` from the runtime. */
function emittedCheck(): (value: unknown) => boolean {
  const source = dataCheckSource(envelopeSchema, "isJsonData");
  return new Function("$seam_inheritsEnumerable", `${source}\nreturn isJsonData;`)(inheritsEnumerable) as (value: unknown) => boolean;
}

const emitted = emittedCheck();
const runtime = createDataCheck(envelopeSchema);
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;

function variant(change: (e: Envelope) => void): Envelope {
  const e = clone(base) as Envelope;
  change(e);
  return e;
}

describe("dataCheckSource", () => {
  const cases: [string, unknown, boolean][] = [
    ["a valid envelope", base, true],
    ["an unpaired surrogate in free text (goal.statement)", variant((e) => ((e["goal"] as Envelope)["statement"] = "refund \uD800 now")), false],
    ["an unpaired surrogate in a list of free text (constraints)", variant((e) => (e["constraints"] = ["ok", "\uDC00"])), false],
    ["an unpaired surrogate in a nested free-text field", variant((e) => ((e["from_agent"] as Envelope)["id"] = "a\uD83D")), false],
    ["a paired surrogate (an emoji) in free text", variant((e) => ((e["goal"] as Envelope)["statement"] = "refund \uD83D\uDE00")), true],
    ["a nested object that inherits an enumerable field", variant((e) => (e["hop"] = Object.create(e["hop"] as object))), false],
    ["a root that inherits an enumerable field", Object.create(base), false],
    ["a class instance with own fields", variant((e) => (e["budget"] = Object.assign(new (class Budget {})(), e["budget"]))), true],
    ["a field of the wrong type (the schema refuses it, not this check)", variant((e) => (e["constraints"] = "not a list")), true],
    ["null", null, true],
    ["a string", "\uD800", true],
  ];
  it.each(cases)("answers as the runtime's check does: %s", (_name, value, expected) => {
    expect(runtime(value)).toBe(expected);
    expect(emitted(value)).toBe(expected);
  });

  it("reads property names as literals, so the check does no computed lookups", () => {
    const source = dataCheckSource(envelopeSchema, "isJsonData");
    expect(source).toMatch(/^function isJsonData\(v0\) \{\n/);
    expect(source).toContain('["statement"]');
    expect(source).toContain("$seam_inheritsEnumerable(v0)");
  });
});
