/**
 * What a name looks like, for the look-alike rules: its UTS #39 skeleton (section 4,
 * "Confusable Detection": NFD, invisible (Default_Ignorable_Code_Point) characters removed,
 * each character replaced by its prototype from confusables.txt, NFD again), and the scripts its
 * characters are written in (UTS #39 section 5.1, "Mixed-Script Detection", over UAX #24
 * Script_Extensions). Rust's `confusable_idents` and
 * `mixed_script_confusables` lints use the same definitions.
 *
 * The table is parsed on first use, and only names with a character beyond ASCII reach it
 * (see {@link hasNonAscii}): a file of ASCII names costs nothing here. What a character maps
 * to and which scripts it belongs to is looked up once per character, so the work grows with
 * the names' length, never with the number of scripts times their length.
 */
import { isInvisible } from "../../core/invisible.js";
import { CONFUSABLES, SCRIPT_NAMES } from "./confusables-data.js";

/** True when `name` holds a character beyond ASCII (the look-alike rules judge only such names). */
export function hasNonAscii(name: string): boolean {
  return /[^\u0000-\u007f]/.test(name);
}

let prototypes: Map<number, string> | undefined;

/** The confusables table as code point -> prototype, built once. */
function prototypeTable(): Map<number, string> {
  if (prototypes !== undefined) return prototypes;
  const table = new Map<number, string>();
  for (const entry of CONFUSABLES.split(";")) {
    const [source, target] = entry.split(">") as [string, string];
    table.set(Number.parseInt(source, 16), String.fromCodePoint(...target.split(" ").map((hex) => Number.parseInt(hex, 16))));
  }
  return (prototypes = table);
}

/**
 * The UTS #39 skeleton of `name`: two names with the same skeleton are confusable (`paypal` and
 * `pаypal` with a Cyrillic `а`; `rn` and `m`). The skeleton is for comparing, never for showing.
 */
export function skeleton(name: string): string {
  const table = prototypeTable();
  let mapped = "";
  for (const char of name.normalize("NFD")) {
    // UTS #39 (since 15.1) drops Default_Ignorable_Code_Point characters: `bill` with U+FE00 is `bill`.
    if (!isInvisible(char)) mapped += table.get(char.codePointAt(0) as number) ?? char;
  }
  return mapped.normalize("NFD");
}

/**
 * One `\p{Script_Extensions=...}` test per script this Node knows (a script newer than its
 * Unicode data has no character it knows either), compiled on first use. One regular
 * expression per script, rather than one over all scripts: V8 compiles and runs those one class
 * at a time, while a union of every script's class takes over ten times longer to build.
 */
let scriptTests: readonly { readonly script: string; readonly test: RegExp }[] | undefined;

function scripts(): NonNullable<typeof scriptTests> {
  if (scriptTests !== undefined) return scriptTests;
  const tests: { script: string; test: RegExp }[] = [];
  for (const script of SCRIPT_NAMES) {
    try {
      tests.push({ script, test: new RegExp(`^\\p{Script_Extensions=${script}}$`, "u") });
    } catch {
      // Unknown to this Node's Unicode data.
    }
  }
  return (scriptTests = tests);
}

/** UTS #39 section 5.1: Han also stands for the three writing systems it is part of. */
const AUGMENTED: Readonly<Record<string, readonly string[]>> = {
  Han: ["Han_with_Bopomofo", "Japanese", "Korean"],
  Hiragana: ["Japanese"],
  Katakana: ["Japanese"],
  Hangul: ["Korean"],
  Bopomofo: ["Han_with_Bopomofo"],
};

const scriptSets = new Map<string, { readonly scripts: readonly string[]; readonly augmented: ReadonlySet<string> } | undefined>();

/**
 * The Script_Extensions of one character and their augmented set, looked up once per character;
 * `undefined` for a Common or Inherited character no script claims (it goes with any script).
 */
function scriptSet(char: string): { readonly scripts: readonly string[]; readonly augmented: ReadonlySet<string> } | undefined {
  if (scriptSets.has(char)) return scriptSets.get(char);
  const found = scripts()
    .filter(({ test }) => test.test(char))
    .map(({ script }) => script);
  const augmented = new Set(found.flatMap((script) => [script, ...(AUGMENTED[script] ?? [])]));
  const set = found.length === 0 ? undefined : { scripts: found, augmented };
  scriptSets.set(char, set);
  return set;
}

/** A run of a name's characters from one script, for a message: `Cyrillic 'е'`. */
export interface ScriptPart {
  readonly script: string;
  readonly text: string;
}

/**
 * When `name` mixes scripts (its resolved script set, the intersection of its characters'
 * augmented Script_Extensions, is empty: UTS #39 section 5.1), the parts in each script, in the
 * order they first occur; else `undefined`. Digits, `_`, `-` and combining marks (Common,
 * Inherited) go with any script.
 */
export function mixedScripts(name: string): readonly ScriptPart[] | undefined {
  let resolved: Set<string> | undefined;
  for (const char of name) {
    const set = scriptSet(char)?.augmented;
    if (set === undefined) continue;
    resolved = resolved === undefined ? new Set(set) : new Set([...resolved].filter((s) => set.has(s)));
    if (resolved.size === 0) break;
  }
  if (resolved === undefined || resolved.size > 0) return undefined;
  // Each character under its one script; one that several scripts share is left out.
  const parts = new Map<string, string>();
  for (const char of name) {
    const own = scriptSet(char)?.scripts;
    if (own?.length === 1) parts.set(own[0] as string, (parts.get(own[0] as string) ?? "") + char);
  }
  return [...parts].map(([script, text]) => ({ script, text }));
}
