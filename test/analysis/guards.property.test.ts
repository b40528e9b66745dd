/**
 * The router enumeration (`src/analysis/guards.ts`) against brute force: on generated guard
 * sets, every concrete envelope state (each status, each named next step and one unnamed, and
 * confidences on a fine grid plus every threshold) is routed by trying the guards in order, and
 * the gaps, unreachable guards and overlaps found that way must be exactly those the
 * enumeration reports.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coverRouter, findRouterProblems, OTHER_STEP, type Piece } from "../../src/analysis/guards.js";
import type { CheckedCondition, CheckedGuard } from "../../src/analysis/model.js";
import { ENVELOPE_STATUSES } from "../../src/core/envelope-schema.js";

const threshold = fc.constantFrom(0, 0.25, 0.5, 0.75, 0.8, 1);
const condition: fc.Arbitrary<CheckedCondition> = fc.oneof(
  fc.uniqueArray(fc.constantFrom(...ENVELOPE_STATUSES), { minLength: 1, maxLength: 3 }).map((values) => ({ subject: "status" as const, values })),
  fc.uniqueArray(fc.constantFrom("draft", "review", "ship"), { minLength: 1, maxLength: 2 }).map((values) => ({ subject: "allowed_next_step" as const, values })),
  fc.tuple(fc.constantFrom("<" as const, "<=" as const, ">" as const, ">=" as const), threshold).map(([operator, value]) => ({ subject: "confidence" as const, operator, value })),
);
const guard: fc.Arbitrary<CheckedGuard> = fc.oneof(
  { weight: 5, arbitrary: fc.array(condition, { minLength: 1, maxLength: 3 }).map((conditions) => ({ otherwise: false, conditions })) },
  { weight: 1, arbitrary: fc.constant({ otherwise: true, conditions: [] }) },
);

interface Concrete {
  status: string;
  step: string;
  confidence: number;
}

/** Every concrete state a brute force tries: a grid of 1/100 plus the thresholds' neighbours cover each piece. */
const CONFIDENCES = [...new Set([...Array.from({ length: 101 }, (_, i) => i / 100), 0.8, 0.75, 0.25])];
const CONCRETE: Concrete[] = ENVELOPE_STATUSES.flatMap((status) =>
  ["draft", "review", "ship", "something-else"].flatMap((step) => CONFIDENCES.map((confidence) => ({ status, step, confidence }))),
);

function holds(c: CheckedCondition, s: Concrete): boolean {
  if (c.subject !== "confidence") return c.values.includes(c.subject === "status" ? s.status : s.step);
  switch (c.operator) {
    case "<":
      return s.confidence < c.value;
    case "<=":
      return s.confidence <= c.value;
    case ">":
      return s.confidence > c.value;
    case ">=":
      return s.confidence >= c.value;
  }
}

describe("guard coverage against brute force", () => {
  it("finds the same gaps, unreachable guards and overlaps", () => {
    fc.assert(
      fc.property(fc.array(guard, { minLength: 1, maxLength: 5 }), (guards) => {
        const found = findRouterProblems(guards);
        const matching = CONCRETE.map((s) => guards.flatMap((g, i) => (!g.otherwise && g.conditions.every((c) => holds(c, s)) ? [i] : [])));
        const otherwise = guards.findIndex((g) => g.otherwise);
        const uncovered = matching.filter((m) => m.length === 0).length;
        expect(found.gaps.length > 0).toBe(otherwise < 0 && uncovered > 0);
        // Each gap's witness is a concrete state no guard matches.
        const { domain } = coverRouter(guards);
        for (const gap of found.gaps) {
          const concrete: Concrete = {
            status: gap.status ?? "ready",
            step: gap.allowed_next_step === undefined || gap.allowed_next_step === OTHER_STEP ? "something-else" : gap.allowed_next_step,
            confidence: gap.confidence === undefined ? 0.5 : (domain.pieces[gap.confidence] as Piece).witness,
          };
          expect(guards.some((g) => !g.otherwise && g.conditions.every((c) => holds(c, concrete)))).toBe(false);
        }
        guards.forEach((g, i) => {
          let reachable: boolean;
          if (g.otherwise) reachable = i === otherwise && uncovered > 0;
          else reachable = matching.some((m) => m[0] === i);
          expect(found.unreachable[i] === undefined, `guard ${i}`).toBe(reachable);
        });
        const overlapping = new Set<string>();
        for (const m of matching) {
          for (let a = 0; a < m.length; a++) {
            for (let b = a + 1; b < m.length; b++) {
              const [x, y] = [m[a] as number, m[b] as number];
              if (found.unreachable[x] === undefined && found.unreachable[y] === undefined) overlapping.add(`${x} ${y}`);
            }
          }
        }
        expect(new Set(found.overlaps.map((o) => `${o.first} ${o.second}`))).toEqual(overlapping);
      }),
      { numRuns: Number(process.env["SEAM_FUZZ_RUNS"] ?? 300) },
    );
  });
});
