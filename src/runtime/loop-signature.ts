/**
 * Loop signatures: a SHA-256 (FIPS 180-4) over the RFC 8785 canonical JSON of the fields a graph's `loop_signature` names,
 * so that A -> B -> A with nothing new decided gives the same signature twice.
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { EACH_ITEM, parseFieldPath } from "./field-path.js";

/** Computes the loop signature of an envelope: `"sha256:<64 lowercase hex digits>"`. */
export type LoopSignature = (envelope: unknown) => string;

interface CompiledPath {
  /** The key under which the path's value is hashed: the path as written, JSON-quoted. */
  readonly key: string;
  readonly segments: readonly string[];
  /** The path steps through an array: its values form a set. */
  readonly isSet: boolean;
}

function collect(value: unknown, segments: readonly string[], at: number, out: unknown[]): void {
  if (value === undefined) return;
  if (at === segments.length) {
    out.push(value);
    return;
  }
  const segment = segments[at] as string;
  if (segment === EACH_ITEM) {
    if (Array.isArray(value)) for (const item of value) collect(item, segments, at + 1, out);
  } else if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, segment)) {
    collect((value as Record<string, unknown>)[segment], segments, at + 1, out);
  }
}

function encode(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("loop signature: a value has no JSON form");
  return text;
}

/**
 * Builds the loop signature function for a list of field paths.
 *
 * The hashed text is the RFC 8785 canonical JSON of one object whose keys are the paths as
 * written and whose values are what the paths find: the value itself for a path without `[]`
 * (absent: the key is left out); for a path through an array (`decisions[].statement`), the SET
 * of the values found (canonical forms sorted by UTF-16 code units, duplicates dropped), so the
 * order of decisions does not change the hash.
 *
 * The signature function accepts any input (a missing field is just absent) but throws a
 * `TypeError` or `Error` for values RFC 8785 cannot encode: cycles, lone surrogates, and values
 * with no JSON form. Envelopes parsed from JSON text hold no cycles; call it on accepted envelopes.
 *
 * @param paths - field paths such as `goal.statement`, `decisions[].statement`
 * @throws Error when a path is not a field path (a bug: the checker validates them)
 */
export function createLoopSignature(paths: readonly string[]): LoopSignature {
  const compiled: CompiledPath[] = [...new Set(paths)].sort().map((text) => {
    const segments = parseFieldPath(text);
    if (segments === undefined) throw new Error(`internal: ${JSON.stringify(text)} is not a field path`);
    return { key: JSON.stringify(text), segments, isSet: segments.includes(EACH_ITEM) };
  });
  return function loopSignature(envelope: unknown): string {
    let text = "{";
    const found: unknown[] = [];
    for (const path of compiled) {
      found.length = 0;
      collect(envelope, path.segments, 0, found);
      let value: string;
      if (path.isSet) {
        const forms = found.map(encode).sort();
        value = "[";
        for (let i = 0; i < forms.length; i++) {
          if (i > 0 && forms[i] === forms[i - 1]) continue;
          value += value.length > 1 ? `,${forms[i]}` : forms[i];
        }
        value += "]";
      } else if (found.length > 0) {
        value = encode(found[0]);
      } else {
        continue;
      }
      text += text.length > 1 ? `,${path.key}:${value}` : `${path.key}:${value}`;
    }
    text += "}";
    return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
  };
}
