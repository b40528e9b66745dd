/**
 * Cross-runtime differential tests: the emitted Python module against the JavaScript runtime
 * (Ajv, ajv-formats, canonicalize, createAccept) on 10^4+ generated envelopes, and against
 * Python's jsonschema as an independent oracle. Every batch runs through one Python process.
 */
import canonicalize from "canonicalize";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckedGraph } from "../../../src/analysis/model.js";
import { envelopeSchemaFor } from "../../../src/core/envelope-schema.js";
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import { addGraphSchemas } from "../../../src/emit/schema-compiler.js";
import { createLoopDetector } from "../../../src/runtime/loop-detector.js";
import { createLoopSignature } from "../../../src/runtime/loop-signature.js";
import { formats } from "../../../src/runtime/schema-helpers.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { checkedGraph, readFixture, refundDesk, removeTempDirs } from "../helpers.js";
import { generateDeliveries, type GeneratedDelivery } from "./envelopes.js";
import { contractValidatorNames } from "../../../src/emit/validator-names.js";
import { HERE, drive, python, pythonWith, runJson, skipLine, writePythonModule } from "./python.js";
import { join } from "node:path";

afterAll(() => removeTempDirs());

const PER_GRAPH = 6_000;
const NOW_MS = 1_764_500_000_123;

function helpDesk(): CheckedGraph {
  return checkedGraph(readFixture("cases", "envelopes-help-desk", "graph.seam"), "graph.seam");
}

interface Subject {
  readonly graph: CheckedGraph;
  readonly module: string;
  readonly deliveries: readonly GeneratedDelivery[];
}

const subjects: Subject[] = [];

/**
 * Values where ajv-formats' date-time knowingly departs from RFC 3339, which the oracle follows:
 * a space between date and time, a time-zone offset without a colon.
 */
const FORMAT_DEPARTURES = ["2026-11-29 10:02:11Z", "+0100"];

const oraclePython = pythonWith("jsonschema, rfc3987");


/** Ajv's verdict as [instancePath, keyword, params][] (empty: valid), for every validator. */
function ajvErrors(graph: CheckedGraph, texts: readonly string[]): { names: string[]; ids: string[]; errors: unknown[][][] } {
  const schemas = addGraphSchemas(graph);
  const ids = [schemas.envelopeId, ...schemas.contracts.map((c) => c.id)];
  const names = ["validate_envelope", ...contractValidatorNames(graph.edges, schemas.edgeContracts)];
  const validators = ids.map((id) => {
    const validate = schemas.ajv.getSchema(id);
    if (validate === undefined) throw new Error(`no schema ${id}`);
    return validate;
  });
  const errors = texts.map((text) => {
    const data = JSON.parse(text) as unknown;
    return validators.map((validate) =>
      validate(data) ? [] : (validate.errors ?? []).map((e) => [e.instancePath, e.keyword, e.params]),
    );
  });
  return { names, ids, errors };
}

