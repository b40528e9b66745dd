/**
 * Seam diagnostics as LSP diagnostics: the same rule id (`code`), severity, message and related
 * information as `seam check`, with the rule's page as `codeDescription`.
 */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { Diagnostic, Severity } from "../core/diagnostic.js";
import { ruleDocumentationUrl, type Analysis } from "./front-end.js";
import { toLspRange } from "./positions.js";

const SEVERITIES: Readonly<Record<Severity, DiagnosticSeverity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** One Seam diagnostic of the document at `uri` in LSP form (related locations are in the same document). */
export function toLspDiagnostic(analysis: Analysis, uri: string, diagnostic: Diagnostic): LspDiagnostic {
  return {
    range: toLspRange(analysis.file, diagnostic.range),
    severity: SEVERITIES[diagnostic.severity],
    code: diagnostic.rule,
    codeDescription: { href: ruleDocumentationUrl(diagnostic.rule) },
    source: "seam",
    message: diagnostic.message,
    ...(diagnostic.related === undefined
      ? {}
      : {
          relatedInformation: diagnostic.related.map((r) => ({
            location: { uri, range: toLspRange(analysis.file, r.range) },
            message: r.message,
          })),
        }),
  };
}
