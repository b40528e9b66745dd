/**
 * Finds keys that appear more than once in one JSON object. `JSON.parse` keeps the last value
 * silently (ECMA-404 and RFC 8259 leave duplicates undefined), while other parsers keep the
 * first or refuse: an envelope with `"to_agent"` twice can read one way to a gateway and another
 * to the agent behind it, a classic way to smuggle a field past a check. `seam validate` refuses
 * such envelopes instead of guessing. A reviver cannot help: it sees only the value that won.
 */
import { appendPointer } from "./json-pointer.js";

/** A key given again in the same object. */
export interface DuplicateKey {
  /** JSON Pointer (RFC 6901) of the member, e.g. `/hop/index`. */
  readonly pointer: string;
  /** The key, decoded (`"\u0061"` and `"a"` are the same key). */
  readonly key: string;
}

type Frame =
  | { readonly kind: "object"; readonly pointer: string; readonly keys: Set<string>; key: string }
  | { readonly kind: "array"; readonly pointer: string; index: number };

/**
 * Every repeated key of `text`, in text order (each repeat once per extra occurrence). One pass,
 * no recursion, so deep nesting cannot overflow the stack.
 *
 * @param text - JSON text that `JSON.parse` has already accepted (the scan trusts its syntax)
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.kind === "object") {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) found.push({ pointer: appendPointer(top.pointer, key), key });
        else top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (code === 0x7b /* { */) {
      stack.push({ kind: "object", pointer: childPointer(stack), keys: new Set(), key: "" });
      expectKey = true;
    } else if (code === 0x5b /* [ */) {
      stack.push({ kind: "array", pointer: childPointer(stack), index: 0 });
      expectKey = false;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (code === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.kind === "object") expectKey = true;
      else if (top?.kind === "array") top.index++;
    }
  }
  return found;
}

/** The pointer of the value that starts now, inside the innermost open object or array. */
function childPointer(stack: readonly Frame[]): string {
  const top = stack[stack.length - 1];
  if (top === undefined) return "";
  return top.kind === "object" ? appendPointer(top.pointer, top.key) : `${top.pointer}/${top.index}`;
}

/** Offset of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  for (;;) {
    if (quote === -1) return text.length; // unterminated: not JSON.parse's output, end the scan
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}
