/**
 * The Seam grammar as a Chevrotain `CstParser`: the executable specification of the language.
 * It is not on any command's path (its self-analysis alone costs 15-30 ms): `parser.ts` parses
 * every file, and `test/parser/spec.property.test.ts` holds it to this grammar (same accept and
 * reject, same tree) on generated and mutated files. `npm run grammar` writes grammar/seam.ebnf
 * and the railroad diagrams (grammar/diagrams.html) from it.
 *
 * The alternatives for roles, outcomes, hop-limit actions and edge kinds come from the vocabulary
 * (`core/vocabulary.ts`), and the items of agent and edge blocks from the settings table
 * (`core/settings.ts`): one rule per setting, named by the block and keyword, shaped by how its value is
 * written (`agentTerminal`, `edgeMaxRounds`...). Language-server completion runs Chevrotain's content assist on this grammar, so a new
 * keyword is offered without an edit to the server. Recovery is off: a specification accepts or
 * rejects.
 */
import type { CstNode, IToken } from "chevrotain";
import { AGENT_SETTINGS, EDGE_SETTINGS, type SettingSpec, type SettingValue } from "../../core/settings.js";
import { EDGE_KINDS, HOP_LIMIT_ACTIONS, JOIN_WAITS, OUTCOMES, ROLES } from "../../core/vocabulary.js";
import { chevrotain } from "./chevrotain.js";
import * as t from "./tokens.js";

/** Options of {@link createSeamGrammar}. */
export interface SeamGrammarOptions {
  /** Run Chevrotain's grammar checks (ambiguities, left recursion...). */
  readonly validate?: boolean;
}

const kw = t.keywordToken;

class SeamGrammar extends chevrotain.CstParser {
  constructor(options: SeamGrammarOptions) {
    super([...t.allTokens], { nodeLocationTracking: "onlyOffset", skipValidations: options.validate !== true });
    this.performSelfAnalysis();
  }

  /** One of the keywords `words` (a vocabulary list), labelled `value`. */
  private oneKeywordOf(words: readonly string[]): void {
    this.OR(words.map((word) => ({ ALT: () => this.CONSUME(kw(word), { LABEL: "value" }) })));
  }

  /** file = languageVersion? graph+ */
  readonly file = this.RULE("file", () => {
    this.OPTION(() => this.SUBRULE(this.languageVersion));
    this.AT_LEAST_ONE(() => this.SUBRULE(this.graph));
  });

  readonly languageVersion = this.RULE("languageVersion", () => {
    this.CONSUME(kw("seam"));
    this.CONSUME(t.Integer, { LABEL: "value" });
  });

