/**
 * The Seam grammar (DESIGN.md section 1) as one Chevrotain `CstParser`: the authority on the
 * grammar (grammar/seam.ebnf and the railroad diagrams are checked against it) and the parser of
 * files with syntax errors. Files without errors take `direct-parser.ts`, which a property test
 * holds to the same trees; this parser's self-analysis (15-20 ms) then never runs.
 *
 * A CST parser rather than embedded actions: with recovery on, Chevrotain hands back partial
 * nodes (flagged `recoveredNode`) and tokens inserted by recovery (NaN offsets), and the AST
 * builder can then decide, node by node, what is whole enough to keep. Embedded actions would
 * run user code during Chevrotain's grammar recording phase and need a recovery value for every
 * rule. Rules are class properties, so a misspelt rule name is a compile error.
 */
import type {
  AtLeastOneSepMethodOpts,
  CstNode,
  IParserErrorMessageProvider,
  IRecognitionException,
  IToken,
  TokenType,
} from "chevrotain";
import { chevrotain } from "./chevrotain.js";
import { keywordAsName, nameStartsWithDigit, seamErrorMessages } from "./error-messages.js";
import * as t from "./tokens.js";

/** Options of {@link createSeamParser}. */
export interface SeamParserOptions {
  /** Run Chevrotain's grammar checks (ambiguities, left recursion...); tests do, production skips them. */
  readonly validate?: boolean;
}

/**
 * The parts of Chevrotain's recovery engine (11.x, `traits/recoverable.js`) that the
 * brace-aware recovery below overrides or calls. They are not in Chevrotain's public types.
 */
interface RecoveryEngine {
  LA(howMuch: number): IToken;
  SKIP_TOKEN(): IToken;
  exportLexerState(): number;
  importLexerState(state: number): void;
  flattenFollowSet(): TokenType[];
  getCurrRuleFullName(): string;
  SAVE_ERROR(error: IRecognitionException): IRecognitionException;
  readonly errorMessageProvider: IParserErrorMessageProvider;
  readonly recoveryEnabled: boolean;
  isBackTracking(): boolean;
  consumeToken(): void;
  tokenMatcher(token: IToken, type: TokenType): boolean;
  getLaFuncFromCache(key: number): (this: unknown) => boolean;
  consumeInternalRecovery(tokType: TokenType, idx: number, error: IRecognitionException): IToken;
  atLeastOneSepFirstInternalLogic(occurrence: number, options: AtLeastOneSepMethodOpts<unknown>, key: number): void;
}

const { EOF, tokenMatcher, MismatchedTokenException } = chevrotain;

/** Chevrotain's own implementations of the engine methods that {@link SeamParser} overrides. */
const engine = chevrotain.CstParser.prototype as unknown as RecoveryEngine;

/**
 * Keywords followed by another keyword when they begin an item: `contract transfer`,
 * `on_hop_limit failed`, `hop_limit auto`.
 */
const keywordArguments: ReadonlyMap<TokenType, readonly TokenType[]> = new Map([
  [t.Contract, [t.Delegate, t.Return, t.Transfer]],
  [t.OnHopLimit, [t.Escalate, t.Failed]],
  [t.HopLimit, [t.Auto]],
]);

/**
 * True when `keyword` followed by `next` reads as the start of an item: the name expected before
 * it is then missing (`entry` with `agent b: worker` on the next line) rather than spelt as a
 * keyword (`entry agent` then `}`). Every item keyword is followed by a name, a number, a
 * version, a string or one of {@link keywordArguments}; a name is followed by none of these.
 */
function startsAnItem(keyword: IToken, next: IToken): boolean {
  for (const type of [t.Identifier, t.Integer, t.VersionNumber, t.StringLiteral]) {
    if (tokenMatcher(next, type)) return true;
  }
  return keywordArguments.get(keyword.tokenType)?.some((type) => tokenMatcher(next, type)) === true;
}

/** Tokens that stand for a name written wrongly: how many, the name they make, and why it is wrong. */
interface NameStandIn {
  readonly length: number;
  readonly token: IToken;
  readonly message: string;
}

/**
 * Where a name is expected but not found: the tokens from LA(1) that were meant as the name, if
 * any: a keyword used as one (`agent peer: peer`), or digits with a name right after them
 * (`agent 9x`, one name `9x` to the user, an integer and a name to the lexer). Consumes nothing.
 */
