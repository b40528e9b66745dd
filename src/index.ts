/**
 * Seam's public API, for tools that embed the checker or the compiler (editors, build plugins,
 * services that compile graphs at start). Data flows one way, and so does this list: source
 * text, parsing, checking, then emission. The `seam-handoff/runtime` entry point is separate: it is what
 * emitted validator modules and agent services import at ingest.
 *
 * None of these functions throws on bad user input: problems come back as diagnostics.
 */
export { createSourceFile, getLineAndColumn, getLineText } from "./core/source-file.js";
export type { LineAndColumn, Range, SourceFile } from "./core/source-file.js";
export { sortDiagnostics } from "./core/diagnostic.js";
export type { Diagnostic, RelatedInformation, RuleMeta, Severity } from "./core/diagnostic.js";
export { ENVELOPE_SCHEMA_ID, ENVELOPE_STATUSES, ENVELOPE_VERSION, envelopeSchema } from "./core/envelope-schema.js";
export type { JsonSchema } from "./core/envelope-schema.js";

export { parse } from "./parser/parse.js";
export type { ParseResult } from "./parser/parse.js";
export type * from "./parser/ast.js";

export { check, checkText } from "./analysis/check.js";
export type { CheckOptions } from "./analysis/check.js";
export { ruleCatalog } from "./analysis/rules/index.js";
export type { CheckedAgent, CheckedEdge, CheckedGraph, CheckedTerminal, CheckResult, HopLimitInfo } from "./analysis/model.js";

export { emitCompileOutput } from "./emit/compile-output.js";
export type { EmittedFile } from "./emit/compile-output.js";
export { createGraphAccept } from "./emit/graph-accept.js";
export { dotPicture } from "./emit/picture-dot.js";
export { mermaidPicture } from "./emit/picture-mermaid.js";
export { svgPicture } from "./emit/picture-svg.js";
export type { SvgResult } from "./emit/picture-svg.js";

export { diffFiles } from "./diff/diff.js";
export type { FileSide } from "./diff/diff.js";
export { applyVersionPolicy } from "./diff/version-policy.js";
export { mergeRefs } from "./diff/merge-refs.js";
export type { RefFinding } from "./diff/merge-refs.js";
export { findingCatalog } from "./diff/findings/index.js";
export type { ChangeClass, Finding, FindingMeta, FindingSubject } from "./diff/finding.js";
