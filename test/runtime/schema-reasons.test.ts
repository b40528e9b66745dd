/**
 * schemaReasons against the plain way of making reasons (every error, each (rule, path) once,
 * then capReasons), on contract validators compiled as accept() compiles them, over random
 * contracts and hostile envelopes; and the real contract validators against STATED_TWICE: every
 * fault one reports twice lies there.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import { PER_RULE_LIMIT } from "../../src/runtime/reason-catalogue.js";
import { capReasons, schemaErrorToReason, type Reason, type SchemaError } from "../../src/runtime/reason.js";
import { isHeaderPath, schemaReasons, STATED_TWICE } from "../../src/runtime/schema-reasons.js";
import { checkedGraph } from "../emit/helpers.js";

/** Field paths a contract may require in envelope 1.3, each kind of step among them. */
const PATHS = ["decisions", "decisions[].rationale", "decisions[].confidence", "provenance", "artefacts", "artefacts[].digest", "goal.out_of_scope"];

/** The contract validator of `a -> b` requiring `require`. */
function contract(require: readonly string[]) {
  const text = [
    "seam 1",
    "graph g {",
    "  envelope 1.3",
    "  entry a",
    "  hop_limit 8",
    "  agent a: supervisor { terminal done }",
    "  agent b: worker",
    `  delegate a -> b${require.length === 0 ? "" : ` { require ${require.join(", ")} }`}`,
    "  return b -> a",
    "}",
  ].join("\n");
  const graph = checkedGraph(text, "contract.seam");
  const schemas = addGraphSchemas(graph);
  const index = schemas.edgeContracts[0] as number;
  const compiled = schemas.contracts[index];
  const validate = schemas.ajv.getSchema(compiled?.id ?? "");
  if (compiled === undefined || validate === undefined) throw new Error("no contract validator");
  return { validate };
}

const BASE = {
  envelope_version: "1.3.0",
  handoff_id: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
  task_id: "t-1",
  hop: { index: 1, limit: 8, path: ["a", "b"] },
  from_agent: { id: "a", role: "supervisor" },
  to_agent: { id: "b", role: "worker" },
  goal: { statement: "s", acceptance_criteria: ["c"] },
  constraints: [],
  budget: { consumed: { tokens: 1 }, limit: { tokens: 9 } },
  provenance: [{ agent: "a", action: "x", at: "2026-11-29T10:02:11Z", status: "verified" }],
};

const junk = fc.oneof(
  fc.constant({}),
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 3 }),
  fc.record({ rationale: fc.oneof(fc.integer(), fc.string()), confidence: fc.oneof(fc.double(), fc.string()) }, { requiredKeys: [] }),
  fc.record({ ref: fc.oneof(fc.integer(), fc.constant("not a uri"), fc.constant("artefact://x")), digest: fc.integer(), role: fc.constant("required") }, { requiredKeys: [] }),
);
/** An envelope with hostile values in the fields contracts require, a bad hop.limit, and sometimes none of it an object. */
const envelope = fc.oneof(
  { weight: 6, arbitrary: fc.record({ field: fc.constantFrom("decisions", "artefacts", "provenance", "goal", "hop", "extra"), items: fc.array(junk, { maxLength: 60 }), whole: fc.boolean(), limit: fc.oneof(fc.constant(8), fc.constant(9), fc.constant(1e16), fc.constant("8"), fc.constant(-1)) }).map(({ field, items, whole, limit }) => {
    const copy: Record<string, unknown> = structuredClone(BASE);
    copy[field] = whole ? items : field === "goal" || field === "hop" ? { ...(copy[field] as object), out_of_scope: items, path: items } : items;
    if (typeof copy["hop"] === "object" && copy["hop"] !== null && !Array.isArray(copy["hop"])) (copy["hop"] as Record<string, unknown>)["limit"] = limit;
    return copy as unknown;
  }) },
  { weight: 1, arbitrary: junk },
);

