import { describe, expect, it } from "vitest";
import { identifier, js, quoteString, stringifyValue } from "../../src/emit/code.js";

describe("generated code helpers", () => {
  const hostile = "a\"b\\c`d${e}*/</script>\u2028\u2029\n'";

  it("quotes strings so that they evaluate back to themselves", () => {
    const literal = quoteString(hostile);
    expect(literal).not.toMatch(/[\u2028\u2029\n<>]/);
    expect(new Function(`return ${literal};`)()).toBe(hostile);
  });

  it("writes data that evaluates back to equal data, __proto__ keys as own properties", () => {
    const data = { __proto__key: 1, list: [{ id: "__proto__", text: hostile }, 2, true, null], "a-b": -0 };
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const back = new Function(`return ${stringifyValue(data)};`)() as unknown;
    expect(back).toEqual({ ...data, "a-b": 0 });
    const proto = new Function(`return ${stringifyValue(withProto)};`)() as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.hasOwn(proto, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses values with no literal form", () => {
    expect(() => stringifyValue(Number.NaN)).toThrow(/internal/);
    expect(() => stringifyValue(new Date(0))).toThrow(/internal/);
    expect(() => stringifyValue(() => 1)).toThrow(/internal/);
  });

  it("splices Code as is and quotes everything else, even objects that look like code", () => {
    const name = identifier("value");
    const code = js`const ${name} = ${hostile}; const x = ${{ code: "alert(1)" }};`;
    expect(code.code).toBe(`const value = ${quoteString(hostile)}; const x = { code: "alert(1)" };`);
    expect(() => identifier("a-b")).toThrow(/internal/);
  });
});
