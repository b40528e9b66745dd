/**
 * The marker `seam import` writes above each thing it had to guess, and `seam check` reports
 * (rule `import-guess`, info) until a person confirms the guess by deleting the comment:
 *
 *     // seam-guess role -- LangGraph does not say who supervises: supervisor routes to 3 agents
 *     agent supervisor: supervisor
 *
 * A marker is a `//` or block comment whose text starts with `seam-guess`, then what was guessed
 * (one of {@link GUESS_SUBJECTS}), then `--` and why. Stated once here: the importer writes it
 * with {@link guessComment} and the rule reads it with {@link readGuessMarker}.
 */

/** The word that starts a marker. */
export const GUESS_WORD = "seam-guess";

/**
 * What an importer may guess: an agent's `role`, an edge's `kind`, the `require` fields of an
 * edge, a `terminal`'s outcome, the `entry` agents, a `guard` (a conditional route), a cycle's
 * `max_rounds`, a `fan-out` (guessed, or written as plain edges where the roles do not allow
 * one), a `join` (what it waits for).
 */
export const GUESS_SUBJECTS = ["role", "kind", "require", "terminal", "entry", "guard", "max_rounds", "fan-out", "join"] as const;

/** One thing an importer guessed. */
export type GuessSubject = (typeof GUESS_SUBJECTS)[number];

/** A marker read from a comment's text. */
export interface GuessMarker {
  /** The first word after `seam-guess`; one of {@link GUESS_SUBJECTS} when well formed. */
  readonly subject: string;
  /** The text after `--`, trimmed; empty when there is none. */
  readonly reason: string;
}

const MARKER = /^\s*seam-guess(?=\s|$)\s*([^\s]*)\s*(?:--\s*([\s\S]*?))?\s*$/;

/**
 * Reads a marker from a comment's full text (`// ...` or a block comment, delimiters included).
 *
 * @returns the marker, or undefined when the comment is not one
 */
export function readGuessMarker(comment: { readonly style: "line" | "block"; readonly text: string }): GuessMarker | undefined {
  const body = comment.style === "line" ? comment.text.slice(2) : comment.text.slice(2, -2);
  const match = MARKER.exec(body);
  if (match === null) return undefined;
  return { subject: match[1] ?? "", reason: (match[2] ?? "").replace(/\s+/g, " ") };
}

/**
 * The `//` comment line of a marker, without indentation. Line breaks in `reason` become spaces
 * so the marker stays one comment.
 */
export function guessComment(subject: GuessSubject, reason: string): string {
  return `// ${GUESS_WORD} ${subject} -- ${reason.replace(/[\r\n\u2028\u2029]+/g, " ").trim()}`;
}