/** The reasons made the plain way: every error's reason, each (rule, path) once, in order. */
function plainReasons(errors: readonly SchemaError[]): Reason[] {
  const seen = new Set<string>();
  const out: Reason[] = [];
  for (const error of errors) {
    const reason = schemaErrorToReason(error);
    const key = `${reason.rule}\u0000${reason.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(reason);
  }
  return out;
}

describe("schemaReasons", () => {
  const contracts = PATHS.map((_, i) => contract(PATHS.filter((__, j) => ((i * 37 + 11) >> j) & 1)));
  contracts.push(contract([]), contract(PATHS));

  it("gives what every reason, each (rule, path) once and then capped, gives: on 3,000 hostile envelopes", () => {
    let withFaultyRefs = 0;
    fc.assert(
      fc.property(fc.nat({ max: contracts.length - 1 }), envelope, (which, value) => {
        const { validate } = contracts[which] as (typeof contracts)[number];
        if (validate(value)) return;
        const errors = validate.errors as SchemaError[];
        const plain = plainReasons(errors);
        const found = schemaReasons(errors);
        expect(capReasons([...found.reasons])).toEqual(capReasons([...plain]));
        const perRule = new Map<string, number>();
        const leftOut = plain.filter((r) => {
          perRule.set(r.rule, (perRule.get(r.rule) ?? 0) + 1);
          return (perRule.get(r.rule) as number) > PER_RULE_LIMIT;
        });
        expect(found.headerFaultCounted).toBe(leftOut.some((r) => isHeaderPath(r.path)));
        const refs = plain.map((r) => /^\/artefacts\/(\d+)\/ref$/.exec(r.path)?.[1]).filter((i) => i !== undefined);
        expect([...(found.faultyRefs ?? [])].sort((a, b) => a - b)).toEqual([...new Set(refs.map(Number))].sort((a, b) => a - b));
        if (refs.length > 0) withFaultyRefs++;
      }),
      { numRuns: 3_000, seed: 20261207 },
    );
    // Faulty artefact refs, listed and counted, are among them.
    expect(withFaultyRefs).toBeGreaterThan(50);
  }, 120_000);

  it("finds every fault a contract's validator reports twice at STATED_TWICE, never in a flood: on 3,000 envelopes", () => {
    let repeats = 0;
    fc.assert(
      fc.property(fc.nat({ max: contracts.length - 1 }), envelope, (which, value) => {
        const { validate } = contracts[which] as (typeof contracts)[number];
        if (validate(value)) return;
        const seen = new Set<string>();
        for (const error of validate.errors as SchemaError[]) {
          const { rule, path } = schemaErrorToReason(error);
          const key = `${rule}\u0000${path}`;
          if (!seen.has(key)) seen.add(key);
          else {
            repeats++;
            expect(error.instancePath, `${rule} at ${path}`).toBe(STATED_TWICE);
          }
        }
      }),
      { numRuns: 3_000, seed: 20261208 },
    );
    // Bad limits are reported twice, so the property is not empty.
    expect(repeats).toBeGreaterThan(100);
  }, 120_000);

  it("reports once the one place both schemas state: a hop.limit past both caps", () => {
    const { validate } = contract([]);
    const value = { ...structuredClone(BASE), constraints: ["k"], hop: { index: 1, limit: 1e16, path: ["a", "b"] } };
    expect(validate(value)).toBe(false);
    const errors = validate.errors as SchemaError[];
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(["/hop/limit maximum", "/hop/limit maximum"]);
    expect(schemaReasons(errors).reasons).toEqual([{ path: "/hop/limit", rule: "maximum", message: "must be at most 9007199254740991" }]);
  });

  it("lists 20 faults of a rule and counts the rest in one entry at the first one left out", () => {
    const errors: SchemaError[] = Array.from({ length: 25 }, (_, i) => ({ instancePath: `/decisions/${i}`, keyword: "required", params: { missingProperty: "id" } }));
    const found = schemaReasons(errors);
    expect(found.reasons).toHaveLength(21);
    expect(found.reasons[20]).toEqual({ path: "/decisions/20/id", rule: "required", message: "", count: 5 });
    expect(capReasons(found.reasons).at(-1)).toEqual({ path: "/decisions/20/id", rule: "required", message: "and 5 more required reasons, not listed (a verdict lists at most 20 per rule)" });
    expect(found.headerFaultCounted).toBe(false);
  });

  it("says when a fault only counted lies in the header, at the root or below it", () => {
    const decisions: SchemaError[] = Array.from({ length: 20 }, (_, i) => ({ instancePath: `/decisions/${i}`, keyword: "type", params: { type: "object" } }));
    const below = schemaReasons([...decisions, { instancePath: "/hop/path/3", keyword: "type", params: { type: "string" } }]);
    expect(below.headerFaultCounted).toBe(true);
    const atRoot = schemaReasons(
      [...decisions.map((e) => ({ ...e, keyword: "required", params: { missingProperty: "id" } })), { instancePath: "", keyword: "required", params: { missingProperty: "task_id" } }],
    );
    expect(atRoot.headerFaultCounted).toBe(true);
    const listed = schemaReasons([{ instancePath: "/hop/path/3", keyword: "type", params: { type: "string" } }]);
    expect(listed.headerFaultCounted).toBe(false);
  });
});

describe("schemaErrorToReason", () => {
  it("words a limit of one in the singular and other limits in the plural", () => {
    const words = (keyword: string, limit: number): string => schemaErrorToReason({ instancePath: "/decisions", keyword, params: { limit } }).message;
    expect(words("minItems", 1)).toBe("must have at least 1 item");
    expect(words("minItems", 2)).toBe("must have at least 2 items");
    expect(words("minLength", 1)).toBe("must have at least 1 character");
    expect(words("maxLength", 500)).toBe("must have at most 500 characters");
  });
});
