/**
 * `--fail-on missing-version-bump`: a breaking change to an agent's contract is announced by a
 * new major of that agent; a compatible change needs a newer minor.
 */
import { describe, expect, it } from "vitest";
import { BASE, diffRows, edit } from "./helpers.js";

const TIGHTER = edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 1 }"]);
const FIELD = edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 require goal.out_of_scope }"]);

describe("version policy", () => {
  it("a breaking change without a new major gives major-bump-missing", () => {
    expect(diffRows(BASE, TIGHTER, true)).toEqual([
      [
        "major-bump-missing",
        "error",
        '"1.0.0"',
        'agent analyst\'s contract breaks (max-rounds-lowered) but its major did not move (version "1.0.0"): bump the major and keep the old analyst running until no task claims it',
      ],
      [
        "max-rounds-lowered",
        "error",
        "1",
        "max_rounds of boss -> analyst fell from 2 to 1: every agent counts rounds in hop.path, so a task in flight that already took boss -> analyst once is refused the next time it does",
      ],
    ]);
  });

  it("a new major announces the break: the findings become warnings", () => {
    const bumped = edit(TIGHTER, ['version "1.0.0"', 'version "2.0.0"']);
    expect(diffRows(BASE, bumped, true)).toEqual([
      [
        "agent-major-changed",
        "warning",
        '"2.0.0"',
        'agent analyst moved from version "1.0.0" to "2.0.0", another major: envelopes that claim the old version are refused by the new analyst, and the reverse; keep the old analyst running until no task in flight claims it (the announced break)',
      ],
      [
        "max-rounds-lowered",
        "warning",
        "1",
        "max_rounds of boss -> analyst fell from 2 to 1: every agent counts rounds in hop.path, so a task in flight that already took boss -> analyst once is refused the next time it does (announced by analyst's new major)",
      ],
    ]);
  });

  it("a minor bump does not announce a break", () => {
    const minor = edit(TIGHTER, ['version "1.0.0"', 'version "1.1.0"']);
    expect(diffRows(BASE, minor, true).map((r) => [r[0], r[1]])).toEqual([
      ["agent-minor-raised", "warning"],
      ["major-bump-missing", "error"],
      ["max-rounds-lowered", "error"],
    ]);
  });

  it("a compatible change without a newer minor gives minor-bump-missing, a warning", () => {
    expect(diffRows(BASE, FIELD, true)).toEqual([
      [
        "minor-bump-missing",
        "warning",
        '"1.0.0"',
        'agent analyst\'s contract changed (required-field-added) but its version did not get a newer minor (version "1.0.0")',
      ],
      [
        "required-field-added",
        "warning",
        "goal.out_of_scope",
        "analyst now requires goal.out_of_scope on delegate boss -> analyst: deploy boss first so it sends the field; until it is redeployed, analyst refuses its handoffs that lack it",
      ],
    ]);
  });

  it("stays quiet when the minor moved with a compatible change", () => {
    const minor = edit(FIELD, ['version "1.0.0"', 'version "1.1.0"']);
    expect(diffRows(BASE, minor, true).map((r) => r[0])).toEqual(["agent-minor-raised", "required-field-added"]);
  });

  it("for 0.x, the minor is the major (the caret rule)", () => {
    const zero = edit(BASE, ['version "1.0.0"', 'version "0.4.2"']);
    const patch = edit(zero, ["max_rounds 2 }", "max_rounds 1 }"], ['"0.4.2"', '"0.4.3"']);
    const minor = edit(zero, ["max_rounds 2 }", "max_rounds 1 }"], ['"0.4.2"', '"0.5.0"']);
    expect(diffRows(zero, patch, true).map((r) => [r[0], r[1]])).toEqual([
      ["agent-minor-raised", "warning"],
      ["major-bump-missing", "error"],
      ["max-rounds-lowered", "error"],
    ]);
    expect(diffRows(zero, minor, true).map((r) => [r[0], r[1]])).toEqual([
      ["agent-major-changed", "warning"],
      ["max-rounds-lowered", "warning"],
    ]);
  });

  it("an agent without a version cannot announce a break", () => {
    const helper = edit(BASE, ["delegate boss -> helper { max_rounds 1 }", "delegate boss -> helper { max_rounds 1 require goal.out_of_scope }"], ["transfer analyst -> desk_peer observe", "transfer analyst -> desk_peer"]);
    expect(diffRows(BASE, helper, true).map((r) => [r[0], r[1], r[2]])).toEqual([
      ["minor-bump-missing", "warning", "helper"],
      ["major-bump-missing", "error", "desk_peer"],
      ["required-field-added", "warning", "goal.out_of_scope"],
      ["edge-enforced", "error", "transfer analyst -> desk_peer"],
    ]);
  });

  it("graph-wide breaks stay errors: no agent's version announces them", () => {
    const lower = edit(BASE, ["hop_limit 9", "hop_limit 8"], ['version "1.2.0"', 'version "2.0.0"']);
    expect(diffRows(BASE, lower, true).map((r) => [r[0], r[1]])).toEqual([
      ["hop-limit-lowered", "error"],
      ["agent-major-changed", "warning"],
    ]);
  });
});