describe.skipIf(python === undefined)("Python module vs the JavaScript runtime", () => {
  beforeAll(() => {
    for (const [graph, seed] of [
      [helpDesk(), 20261130],
      [refundDesk(), 7731],
    ] as const) {
      const hopLimit = graph.hopLimit.value as number;
      subjects.push({ graph, module: writePythonModule(graph, "py-diff"), deliveries: generateDeliveries(graph, hopLimit, PER_GRAPH, seed) });
    }
  });

  it("reports the same schema errors as Ajv (path, keyword, params, order) on every generated envelope", () => {
    let invalid = 0;
    let total = 0;
    for (const subject of subjects) {
      const texts = subject.deliveries.map((d) => d.text);
      const expected = ajvErrors(subject.graph, texts);
      const actual = drive<unknown[][][]>(python as string, subject.module, { op: "validate", texts, validators: expected.names });
      for (let i = 0; i < texts.length; i++) {
        if (JSON.stringify(actual[i]) !== JSON.stringify(expected.errors[i])) {
          expect({ text: texts[i], errors: actual[i] }).toEqual({ text: texts[i], errors: expected.errors[i] });
        }
        if ((expected.errors[i] as unknown[][]).some((list) => list.length > 0)) invalid++;
      }
      total += texts.length;
    }
    expect(total).toBeGreaterThanOrEqual(10_000);
    // The generator must exercise both sides.
    expect(invalid).toBeGreaterThan(total / 3);
    expect(invalid).toBeLessThan(total);
  });

  it("computes byte-identical RFC 8785 text and loop signatures (numbers and Unicode included)", () => {
    for (const subject of subjects) {
      const texts = subject.deliveries.map((d) => d.text);
      const canonical = drive<unknown[]>(python as string, subject.module, { op: "canonical", texts });
      const signatures = drive<unknown[]>(python as string, subject.module, { op: "signature", texts });
      const signature = createLoopSignature(subject.graph.loopSignature);
      let errors = 0;
      texts.forEach((text, i) => {
        const data = JSON.parse(text) as unknown;
        let expected: unknown;
        try {
          expected = canonicalize(data);
        } catch {
          expected = "error";
        }
        const got = canonical[i];
        expect(typeof got === "object" ? "error" : got, text).toBe(expected);
        let expectedSignature: string;
        try {
          expectedSignature = signature(data);
        } catch {
          expectedSignature = "error";
          errors++;
        }
        const gotSignature = signatures[i];
        expect(typeof gotSignature === "object" ? "error" : gotSignature, text).toBe(expectedSignature);
      });
      expect(errors).toBeLessThan(texts.length / 10);
    }
  });

  it("writes every double as ECMAScript's Number::toString does", () => {
    const doubles = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), { seed: 42, numRuns: 20_000 });
    doubles.push(0, 1, -1, 1e21, 1e-7, 1e-6, 123e-20, 5e-324, 1.7976931348623157e308, 2 ** 53, 0.1 + 0.2, 100, 1e20, 123456789012345680000);
    const got = drive<string[]>(python as string, subjects[0]?.module as string, { op: "numbers", text: JSON.stringify(doubles) });
    expect(got).toEqual(doubles.map((d) => String(Object.is(d, -0) ? 0 : d)));
  });

  it("checks uuid, date-time and uri exactly as ajv-formats does", () => {
    const part = (digits: number) => fc.integer({ min: 0, max: 10 ** digits - 1 }).map((n) => String(n).padStart(digits, "0"));
    const dateTimes = fc
      .tuple(part(4), part(2), part(2), fc.constantFrom("T", "t", " ", "\u2028", "x", "\ufeff"), part(2), part(2), part(2), fc.constantFrom("", ".5", ".123456"), fc.constantFrom("Z", "z", "", "+01:00", "-23:59", "+0100", "+24:00", "+01", "-00:60"))
      .map(([y, mo, d, sep, h, mi, s, f, z]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${f}${z}`);
    const strings = fc.sample(
      fc.oneof(dateTimes, fc.uuid().map((u) => (u.length % 2 ? u.toUpperCase() : u)), fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string({ unit: "binary", maxLength: 30 }), fc.string({ unit: "grapheme-ascii", maxLength: 30 })),
      { seed: 3, numRuns: 20_000 },
    );
    strings.push("2024-02-29T23:59:60Z", "2023-02-29T10:00:00Z", "2026-11-29T00:59:60+01:00", "urn:uuid:0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39", "a:b", "http://[::1]/", "K:b", "\u212a:b");
    const got = drive<boolean[][]>(python as string, subjects[0]?.module as string, { op: "formats", strings });
    const uuid = formats.uuid as RegExp;
    const dateTime = (formats["date-time"] as { validate: (s: string) => boolean }).validate;
    const uri = formats.uri as (s: string) => boolean;
    const expected = strings.map((s) => [uuid.test(s), dateTime(s), uri(s)]);
    strings.forEach((s, i) => expect([s, got[i]]).toEqual([s, expected[i]]));
  });

  it("gives the same accept() results, duplicates and loop observations as the JavaScript runtime", () => {
    const canRead = (ref: string): boolean => !ref.includes("secret");
    let accepted = 0;
    let duplicates = 0;
    let counted = 0;
    let total = 0;
    for (const [n, subject] of subjects.entries()) {
      const { accept } = createGraphAccept(subject.graph);
      // Random hops of random tasks: a graph-wide store refuses most as out of turn (its messages
      // compared), one receiver's store judges most on content (the records compared).
      const scope = n % 2 === 0 ? "receiver" : "graph";
      const seen = createMemorySeenStore({ scope });
      const detector = createLoopDetector(createLoopSignature(subject.graph.loopSignature));
      const signature = createLoopSignature(subject.graph.loopSignature);
      const expected = subject.deliveries.map(({ text, me }) => {
        const envelope = JSON.parse(text) as unknown;
        let result: ReturnType<typeof accept>;
        try {
          result = accept(envelope, { me, canRead, seen, now: () => NOW_MS });
        } catch (error) {
          if (error instanceof TypeError) return { error: "TypeError" };
          throw error;
        }
        const entry: Record<string, unknown> = { result: JSON.parse(JSON.stringify(result)) as unknown };
        if (result.ok) {
          try {
            entry["loop"] = detector.observe(envelope)?.loop ?? null;
            entry["signature"] = signature(envelope);
          } catch {
            entry["signature"] = "error";
          }
          accepted++;
        }
        if (result.duplicate) duplicates++;
        if (!result.ok && result.rejection.reasons.some((r) => / more .* reasons, not listed/.test(r.message))) counted++;
        return entry;
      });
      const actual = drive<unknown[]>(python as string, subject.module, { op: "accept", deliveries: subject.deliveries, now: NOW_MS, scope });
      subject.deliveries.forEach((delivery, i) => expect([delivery.text, actual[i]]).toEqual([delivery.text, expected[i]]));
      total += subject.deliveries.length;
    }
    expect(total).toBeGreaterThanOrEqual(10_000);
    expect(accepted).toBeGreaterThan(total / 10);
    expect(duplicates).toBeGreaterThan(10);
    // Rejections with more than 20 reasons of a rule, the rest only counted, are among them.
    expect(counted).toBeGreaterThan(100);
  });

  it("answers as its general path does, verdict, record and ledger, where accept() takes a shortcut", () => {
    // The shortcuts (the memory store's claim of a task's first hop) must change nothing: each
    // delivery goes through both, on a store each, and the ledgers are compared after every one.
    for (const [n, subject] of subjects.entries()) {
      const scope = n % 2 === 0 ? "receiver" : "graph";
      const paths = drive<{ compared: number; shortcuts: number | null; differ: unknown[] }>(python as string, subject.module, {
        op: "paths",
        deliveries: subject.deliveries,
        now: NOW_MS,
        scope,
      });
      expect(paths.differ).toEqual([]);
      expect(paths.compared).toBe(subject.deliveries.length);
      // Taken at all (some hundreds of times of the 6,000 in receiver scope, where any hop starts a
      // task); uncounted (null) only in the runtime's compiled build, whose calls skip the counter.
      if (process.env["SEAM_TEST_PYTHONPATH"] === undefined) expect(paths.shortcuts).toBeGreaterThan(0);
      else expect(paths.shortcuts === null || paths.shortcuts > 0).toBe(true);
    }
  }, 240_000);

  it.skipIf(oraclePython === undefined)("gives the same valid/invalid verdict as Python's jsonschema (a test-only oracle) for every validator", () => {
    let compared = 0;
    for (const subject of subjects) {
      const texts = subject.deliveries.map((d) => d.text).filter((text) => !FORMAT_DEPARTURES.some((s) => text.includes(s)));
      const schemas = addGraphSchemas(subject.graph);
      const ids = [schemas.envelopeId, ...schemas.contracts.map((c) => c.id)];
      // Each text against the envelope schema and one contract (in turn), so the oracle stays within its time.
      const jobs = texts.map((text, i) => ({ text, ids: [ids[0], ids[1 + (i % (ids.length - 1))]] as string[] }));
      const verdicts = runJson<boolean[][]>(oraclePython as string, join(HERE, "oracle.py"), [], {
        schemas: [envelopeSchemaFor(subject.graph.envelope), ...schemas.contracts.map((c) => c.schema)],
        jobs,
      });
      const names = ["validate_envelope", ...contractValidatorNames(subject.graph.edges, schemas.edgeContracts)];
      const errors = drive<unknown[][][]>(python as string, subject.module, { op: "validate", texts, validators: names });
      texts.forEach((text, i) => {
        const lists = errors[i] as unknown[][];
        const ours = [lists[0], lists[1 + (i % (ids.length - 1))]].map((list) => list?.length === 0);
        expect([text, ours]).toEqual([text, verdicts[i]]);
      });
      compared += texts.length;
    }
    expect(compared).toBeGreaterThanOrEqual(10_000);
    // jsonschema takes about a millisecond an envelope: give it room on a loaded machine.
  }, 240_000);
});

describe.skipIf(oraclePython !== undefined)("the jsonschema oracle", () => {
  it(skipLine("python3-jsonschema python3-rfc3987"), () => {
    expect(oraclePython).toBeUndefined();
  });
});
