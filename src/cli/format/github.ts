/**
 * `seam check --format github`: GitHub Actions workflow commands, which the runner turns into
 * annotations on the pull request (`::error file=...,line=...::message`).
 *
 * Escaping follows the runner's rules (actions/toolkit `command.ts`): in the message, `%`, CR
 * and LF become `%25`, `%0D`, `%0A`; property values also escape `:` and `,` (`%3A`, `%2C`).
 * The runner undoes exactly that, so a file name or message holding a line break, a colon, a
 * comma or a percent sign reaches the annotation as it is (and `file=` still names the file).
 * Every other character that could act instead of print (ESC, BEL, bidirectional controls: see
 * `core/untrusted-text.ts`) is written as an escape first, since the runner writes both into the
 * log it shows.
 */
import type { Diagnostic, Severity } from "../../core/diagnostic.js";
import { getShownLineAndColumn } from "../../core/source-file.js";
import { displayPath } from "./display-path.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";

const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", info: "notice" };

/** Escapes the data part of a workflow command (after `::`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a property value of a workflow command (`file=`, `title=`...). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * `text` made printable by `escapeUntrusted`, but for CR and LF, which the workflow command's own
 * escaping carries ({@link escapeData}, {@link escapeProperty}) and the runner turns back into
 * line breaks: written as `\n` here, they would reach the annotation as a backslash and an `n`.
 */
function printable(text: string): string {
  return text
    .split(/([\r\n])/)
    .map((part, i) => (i % 2 === 1 ? part : escapeUntrusted(part)))
    .join("");
}

/**
 * One workflow command line per diagnostic (order kept); the title is the rule id. Columns are
 * 1-based, `endColumn` exclusive as in the JSON format.
 */
export function formatGithub(diagnostics: readonly Diagnostic[], cwd: string): string {
  return diagnostics
    .map((d) => {
      const start = getShownLineAndColumn(d.file, d.range.start);
      const end = getShownLineAndColumn(d.file, d.range.end);
      const properties = [
        `file=${escapeProperty(printable(displayPath(d.file.path, cwd)))}`,
        `line=${start.line}`,
        `endLine=${end.line}`,
        `col=${start.column}`,
        `endColumn=${end.column}`,
        `title=${escapeProperty(`seam ${d.rule}`)}`,
      ];
      return `::${COMMAND[d.severity]} ${properties.join(",")}::${escapeData(printable(d.message))}\n`;
    })
    .join("");
}
