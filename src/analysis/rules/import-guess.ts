import { GUESS_SUBJECTS, readGuessMarker } from "../../core/guess-marker.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";
import { defineRule } from "../rule.js";

/** The longest reason a message quotes, in code points. */
const REASON_SHOWN = 200;

/**
 * `import-guess` (info): a `// seam-guess SUBJECT -- REASON` comment (`core/guess-marker.ts`)
 * that `seam import` wrote above something it had to guess. It is reported until a person checks
 * the line below and deletes the comment, so nothing guessed passes unseen.
 */
export const importGuessRule = defineRule({
  meta: {
    id: "import-guess",
    severity: "info",
    description: "seam import guessed the line below this comment; check it, then delete the comment.",
  },
  check({ model, report }) {
    for (const comment of model.comments) {
      const marker = readGuessMarker(comment);
      if (marker === undefined) continue;
      const known = (GUESS_SUBJECTS as readonly string[]).includes(marker.subject);
      const what = known ? `the ${marker.subject} on the next line` : "the next line";
      const why = marker.reason === "" ? "" : ` (${escapeUntrusted(marker.reason, REASON_SHOWN)})`;
      report({
        range: comment.range,
        message: `seam import guessed ${what}${why}: check it against the source, correct it if needed, then delete this comment.`,
      });
    }
  },
});