  readonly graph = this.RULE("graph", () => {
    this.CONSUME(kw("graph"));
    this.CONSUME(t.Identifier, { LABEL: "name" });
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.graphItem));
    this.CONSUME(t.RCurly);
  });

  readonly graphItem = this.RULE("graphItem", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.envelopeDecl) },
      { ALT: () => this.SUBRULE(this.entryDecl) },
      { ALT: () => this.SUBRULE(this.hopLimitDecl) },
      { ALT: () => this.SUBRULE(this.onHopLimitDecl) },
      { ALT: () => this.SUBRULE(this.loopSignatureDecl) },
      { ALT: () => this.SUBRULE(this.agentDecl) },
      { ALT: () => this.SUBRULE(this.contractDecl) },
      { ALT: () => this.SUBRULE(this.edgeDecl) },
    ]);
  });

  readonly envelopeDecl = this.RULE("envelopeDecl", () => {
    this.CONSUME(kw("envelope"));
    this.CONSUME(t.VersionNumber, { LABEL: "version" });
  });

  readonly entryDecl = this.RULE("entryDecl", () => {
    this.CONSUME(kw("entry"));
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.CONSUME(t.Identifier, { LABEL: "agent" }) });
  });

  readonly hopLimitDecl = this.RULE("hopLimitDecl", () => {
    this.CONSUME(kw("hop_limit"));
    this.OR([
      { ALT: () => this.CONSUME(t.Integer, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(kw("auto"), { LABEL: "auto" }) },
    ]);
  });

  readonly onHopLimitDecl = this.RULE("onHopLimitDecl", () => {
    this.CONSUME(kw("on_hop_limit"));
    this.SUBRULE(this.hopLimitAction);
  });

  readonly hopLimitAction = this.RULE("hopLimitAction", () => this.oneKeywordOf(HOP_LIMIT_ACTIONS));

  readonly loopSignatureDecl = this.RULE("loopSignatureDecl", () => {
    this.CONSUME(kw("loop_signature"));
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.fieldPath) });
  });

  readonly agentDecl = this.RULE("agentDecl", () => {
    this.CONSUME(kw("agent"));
    this.CONSUME(t.Identifier, { LABEL: "name" });
    this.CONSUME(t.Colon);
    this.SUBRULE(this.role);
    this.OPTION(() => {
      this.CONSUME(t.LCurly);
      this.MANY(() => this.SUBRULE(this.agentItem));
      this.CONSUME(t.RCurly);
    });
  });

  readonly role = this.RULE("role", () => this.oneKeywordOf(ROLES));

  /** What follows a setting's keyword, by how its value is written (`core/settings.ts`). */
  private settingValue(value: SettingValue): void {
    switch (value) {
      case "count":
        this.CONSUME(t.Integer, { LABEL: "value" });
        break;
      case "paths":
        this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.fieldPath) });
        break;
      case "string":
        this.CONSUME(t.StringLiteral, { LABEL: "value" });
        break;
      case "terminal":
        this.CONSUME(t.Identifier, { LABEL: "name" });
        this.OPTION(() => this.SUBRULE(this.outcome));
        this.OPTION2(() => this.CONSUME2(t.StringLiteral, { LABEL: "description" }));
        break;
      case "flag":
        break;
      case "floor":
        this.SUBRULE(this.fraction);
        this.OPTION3(() => {
          this.CONSUME(kw("for"));
          this.AT_LEAST_ONE_SEP2({ SEP: t.Comma, DEF: () => this.CONSUME3(t.Identifier, { LABEL: "decision" }) });
        });
        break;
      case "name":
        this.CONSUME4(t.Identifier, { LABEL: "name" });
        break;
      case "join":
        this.SUBRULE(this.joinWait);
        this.CONSUME(kw("of"));
        this.AT_LEAST_ONE_SEP3({ SEP: t.Comma, DEF: () => this.CONSUME5(t.Identifier, { LABEL: "input" }) });
        this.OPTION4(() => {
          this.CONSUME(kw("within"));
          this.CONSUME2(t.Integer, { LABEL: "seconds" });
          this.CONSUME(kw("seconds"));
        });
        this.OPTION5(() => {
          this.CONSUME(kw("otherwise"));
          this.OR([
            { ALT: () => this.CONSUME(kw("escalate"), { LABEL: "otherwise" }) },
            { ALT: () => this.CONSUME6(t.Identifier, { LABEL: "otherwise" }) },
          ]);
        });
        break;
    }
  }

  /** joinWait = "all" | "any" | INT (k of n) */
  readonly joinWait = this.RULE("joinWait", () => {
    this.OR([
      ...JOIN_WAITS.map((word) => ({ ALT: () => this.CONSUME(kw(word), { LABEL: "value" }) })),
      { ALT: () => this.CONSUME(t.Integer, { LABEL: "value" }) },
    ]);
  });

  /** One rule per setting of a block, named by {@link settingRuleName}. */
  private settingRules(block: "agent" | "edge", specs: readonly SettingSpec[]) {
    return specs.map((spec) =>
      this.RULE(settingRuleName(block, spec.keyword), () => {
        this.CONSUME(kw(spec.keyword));
        this.settingValue(spec.value);
      }),
    );
  }

  readonly agentSettings = this.settingRules("agent", AGENT_SETTINGS);

  readonly agentItem = this.RULE("agentItem", () => {
    this.OR(this.agentSettings.map((rule) => ({ ALT: () => this.SUBRULE(rule) })));
  });

  /** A number from 0 to 1: an integer, or a decimal (which lexes as a version-shaped token). */
  readonly fraction = this.RULE("fraction", () => {
    this.OR([
      { ALT: () => this.CONSUME(t.Integer, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.VersionNumber, { LABEL: "value" }) },
    ]);
  });

  readonly outcome = this.RULE("outcome", () => this.oneKeywordOf(OUTCOMES));

  readonly contractDecl = this.RULE("contractDecl", () => {
    this.CONSUME(kw("contract"));
    this.SUBRULE(this.edgeKind);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.requireDecl));
    this.CONSUME(t.RCurly);
  });

  readonly edgeDecl = this.RULE("edgeDecl", () => {
    this.SUBRULE(this.edgeKind);
    this.CONSUME(t.Identifier, { LABEL: "from" });
    this.CONSUME(t.Arrow);
    this.CONSUME2(t.Identifier, { LABEL: "to" });
    this.OPTION3(() => this.SUBRULE(this.guard));
    this.OPTION(() => this.CONSUME(kw("observe"), { LABEL: "observe" }));
    this.OPTION2(() => {
      this.CONSUME(t.LCurly);
      this.MANY(() => this.SUBRULE(this.edgeItem));
      this.CONSUME(t.RCurly);
    });
  });

  /** guard = "otherwise" | "when" condition ("and" condition)* */
  readonly guard = this.RULE("guard", () => {
    this.OR([
      { ALT: () => this.CONSUME(kw("otherwise")) },
      {
        ALT: () => {
          this.CONSUME(kw("when"));
          this.AT_LEAST_ONE_SEP({ SEP: kw("and"), DEF: () => this.SUBRULE(this.condition) });
        },
      },
    ]);
  });

  /**
   * condition = ID ("is" NAME ("," NAME)* | COMPARISON fraction). Which subjects and values exist
   * is checked when the tree is built (the parser reports `status is redy` by name).
   */
  readonly condition = this.RULE("condition", () => {
    this.CONSUME(t.Identifier, { LABEL: "subject" });
    this.OR([
      {
        ALT: () => {
          this.CONSUME(kw("is"));
          this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.CONSUME(t.Name, { LABEL: "value" }) });
        },
      },
      {
        ALT: () => {
          this.CONSUME(t.Comparison, { LABEL: "operator" });
          this.SUBRULE(this.fraction);
        },
      },
    ]);
  });

  readonly edgeKind = this.RULE("edgeKind", () => this.oneKeywordOf(EDGE_KINDS));

  readonly edgeSettings = this.settingRules("edge", EDGE_SETTINGS);

  readonly edgeItem = this.RULE("edgeItem", () => {
    this.OR(this.edgeSettings.map((rule) => ({ ALT: () => this.SUBRULE(rule) })));
  });

  /** The `require` lines of a contract block (the same shape as an edge's `require` setting). */
  readonly requireDecl = this.RULE("requireDecl", () => {
    this.CONSUME(kw("require"));
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.fieldPath) });
  });

  /** The first segment is an identifier; later ones may be any name, keywords included. */
  readonly fieldPath = this.RULE("fieldPath", () => {
    this.CONSUME(t.Identifier, { LABEL: "segment" });
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(t.Dot);
            this.CONSUME(t.Name, { LABEL: "segment" });
          },
        },
        { ALT: () => this.CONSUME(t.Brackets, { LABEL: "segment" }) },
      ]);
    });
  });
}