function findNameStandIn(parser: RecoveryEngine): NameStandIn | undefined {
  const first = parser.LA(1);
  const second = parser.LA(2);
  if (t.isKeywordType(first.tokenType) && !startsAnItem(first, second)) {
    return { length: 1, token: first, message: keywordAsName(first.image) };
  }
  if (first.tokenType === t.Integer && tokenMatcher(second, t.Name) && second.startOffset === (first.endOffset as number) + 1) {
    const image = first.image + second.image;
    const token: IToken = {
      image,
      startOffset: first.startOffset,
      endOffset: second.endOffset as number,
      tokenType: t.Identifier,
      tokenTypeIdx: t.Identifier.tokenTypeIdx as number,
    };
    return { length: 2, token, message: nameStartsWithDigit(image) };
  }
  return undefined;
}

/** Thrown when the parser reaches its error limit (see {@link parseTokens}); never escapes it. */
const ERROR_LIMIT_REACHED: unique symbol = Symbol("error limit reached");

/** `{` opens and `}` closes a block; the depth change of skipping `token` during recovery. */
function braceDelta(token: IToken): number {
  if (token.tokenType === t.LCurly) return 1;
  if (token.tokenType === t.RCurly) return -1;
  return 0;
}

class SeamParser extends chevrotain.CstParser {
  /** Errors saved since {@link parseTokens} set the input, and the count at which it stops. */
  errorCount = 0;
  errorLimit = Number.POSITIVE_INFINITY;

  constructor(options: SeamParserOptions) {
    super([...t.allTokens], {
      recoveryEnabled: true,
      nodeLocationTracking: "onlyOffset",
      skipValidations: options.validate !== true,
      errorMessageProvider: seamErrorMessages,
    });
    this.performSelfAnalysis();
  }

  // Chevrotain re-synchronises after an error by skipping to the next token that may follow
  // some rule on the stack. In Seam that is often a `}`, and the first `}` ahead may close a
  // block that the broken item itself opened (`delegate a b { max_rounds 1 }`): taking it as the
  // graph's `}` would lose the rest of the graph. The three methods below are Chevrotain's own,
  // with one change: tokens inside a `{ ... }` opened while skipping are never sync points.

  /** Chevrotain's `findReSyncTokenType`, skipping balanced blocks. */
  findReSyncTokenType(this: SeamParser & RecoveryEngine): TokenType {
    const follows = this.flattenFollowSet();
    let depth = 0;
    for (let k = 1; ; k++) {
      const token = this.LA(k);
      if (token.tokenType === EOF) return EOF;
      if (depth === 0) {
        const match = follows.find((type) => tokenMatcher(token, type));
        if (match !== undefined) return match;
      }
      depth = Math.max(0, depth + braceDelta(token));
    }
  }

  /** Chevrotain's `reSyncTo`: skips to the token {@link findReSyncTokenType} chose. */
  reSyncTo(this: SeamParser & RecoveryEngine, type: TokenType): IToken[] {
    const skipped: IToken[] = [];
    let depth = 0;
    let next = this.LA(1);
    while (next.tokenType !== EOF && !(depth === 0 && tokenMatcher(next, type))) {
      depth = Math.max(0, depth + braceDelta(next));
      skipped.push(next);
      next = this.SKIP_TOKEN();
    }
    return skipped;
  }

  /**
   * Chevrotain's `tryInRepetitionRecovery` (after a loop, skip junk until the loop can go on or
   * what follows it is found), skipping balanced blocks.
   */
  tryInRepetitionRecovery(
    this: SeamParser & RecoveryEngine,
    grammarRule: (...args: unknown[]) => unknown,
    grammarRuleArgs: unknown[],
    lookAheadFunc: () => boolean,
    expectedTokType: TokenType,
  ): void {
    const reSyncTokType = this.findReSyncTokenType();
    const savedLexerState = this.exportLexerState();
    const firstUnexpected = this.LA(1);
    const previous = this.LA(0);
    const saveError = (): void => {
      const message = this.errorMessageProvider.buildMismatchTokenMessage({
        expected: expectedTokType,
        actual: firstUnexpected,
        previous,
        ruleName: this.getCurrRuleFullName(),
      });
      this.SAVE_ERROR(new MismatchedTokenException(message, firstUnexpected, previous));
    };
    let depth = 0;
    let current = this.LA(1);
    for (;;) {
      // At the end of the input, blocks left open no longer count (and nothing is skipped).
      const atEnd = current.tokenType === EOF;
      if ((depth === 0 || atEnd) && tokenMatcher(current, expectedTokType)) {
        saveError();
        return;
      }
      if (atEnd) break;
      if (depth === 0 && lookAheadFunc.call(this)) {
        saveError();
        grammarRule.apply(this, grammarRuleArgs);
        return;
      }
      if (depth === 0 && tokenMatcher(current, reSyncTokType)) break;
      depth = Math.max(0, depth + braceDelta(current));
      current = this.SKIP_TOKEN();
    }
    this.importLexerState(savedLexerState);
  }

