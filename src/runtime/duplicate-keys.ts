/**
 * Finds keys that appear more than once in one JSON object. `JSON.parse` keeps the last value
 * silently (ECMA-404 and RFC 8259 leave duplicates undefined), while other parsers keep the
 * first or refuse: an envelope with `"to_agent"` twice can read one way to a gateway and another
 * to the agent behind it, a classic way to smuggle a field past a check. `seam validate` refuses
 * such envelopes instead of guessing, as the importers refuse such files and `seam report` such
 * event lines. A reviver cannot help: it sees only the value that won.
 */
import { escapeUntrusted, quoteUntrusted } from "../core/untrusted-text.js";
import { appendPointer } from "./json-pointer.js";

/** A key given again in the same object. */
export interface DuplicateKey {
  /** JSON Pointer (RFC 6901) of the member, e.g. `/hop/index`. */
  readonly pointer: string;
  /** The key, decoded (`"\u0061"` and `"a"` are the same key). */
  readonly key: string;
  /** Offset in the text of the repeated key's opening quote (UTF-16 code units), for a line and column. */
  readonly offset: number;
}

/**
 * What is wrong with a file or log line that repeats a key, in words for an error placed at the
 * repeated key (`file:line:column`): the key and its pointer, escaped and bounded.
 *
 * @param repeated - one of {@link findDuplicateKeys}' answers
 */
export function duplicateKeyProblem(repeated: DuplicateKey): string {
  return `has the key ${quoteUntrusted(repeated.key)} twice in one object (at ${escapeUntrusted(repeated.pointer, 200)}): JSON readers disagree on which value counts`;
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
        if (top.keys.has(key)) found.push({ pointer: appendPointer(top.pointer, key), key, offset: i });
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

/**
 * Whether `text` holds a key twice in one object, given `value = JSON.parse(text)`: JSON.parse
 * keeps one own property per distinct key of an object, so the keys written in the text outnumber
 * the properties of the parsed objects exactly when some key is repeated. Counting both is a
 * fraction of the cost of {@link findDuplicateKeys} (no key text kept, no pointer built), which
 * then runs only on the texts that have repeats, to name them.
 *
 * @param text - JSON text that `JSON.parse` has accepted
 * @param value - what `JSON.parse(text)` returned
 */
export function hasDuplicateKeys(text: string, value: unknown): boolean {
  return repeatsKeys(text, parsedShape(value).keys);
}

/**
 * Whether `text` writes more object keys than `parsedKeys`, the own properties of the objects
 * `JSON.parse(text)` returned ({@link parsedShape}): that is, whether it holds a key twice in one
 * object (see {@link hasDuplicateKeys}).
 *
 * @param text - JSON text that `JSON.parse` has accepted
 * @param parsedKeys - `parsedShape(JSON.parse(text)).keys`
 */
export function repeatsKeys(text: string, parsedKeys: number): boolean {
  // Replay and ingest of JSON Lines logs: most texts answer "no" from the cheap count alone.
  if (countColonsAfterQuotes(text) === parsedKeys) return false;
  return countWrittenKeys(text) !== parsedKeys;
}

/**
 * Colons whose last non-whitespace character before them is a `"`: at least the object keys
 * written in `text`, repeats included, since every member's `:` follows its key's closing quote
 * and JSON whitespace only. Colons inside strings can add to the count (`"x": ":"`), never take
 * from it; so when it equals the parsed objects' own properties, which never outnumber the keys
 * written, no key is repeated. One indexOf per colon, not two per string as
 * {@link countWrittenKeys} needs: a fraction of its cost on envelopes, whose strings outnumber
 * their colons.
 */
function countColonsAfterQuotes(text: string): number {
  let count = 0;
  for (let colon = text.indexOf(":"); colon !== -1; colon = text.indexOf(":", colon + 1)) {
    let before = colon - 1;
    let code = text.charCodeAt(before);
    // JSON's whitespace: space, tab, line feed, carriage return.
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(--before);
    if (code === 0x22 /* " */) count++;
  }
  return count;
}

/** Strings followed by a `:` in JSON text: its object keys, repeats included. */
function countWrittenKeys(text: string): number {
  let count = 0;
  let quote = text.indexOf('"');
  while (quote !== -1) {
    const end = stringEnd(text, quote);
    let next = end + 1;
    let code = text.charCodeAt(next);
    // JSON's whitespace: space, tab, line feed, carriage return.
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(++next);
    if (code === 0x3a /* : */) count++;
    quote = text.indexOf('"', next);
  }
  return count;
}

/** What {@link parsedShape} measures of a parsed JSON value. */
export interface ParsedShape {
  /** Own properties of all its objects: the keys of its text, when no key is repeated. */
  readonly keys: number;
  /** Its deepest nesting of arrays and objects: 0 for a string, number, boolean or null, 1 for `[]` or `{"a": 1}`. */
  readonly depth: number;
}

/**
 * The own properties of every object in a parsed JSON value and its deepest nesting, in one walk
 * by an explicit stack (no recursion: `JSON.parse` reads any depth). Measuring the depth here, in
 * the walk that counts keys anyway, keeps `parseEnvelope`'s nesting limit off its hot path.
 * A for-in loop reads each object's keys from V8's enumeration cache, with no array per object
 * (Object.values makes one: the walk took 70% longer so). It also yields inherited enumerable
 * keys, which the objects of `JSON.parse` (prototype Object.prototype) have only when some code
 * gave Object.prototype one; only then is each key asked whether it is the object's own.
 *
 * @param value - what `JSON.parse` returned (a value with a cycle would not end)
 */
export function parsedShape(value: unknown): ParsedShape {
  const inherited = prototypeEnumerates();
  let keys = 0;
  let depth = 0;
  // Each object on the stack beside its depth: two arrays, no record per object.
  const stack: object[] = [];
  const depths: number[] = [];
  if (typeof value === "object" && value !== null) {
    stack.push(value);
    depths.push(1);
  }
  while (stack.length > 0) {
    const item = stack.pop() as Record<string, unknown>;
    const level = depths.pop() as number;
    if (level > depth) depth = level;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const member: unknown = item[i];
        if (typeof member === "object" && member !== null) {
          stack.push(member);
          depths.push(level + 1);
        }
      }
      continue;
    }
    for (const key in item) {
      if (inherited && !Object.hasOwn(item, key)) continue;
      keys++;
      const member = item[key];
      if (typeof member === "object" && member !== null) {
        stack.push(member);
        depths.push(level + 1);
      }
    }
  }
  return { keys, depth };
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

/** Whether a for-in over a `JSON.parse` object yields keys it does not own: some code gave Object.prototype an enumerable property. */
function prototypeEnumerates(): boolean {
  for (const _key in Object.prototype) return true;
  return false;
}
