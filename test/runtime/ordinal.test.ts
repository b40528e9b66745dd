import { describe, expect, it } from "vitest";
import { ordinal } from "../../src/runtime/ordinal.js";

describe("ordinal", () => {
  const cases: [number, string][] = [
    [0, "0th"],
    [1, "1st"],
    [2, "2nd"],
    [3, "3rd"],
    [4, "4th"],
    [10, "10th"],
    [11, "11th"],
    [12, "12th"],
    [13, "13th"],
    [14, "14th"],
    [21, "21st"],
    [22, "22nd"],
    [23, "23rd"],
    [101, "101st"],
    [102, "102nd"],
    [103, "103rd"],
    [111, "111th"],
    [112, "112th"],
    [113, "113th"],
    [1001, "1001st"],
  ];
  it.each(cases)("%i -> %s", (n, expected) => {
    expect(ordinal(n)).toBe(expected);
  });
});