  /**
   * Chevrotain's in-rule recovery after a CONSUME found the wrong token, first trying
   * {@link findNameStandIn}: a keyword or `9x` where a name belongs is read as that name, so the item
   * survives and what follows is not misread. The mismatch is already saved (this same error
   * object), so only its wording and token (all of `9x`, not `9`) change.
   */
  consumeInternalRecovery(
    this: SeamParser & RecoveryEngine,
    tokType: TokenType,
    idx: number,
    error: IRecognitionException,
  ): IToken {
    if (tokType === t.Identifier && this.recoveryEnabled && !this.isBackTracking() && error.name === "MismatchedTokenException") {
      const standIn = findNameStandIn(this);
      if (standIn !== undefined) {
        for (let i = 0; i < standIn.length; i++) this.consumeToken();
        error.message = standIn.message;
        error.token = standIn.token;
        return standIn.token;
      }
    }
    return engine.consumeInternalRecovery.call(this, tokType, idx, error);
  }

  /**
   * Chevrotain's first iteration of `AT_LEAST_ONE_SEP`. Each such list in this grammar (entry
   * names, field paths) starts with a name; when a name stand-in is there instead, the list is
   * read anyway: its first CONSUME fails and {@link consumeInternalRecovery} takes the stand-in.
   * Chevrotain would stop at the list's start with an early-exit error, and its recovery would
   * then misread the keyword as the start of the next item (`entry agent` then `}`).
   */
  atLeastOneSepFirstInternalLogic(
    this: SeamParser & RecoveryEngine,
    occurrence: number,
    options: AtLeastOneSepMethodOpts<unknown>,
    key: number,
  ): void {
    if (findNameStandIn(this) === undefined || !this.recoveryEnabled || this.isBackTracking() || this.getLaFuncFromCache(key).call(this)) {
      engine.atLeastOneSepFirstInternalLogic.call(this, occurrence, options, key);
      return;
    }
    options.DEF.call(this);
    while (this.tokenMatcher(this.LA(1), options.SEP)) {
      this.CONSUME(options.SEP);
      options.DEF.call(this);
    }
  }

  /** Chevrotain's `SAVE_ERROR` (every error goes through it), stopping at {@link errorLimit}. */
  SAVE_ERROR(this: SeamParser & RecoveryEngine, error: IRecognitionException): IRecognitionException {
    engine.SAVE_ERROR.call(this, error);
    this.errorCount++;
    // Not a recognition exception, so no recovery catches it: it unwinds the whole parse.
    if (this.errorCount >= this.errorLimit) throw ERROR_LIMIT_REACHED;
    return error;
  }

  /** file = languageVersion? graph+ */
  readonly file = this.RULE("file", () => {
    this.OPTION(() => this.SUBRULE(this.languageVersion));
    this.AT_LEAST_ONE(() => this.SUBRULE(this.graph));
  });

  /** languageVersion = "seam" INT */
  readonly languageVersion = this.RULE("languageVersion", () => {
    this.CONSUME(t.Seam);
    this.CONSUME(t.Integer, { LABEL: "value" });
  });

  /** graph = "graph" ID "{" graphItem* "}" */
  readonly graph = this.RULE("graph", () => {
    this.CONSUME(t.Graph);
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
    this.CONSUME(t.Envelope);
    this.CONSUME(t.VersionNumber, { LABEL: "version" });
  });

