/**
 * The output formats each command accepts (docs/cli.md), in one tiny module so the
 * argument parser can validate `--format` without loading any formatter.
 */

/** Formats of `seam check`. */
export const CHECK_FORMATS = ["pretty", "json", "sarif", "github"] as const;
/** A format of `seam check`. */
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** Formats of `seam validate`. */
export const VALIDATE_FORMATS = ["pretty", "json"] as const;
/** A format of `seam validate`. */
export type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

/** Formats of `seam graph`. */
export const GRAPH_FORMATS = ["mermaid", "dot", "svg"] as const;
/** A format of `seam graph`. */
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** What makes `seam diff` exit 1: any breaking change, or only one its agent's version does not announce. */
export const DIFF_FAIL_ON = ["breaking", "missing-version-bump"] as const;
/** A `--fail-on` level of `seam diff`. */
export type DiffFailOn = (typeof DIFF_FAIL_ON)[number];

/** Formats of `seam report`. */
export const REPORT_FORMATS = ["pretty", "json"] as const;
/** A format of `seam report`. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Formats `seam import` reads (the same list as `src/import/index.ts`, kept here so `--help` loads no importer). */
export const IMPORT_FORMATS = ["langgraph", "openai-agents", "autogen", "crewai", "asl", "mermaid"] as const;
/** A format of `seam import`. */
export type ImportSourceFormat = (typeof IMPORT_FORMATS)[number];

/** How a CrewAI crew runs its tasks. */
export const CREW_PROCESSES = ["sequential", "hierarchical"] as const;
