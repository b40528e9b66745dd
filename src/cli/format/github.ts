/**
 * `seam check --format github`: GitHub Actions workflow commands, which the runner turns into
 * annotations on the pull request (`::error file=...,line=...::message`).
 *
 * Escaping follows the runner's rules (actions/toolkit `command.ts`): in the message, `%`, CR
 * and LF become `%25`, `%0D`, `%0A`; property values also escape `:` and `,` (`%3A`, `%2C`).
 * Before that, file names and messages are made printable (`core/untrusted-text.ts`: ESC, BEL,
 * line breaks and bidirectional controls become escapes), since the runner writes both into
 * the log it shows.
 */
import type { Diagnostic, Severity } from "../../core/diagnostic.js";
import { getLineAndColumn } from "../../core/source-file.js";
import { printablePath } from "./display-path.js";
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
 * One workflow command line per diagnostic (order kept); the title is the rule id. Columns are
 * 1-based, `endColumn` exclusive as in the JSON format.
 */
export function formatGithub(diagnostics: readonly Diagnostic[], cwd: string): string {
  return diagnostics
    .map((d) => {
      const start = getLineAndColumn(d.file, d.range.start);
      const end = getLineAndColumn(d.file, d.range.end);
      const properties = [
        `file=${escapeProperty(printablePath(d.file.path, cwd))}`,
        `line=${start.line}`,
        `endLine=${end.line}`,
        `col=${start.column}`,
        `endColumn=${end.column}`,
        `title=${escapeProperty(`seam ${d.rule}`)}`,
      ];
      return `::${COMMAND[d.severity]} ${properties.join(",")}::${escapeData(escapeUntrusted(d.message))}\n`;
    })
    .join("");
}
