import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "../../src/core/json-syntax.js";

describe("findJsonSyntaxError", () => {
  it.each([
    ['{"a": }', 6, "expected a value, found '}'"],
    ['{"a":1,}', 7, "expected a key in double quotes, found '}'"],
    ['{"a" 1}', 5, "expected ':' after the key, found '1'"],
    ["[1,2", 4, "expected ',' or ']', found the end of the text"],
    ['{"a":tru}', 5, "expected a value, found 't'"],
    ["", 0, "expected a value, found the end of the text"],
    ['{"b": 1} x', 9, "expected the end of the text after the JSON value, found 'x'"],
    ["{,}", 1, "expected a key in double quotes or '}', found ','"],
    ["[,]", 1, "expected a value or ']', found ','"],
    ['{"a":1 "b":2}', 7, "expected ',' or '}', found '\"'"],
    ['{"a":01}', 5, "a number must not start with 0 unless it is 0 (write 7, not 07)"],
    ["-", 1, "a digit must follow '-'"],
    ["1.", 2, "a digit must follow the decimal point"],
    ["1e+", 3, "a digit must follow the exponent's e"],
    ['"abc', 0, "the string is not closed: a '\"' is missing"],
    ['"a\nb"', 2, "a control character in a string must be escaped (\\n, \\t, \\u0000)"],
    ['"\\x"', 1, 'a backslash in a string must start an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits'],
    ['"\\u12g4"', 1, "\\u in a string must be followed by four hex digits"],
    ["[1]\u001b[2J", 3, "expected the end of the text after the JSON value, found '\\u001b'"],
    ["[\u{1F600}]", 1, "expected a value or ']', found '\u{1F600}'"],
  ])("%j: offset %d, %s", (text, offset, problem) => {
    expect(findJsonSyntaxError(text)).toEqual({ offset, problem });
  });

  it("finds nothing in valid JSON, however deep", () => {
    for (const text of ['{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"],"b":{}}', " [ ] ", "0", '"\\ud800"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`]) {
      expect(findJsonSyntaxError(text)).toBeUndefined();
    }
    expect(findJsonSyntaxError(`${"[".repeat(100_000)}}`)).toEqual({ offset: 100_000, problem: "expected a value or ']', found '}'" });
  });

  it("agrees with JSON.parse on which texts are JSON, and points inside the text", () => {
    const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "\\", "0", "-", ".", "e", "t", " ", "\n", "\u0001")).map(([json, at, piece]) => {
      const cut = json.length === 0 ? 0 : at % (json.length + 1);
      return json.slice(0, cut) + piece + json.slice(cut + (at % 2));
    });
    fc.assert(
      fc.property(mutated, (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const error = findJsonSyntaxError(text);
        expect(error === undefined).toBe(parses);
        if (error !== undefined) expect(error.offset >= 0 && error.offset <= text.length).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