/** The grammar rule of a block's setting: `agentTerminal`, `edgeMaxRounds`... (the block, then the keyword in camel case). */
export function settingRuleName(block: "agent" | "edge", keyword: string): string {
  return block + keyword.split("_").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/** The grammar's parser type: `input` takes tokens, `file()` returns the CST root, `errors` lists what went wrong. */
export type { SeamGrammar };

let shared: SeamGrammar | undefined;

/**
 * Creates the grammar and runs Chevrotain's self-analysis (the costly part: one shared instance
 * serves {@link parseWithGrammar}).
 *
 * @throws Error from Chevrotain when `validate` is on and the grammar is wrong (a bug in Seam).
 */
export function createSeamGrammar(options: SeamGrammarOptions = {}): SeamGrammar {
  return new SeamGrammar(options);
}

/** The shared grammar instance, created on first use. */
export function getSeamGrammar(): SeamGrammar {
  shared ??= createSeamGrammar();
  return shared;
}

/**
 * Parses `tokens` by the specification: the CST root and the number of errors (0 means the
 * grammar accepts the tokens). Never throws on any tokens.
 */
export function parseWithGrammar(tokens: IToken[]): { cst: CstNode; errorCount: number } {
  const grammar = getSeamGrammar();
  grammar.input = tokens;
  const cst = grammar.file();
  const errorCount = grammar.errors.length;
  grammar.input = [];
  return { cst, errorCount };
}
