/**
 * The shape of an analysis rule (ESLint's `meta` + `create`, TypeSpec's `createLinterRule`): a
 * rule gets a read-only model of one graph and a `report` function, nothing else, so rules
 * cannot depend on one another's output or on the order they run in.
 */
import { createDiagnostic, type Diagnostic, type RuleMeta, type Severity } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { BoundGraph } from "./bind.js";
import type { GraphFacts } from "./graph-facts.js";
import type { Comment, GraphDecl } from "../parser/ast.js";
import type { CheckedGraph } from "./model.js";

/** What a rule may read: the file, the checked graph (AST under `graph.decl`), binding and facts. */
export interface RuleModel {
  readonly file: SourceFile;
  readonly graph: CheckedGraph;
  readonly bound: BoundGraph;
  readonly facts: GraphFacts;
  /** The graph has syntax errors, so the parser dropped some of its items. */
  readonly incomplete: boolean;
  /** The first graph of the file with this graph's name (this graph's own declaration when unique). */
  readonly firstOfName: GraphDecl;
  /** The comments inside this graph's braces, in text order (markers such as `seam-guess`). */
  readonly comments: readonly Comment[];
}

/** A finding as a rule reports it; the file and rule id are filled in by the runner. */
export interface ReportInit {
  /** UTF-16 offsets into the file: the smallest node that shows the problem. */
  readonly range: Range;
  /** Names the agents involved and what to do. */
  readonly message: string;
  /** Overrides the rule's default severity. */
  readonly severity?: Severity;
  /** Secondary places in the same file. */
  readonly related?: readonly { readonly message: string; readonly range: Range }[];
  /** The whole witness path the message shows (agent ids), kept whole in JSON output. */
  readonly path?: readonly string[];
}

/** The context a rule's `check` receives. */
export interface RuleContext {
  readonly model: RuleModel;
  report(init: ReportInit): void;
}

/** An analysis rule; its id is its file name under `src/analysis/rules/`. */
export interface Rule {
  readonly meta: RuleMeta;
  /**
   * The rule judges the graph as a whole (reachability, cycles, what is missing). It is skipped
   * for a graph with syntax errors: the items the parser dropped would make its findings
   * spurious (an agent lost to a typo is not "unknown", a lost `entry` line is not "missing").
   */
  readonly wholeGraph?: boolean;
  check(context: RuleContext): void;
}

/**
 * Declares a rule.
 *
 * @throws Error when the id is not kebab-case (a bug in Seam, caught by any test that loads it)
 */
export function defineRule(rule: Rule): Rule {
  if (!/^[a-z]+(-[a-z]+)*$/.test(rule.meta.id)) throw new Error(`internal: rule id '${rule.meta.id}' is not kebab-case`);
  return Object.freeze(rule);
}

/** The rule id reported when a rule itself crashes: a bug in Seam, shown instead of a crash. */
export const internalErrorRule: RuleMeta = {
  id: "internal-error",
  severity: "error",
  description: "A check crashed on this input; this is a bug in Seam, please report it with the file.",
};

/**
 * The rule id the language server reports on a document over the size limit that `seam check`
 * holds files to (`core/source-limit.ts`): it is not analysed, so one large buffer cannot stall
 * the server or exhaust its memory.
 */
export const fileTooLargeRule: RuleMeta = {
  id: "file-too-large",
  severity: "error",
  description: "The document is larger than Seam checks; it is not analysed.",
};

/**
 * Runs every rule on one model. A rule that throws yields one `internal-error` diagnostic on the
 * graph's name instead of ending the run; the other rules still run.
 */
export function runRules(rules: readonly Rule[], model: RuleModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    if (rule.wholeGraph === true && model.incomplete) continue;
    const context: RuleContext = {
      model,
      report(init) {
        out.push(
          createDiagnostic(rule.meta, {
            file: model.file,
            range: init.range,
            message: init.message,
            ...(init.severity ? { severity: init.severity } : {}),
            ...(init.path ? { path: init.path } : {}),
            ...(init.related
              ? { related: init.related.map((r) => ({ message: r.message, range: r.range, file: model.file })) }
              : {}),
          }),
        );
      },
    };
    try {
      rule.check(context);
    } catch (error) {
      out.push(internalError(model.file, model.graph.decl.name.range, `rule ${rule.meta.id}`, error));
    }
  }
  return out;
}

/** An `internal-error` diagnostic for a crash in `stage` (a rule, binding, hop limits). */
export function internalError(file: SourceFile, range: Range, stage: string, error: unknown): Diagnostic {
  const detail = error instanceof Error ? error.message : String(error);
  return createDiagnostic(internalErrorRule, {
    file,
    range,
    message: `internal error in ${stage}: ${detail}. This is a bug in Seam; the other checks still ran.`,
  });
}