  readonly entryDecl = this.RULE("entryDecl", () => {
    this.CONSUME(t.Entry);
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.CONSUME(t.Identifier, { LABEL: "agent" }) });
  });

  readonly hopLimitDecl = this.RULE("hopLimitDecl", () => {
    this.CONSUME(t.HopLimit);
    this.OR([
      { ALT: () => this.CONSUME(t.Integer, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Auto, { LABEL: "auto" }) },
    ]);
  });

  readonly onHopLimitDecl = this.RULE("onHopLimitDecl", () => {
    this.CONSUME(t.OnHopLimit);
    this.OR([
      { ALT: () => this.CONSUME(t.Escalate, { LABEL: "action" }) },
      { ALT: () => this.CONSUME(t.Failed, { LABEL: "action" }) },
    ]);
  });

  readonly loopSignatureDecl = this.RULE("loopSignatureDecl", () => {
    this.CONSUME(t.LoopSignature);
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.fieldPath) });
  });

  readonly agentDecl = this.RULE("agentDecl", () => {
    this.CONSUME(t.Agent);
    this.CONSUME(t.Identifier, { LABEL: "name" });
    this.CONSUME(t.Colon);
    this.SUBRULE(this.role);
    this.OPTION(() => {
      this.CONSUME(t.LCurly);
      this.MANY(() => this.SUBRULE(this.agentItem));
      this.CONSUME(t.RCurly);
    });
  });

  readonly role = this.RULE("role", () => {
    this.OR([
      { ALT: () => this.CONSUME(t.Supervisor, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Worker, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Peer, { LABEL: "value" }) },
    ]);
  });

  readonly agentItem = this.RULE("agentItem", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.terminalDecl) },
      { ALT: () => this.SUBRULE(this.agentVersionDecl) },
    ]);
  });

  readonly terminalDecl = this.RULE("terminalDecl", () => {
    this.CONSUME(t.Terminal);
    this.CONSUME(t.Identifier, { LABEL: "name" });
    this.OPTION(() => this.SUBRULE(this.outcome));
    this.OPTION2(() => this.CONSUME(t.StringLiteral, { LABEL: "description" }));
  });

  readonly agentVersionDecl = this.RULE("agentVersionDecl", () => {
    this.CONSUME(t.Version);
    this.CONSUME(t.StringLiteral, { LABEL: "value" });
  });

  readonly outcome = this.RULE("outcome", () => {
    this.OR([
      { ALT: () => this.CONSUME(t.Complete, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Failed, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Escalate, { LABEL: "value" }) },
    ]);
  });

  readonly contractDecl = this.RULE("contractDecl", () => {
    this.CONSUME(t.Contract);
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
    this.OPTION(() => this.CONSUME(t.Observe, { LABEL: "observe" }));
    this.OPTION2(() => {
      this.CONSUME(t.LCurly);
      this.MANY(() => this.SUBRULE(this.edgeItem));
      this.CONSUME(t.RCurly);
    });
  });

  readonly edgeKind = this.RULE("edgeKind", () => {
    this.OR([
      { ALT: () => this.CONSUME(t.Delegate, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Return, { LABEL: "value" }) },
      { ALT: () => this.CONSUME(t.Transfer, { LABEL: "value" }) },
    ]);
  });

  readonly edgeItem = this.RULE("edgeItem", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.requireDecl) },
      { ALT: () => this.SUBRULE(this.maxRoundsDecl) },
    ]);
  });

  readonly maxRoundsDecl = this.RULE("maxRoundsDecl", () => {
    this.CONSUME(t.MaxRounds);
    this.CONSUME(t.Integer, { LABEL: "value" });
  });

  readonly requireDecl = this.RULE("requireDecl", () => {
    this.CONSUME(t.Require);
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

/** The Seam parser type: `input` takes tokens, `file()` returns the CST root, `errors` lists what went wrong. */
export type { SeamParser };

/**
 * Creates a parser and runs Chevrotain's self-analysis (once per instance; it is the costly
 * part, so production code shares one instance through {@link getSeamParser}).
 *
 * @throws Error from Chevrotain when `validate` is on and the grammar is wrong (a bug in Seam).
 */
export function createSeamParser(options: SeamParserOptions = {}): SeamParser {
  return new SeamParser(options);
}

let shared: SeamParser | undefined;

/** The one shared parser instance, created on first use (no grammar checks: tests run those). */
export function getSeamParser(): SeamParser {
  shared ??= createSeamParser();
  return shared;
}

/**
 * Parses `tokens` with the shared parser; returns the CST root (possibly partial) and the errors.
 * At `maxErrors` errors the parse stops: `cst` is then undefined (a tree of the part read would
 * mislead the checks that run on it) and `errors` holds the first `maxErrors`, in source order.
 * Never throws on any tokens.
 */
export function parseTokens(
  tokens: IToken[],
  maxErrors = Number.POSITIVE_INFINITY,
): { cst: CstNode | undefined; errors: IRecognitionException[] } {
  const parser = getSeamParser();
  parser.input = tokens;
  parser.errorCount = 0;
  parser.errorLimit = maxErrors;
  let cst: CstNode | undefined;
  try {
    cst = parser.file();
  } catch (error) {
    if (error !== ERROR_LIMIT_REACHED) throw error;
  }
  const errors = parser.errors;
  // The shared parser would otherwise hold the last file's tokens until the next parse.
  parser.input = [];
  return { cst, errors };
}
