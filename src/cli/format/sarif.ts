/**
 * `seam check --format sarif`: a SARIF 2.1.0 log (OASIS standard) as GitHub code scanning
 * accepts it (`github/codeql-action/upload-sarif`): one run, the full rule catalogue in
 * `tool.driver.rules`, one result per diagnostic with a physical location relative to
 * `%SRCROOT%` (an absolute `file:` URI for a file outside the working folder), and a `partialFingerprints` entry that lets code scanning follow an alert across
 * commits.
 *
 * Fingerprint (`seam/v1`): SHA-256 over the rule id, the file path, the flagged source text
 * (whitespace runs collapsed, so re-indenting does not matter) and the message, as hex, then
 * `:n` where n counts earlier results in the same file with the same hash (so two identical
 * findings stay distinct). No line or column goes in, so inserting or deleting unrelated lines
 * above a finding leaves its fingerprint unchanged; editing the flagged text or the message
 * (for example renaming an agent it names) makes it a new alert, which is what it is.
 */
import { createHash } from "node:crypto";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, RuleMeta, Severity } from "../../core/diagnostic.js";
import { getShownLineAndColumn, type Range, type SourceFile } from "../../core/source-file.js";
import { ruleDocsUrl } from "../../core/package-files.js";
import { stringifyUntrusted } from "../../core/untrusted-text.js";
import { displayPath } from "./display-path.js";

/** Options of {@link formatSarif}. */
export interface SarifOptions {
  /** Folder that artifact URIs are relative to (recorded as `%SRCROOT%`). */
  readonly cwd: string;
  /** Every rule Seam has (`ruleCatalog`), listed in `tool.driver.rules` in this order. */
  readonly rules: readonly RuleMeta[];
  /** Seam's version (from package.json). */
  readonly version: string;
  /** The command whose findings these are, named in each rule's help (default `seam check`). */
  readonly command?: string;
  /** The page that documents a rule, as an absolute URI (default: `docs/rules/<id>.md`). */
  readonly helpUri?: (id: string) => string;
}

/** The JSON Schema SARIF files name in `$schema` (the OASIS 2.1.0 errata 01 schema). */
export const SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";


/** The `partialFingerprints` key Seam fills; bump the suffix if the recipe ever changes. */
export const FINGERPRINT_KEY = "seam/v1";

const LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

/** Builds the SARIF log as a plain object (order of results = order of `diagnostics`). */
export function toSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): Record<string, unknown> {
  const ruleIndex = new Map(options.rules.map((rule, index) => [rule.id, index]));
  const occurrences = new Map<string, number>();
  const results = diagnostics.map((d) => {
    const uri = artifactUri(d.file, options.cwd);
    const hash = fingerprintHash(d, uri);
    const key = `${uri}\0${hash}`;
    const seen = occurrences.get(key) ?? 0;
    occurrences.set(key, seen + 1);
    const index = ruleIndex.get(d.rule);
    return {
      ruleId: d.rule,
      ...(index === undefined ? {} : { ruleIndex: index }),
      level: LEVEL[d.severity],
      message: { text: d.message },
      locations: [{ physicalLocation: physicalLocation(d.file, d.range, options.cwd) }],
      ...(d.related && d.related.length > 0
        ? {
            relatedLocations: d.related.map((r, id) => ({
              id,
              physicalLocation: physicalLocation(r.file, r.range, options.cwd),
              message: { text: r.message },
            })),
          }
        : {}),
      partialFingerprints: { [FINGERPRINT_KEY]: `${hash}:${seen + 1}` },
    };
  });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "seam",
            version: options.version,
            semanticVersion: options.version,
            rules: options.rules.map((rule) => ({
              id: rule.id,
              name: ruleName(rule.id),
              shortDescription: { text: rule.description },
              fullDescription: { text: `${rule.description} Reported as ${article(rule.severity)} ${rule.severity} by default.` },
              helpUri: (options.helpUri ?? ruleDocsUrl)(rule.id),
              help: {
                text: `${rule.description}\nRule \`${rule.id}\` of \`${options.command ?? "seam check"}\`; default severity: ${rule.severity}.`,
              },
              defaultConfiguration: { level: LEVEL[rule.severity] },
            })),
          },
        },
        originalUriBaseIds: { "%SRCROOT%": { uri: folderUri(options.cwd) } },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
}

/**
 * The `--format sarif` text: the log pretty-printed (two-space indent) with a final newline,
 * bidirectional and invisible characters in names and messages written as `\uXXXX` (as `--format
 * json` writes them).
 */
export function formatSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): string {
  return stringifyUntrusted(toSarif(diagnostics, options), 2) + "\n";
}

function physicalLocation(file: SourceFile, range: Range, cwd: string): Record<string, unknown> {
  const start = getShownLineAndColumn(file, range.start);
  const end = getShownLineAndColumn(file, range.end);
  return {
    artifactLocation: artifactLocation(file, cwd),
    region: { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column },
  };
}

/**
 * Inside the working folder: a URI reference relative to `%SRCROOT%` (the display path, each
 * segment percent-encoded). Outside it: the absolute `file:` URI and no `uriBaseId` (SARIF 2.1.0
 * section 3.4.3 allows an absolute URI there), since `../` would climb out of `%SRCROOT%`, which
 * code scanning cannot place.
 */
function artifactLocation(file: SourceFile, cwd: string): { uri: string; uriBaseId?: string } {
  const absolute = resolve(cwd, file.path);
  const rel = relative(cwd, absolute);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { uri: pathToFileURL(absolute).href };
  return { uri: displayPath(file.path, cwd).split("/").map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" };
}

function artifactUri(file: SourceFile, cwd: string): string {
  return artifactLocation(file, cwd).uri;
}

function fingerprintHash(d: Diagnostic, uri: string): string {
  const flagged = d.file.text.slice(d.range.start, d.range.end).replace(/\s+/g, " ").trim();
  return createHash("sha256").update([d.rule, uri, flagged, d.message].join("\0")).digest("hex").slice(0, 32);
}

function folderUri(cwd: string): string {
  const href = pathToFileURL(cwd).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** `no-terminal-path` -> `NoTerminalPath` (SARIF's `name` is an identifier-like label). */
function ruleName(id: string): string {
  return id
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

function article(severity: Severity): string {
  return severity === "error" || severity === "info" ? "an" : "a";
}
