/**
 * The Seam language server (LSP 3.17) on a given connection: open documents are analysed as
 * `seam check` would and their diagnostics published as they change; hover, definition,
 * references, rename, completion, document symbols, folding, code actions, semantic tokens and
 * formatting (`seam fmt`'s layout) answer from the latest analysis of each document. Only open
 * documents are analysed.
 */
import {
  ErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeActionParams,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type DocumentFormattingParams,
  type DocumentSymbolParams,
  type FoldingRangeParams,
  type InitializeResult,
  type ReferenceParams,
  type RenameParams,
  type SemanticTokensParams,
  type TextDocumentPositionParams,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { codeActionsFor } from "./code-actions.js";
import { completionsAt } from "./completion.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { checkedDocumentEvents, requestProblem, type RequestNeeds } from "./document-params.js";
import { createFrontEnd, failedAnalysis, formatDocument, loadGrammar, type Analysis, type FrontEnd } from "./front-end.js";
import { hoverAt } from "./hover.js";
import { definitionAt, prepareRenameAt, referencesAt, renameAt } from "./navigation.js";
import { documentSymbols, foldingRanges } from "./outline.js";
import { toOffset, toPosition } from "./positions.js";
import { SEMANTIC_TOKENS_LEGEND, semanticTokens } from "./semantic-tokens.js";

/**
 * How edits are coalesced: a document is re-checked on the next turn of the event loop after an
 * edit (the edits already received are applied first), unless its last check was slow (at least
 * {@link SLOW_CHECK_MS}) and ended less than that check's duration ago: then the check waits out
 * the rest of that interval (at most {@link MAX_DEBOUNCE_MS}). A lone keystroke is checked at
 * once; fast typing in a file that takes 100 ms to check gets one check per 100 ms, not a queue.
 */
export const SLOW_CHECK_MS = 50;
/** The longest debounce, in milliseconds. */
export const MAX_DEBOUNCE_MS = 250;

/** The capabilities this server announces. */
export const SERVER_CAPABILITIES: InitializeResult["capabilities"] = {
  positionEncoding: "utf-16",
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  completionProvider: { triggerCharacters: [".", ":", ">", ","] },
  documentSymbolProvider: true,
  foldingRangeProvider: true,
  codeActionProvider: { codeActionKinds: ["quickfix"] },
  semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
  documentFormattingProvider: true,
};

/**
 * Wires every handler to `connection` and starts listening. Returns when the handlers are set;
 * the server then lives as long as the connection (an `exit` notification ends the process, as
 * `vscode-languageserver` does for every server).
 *
 * No input ends the server: a document notification whose params do not have their protocol
 * shape is dropped and logged (`window/logMessage`), a request whose params do not is answered
 * InvalidParams (-32602) naming the first fault, and a check that throws gives its document one
 * `internal-error` diagnostic while the other documents go on.
 *
 * @param version - the `seam` version, sent as `serverInfo.version`
 * @param frontEnd - the front end to analyse with (default: {@link createFrontEnd}'s)
 */
export function startServer(connection: Connection, version: string, frontEnd: FrontEnd = createFrontEnd()): void {
  const documents = new TextDocuments(TextDocument);
  /**
   * The analysis of each document's current text, dropped at each change. Not keyed by version:
   * a client that sends new text under the same version (which the protocol forbids) still gets
   * answers from that text.
   */
  const analyses = new Map<string, Analysis>();
  /** The pending check of each document, as the function that cancels it. */
  const pending = new Map<string, () => void>();
  /** How long the last check of each document took, and when it ended (`performance.now()`). */
  const lastCheck = new Map<string, { ms: number; end: number }>();
  /**
   * Documents whose last diagnostics the client has not yet taken from the connection, and
   * whether a newer version waits behind them. Output waits for the client: while one message of
   * a document's diagnostics is unwritten, later versions are not checked or queued, and the
   * newest is published once the client reads; so a client that sends edits faster than it reads
   * holds the server to one message per document, not one per edit.
   */
  const unread = new Map<string, boolean>();

  /** The analysis of the document's current text (made now if the text changed since the last one). */
  const analysisOf = (uri: string): Analysis | undefined => {
    const document = documents.get(uri);
    if (document === undefined) return undefined;
    const cached = analyses.get(uri);
    if (cached !== undefined) return cached;
    const started = performance.now();
    const analysis = analyse(uri, document.getText());
    const end = performance.now();
    lastCheck.set(uri, { ms: end - started, end });
    analyses.set(uri, analysis);
    return analysis;
  };

  /**
   * The front end's analysis of the document at `uri`; a crash in it (a bug) is the document's
   * `internal-error` diagnostic. The front end keeps each document's last check under the name
   * given, so that name is the URI: two URIs of one file (`a.seam` and `%61.seam`) are two
   * documents, and a check carried across an edit of one never moves the other's tree.
   */
  const analyse = (uri: string, text: string): Analysis => {
    try {
      return frontEnd.analyse(uri, text);
    } catch (error) {
      connection.console.error(`seam: the check of ${quoteUntrusted(uri)} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return failedAnalysis(uri, text, "the check of this document", error);
    }
  };

  // Runs outside any request (a timer): an exception here would end the process.
  const publish = (uri: string): void => {
    pending.delete(uri);
    const document = documents.get(uri);
    if (document === undefined) return;
    if (unread.has(uri)) {
      unread.set(uri, true);
      return;
    }
    let diagnostics: LspDiagnostic[];
    try {
      const analysis = analysisOf(uri);
      if (analysis === undefined) return;
      diagnostics = analysis.diagnostics.map((d) => toLspDiagnostic(analysis, uri, d));
    } catch (error) {
      const failed = failedAnalysis(uri, document.getText(), "publishing this document's diagnostics", error);
      connection.console.error(`seam: publishing the diagnostics of ${quoteUntrusted(uri)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      diagnostics = failed.diagnostics.map((d) => toLspDiagnostic(failed, uri, d));
    }
    unread.set(uri, false);
    const published = analyses.get(uri);
    const written = (): void => {
      const newer = unread.get(uri) === true;
      unread.delete(uri);
      if (newer) schedule(uri);
      // A check carried across a keystroke moves its tree when first read (src/program/moved-check.ts):
      // read it now, while the editor shows the diagnostics, rather than in the next request.
      // Not before the message is written: the move (3 ms at 1,000 agents) then delayed it. Only
      // while it is the latest analysis: the next one may have moved the same tree already.
      if (published === undefined) return;
      setImmediate(() => {
        if (analyses.get(uri) === published) void published.ast;
      });
    };
    let sent: Promise<void>;
    try {
      sent = connection.sendDiagnostics({ uri, version: document.version, diagnostics });
    } catch {
      // The connection closed before this turn came (a client that wrote its last change,
      // shutdown and exit at once, then closed our input): nobody is left to tell.
      return;
    }
    sent.then(written, written);
  };

  const schedule = (uri: string): void => {
    pending.get(uri)?.();
    const last = lastCheck.get(uri);
    const wait = last === undefined || last.ms < SLOW_CHECK_MS ? 0 : Math.max(0, Math.min(MAX_DEBOUNCE_MS, last.ms) - (performance.now() - last.end));
    // The next turn of the event loop (setImmediate) rather than a 0 ms timer, which waits 1 ms.
    if (wait === 0) {
      const handle = setImmediate(() => publish(uri));
      pending.set(uri, () => clearImmediate(handle));
    } else {
      const handle = setTimeout(() => publish(uri), wait);
      pending.set(uri, () => clearTimeout(handle));
    }
  };

  /** Runs `answer` on the analysis of `uri` at `position`, or returns `empty` for a document that is not open. */
  const at = <T>(uri: string, position: { line: number; character: number }, empty: T, answer: (a: Analysis, offset: number) => T): T => {
    const analysis = analysisOf(uri);
    return analysis === undefined ? empty : answer(analysis, toOffset(analysis.file, position));
  };

  connection.onInitialize(() => ({ capabilities: SERVER_CAPABILITIES, serverInfo: { name: "seam", version } }));
  // LSP 3.17: requests after `shutdown` get InvalidRequest; `exit` still ends the process.
  let shutDown = false;
  connection.onShutdown(() => {
    shutDown = true;
  });
  documents.onDidChangeContent(({ document }) => {
    analyses.delete(document.uri);
    schedule(document.uri);
  });
  documents.onDidClose(({ document }) => {
    pending.get(document.uri)?.();
    pending.delete(document.uri);
    analyses.delete(document.uri);
    lastCheck.delete(document.uri);
    unread.delete(document.uri);
    frontEnd.close(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  /** `handler` behind a check of its params; a request of another shape is answered InvalidParams. */
  const checked =
    <P, R>(method: string, needs: RequestNeeds, handler: (params: P) => R) =>
    (params: P): R => {
      if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `${method}: the server is shutting down (a shutdown request came), so it answers no more requests`);
      const problem = requestProblem(params, needs);
      if (problem !== undefined) throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${problem}`);
      return handler(params);
    };
  const POSITION: RequestNeeds = { position: true };
  connection.onHover(checked("textDocument/hover", POSITION, ({ textDocument, position }: TextDocumentPositionParams) => at(textDocument.uri, position, null, hoverAt)));
  connection.onDefinition(
    checked("textDocument/definition", POSITION, ({ textDocument, position }: TextDocumentPositionParams) =>
      at(textDocument.uri, position, [], (a, o) => definitionAt(a, textDocument.uri, o)),
    ),
  );
  connection.onReferences(
    checked("textDocument/references", { position: true, context: true }, ({ textDocument, position, context }: ReferenceParams) =>
      at(textDocument.uri, position, [], (a, o) => referencesAt(a, textDocument.uri, o, context.includeDeclaration)),
    ),
  );
  connection.onPrepareRename(
    checked("textDocument/prepareRename", POSITION, ({ textDocument, position }: TextDocumentPositionParams) => at(textDocument.uri, position, null, prepareRenameAt)),
  );
  connection.onRenameRequest(
    checked("textDocument/rename", { position: true, newName: true }, ({ textDocument, position, newName }: RenameParams) =>
      at(textDocument.uri, position, null, (a, o) => renameAt(a, textDocument.uri, o, newName)),
    ),
  );
  connection.onCompletion(
    checked("textDocument/completion", POSITION, async ({ textDocument, position }: TextDocumentPositionParams) => {
      await loadGrammar();
      return at(textDocument.uri, position, [], completionsAt);
    }),
  );
  connection.onDocumentSymbol(
    checked("textDocument/documentSymbol", {}, ({ textDocument }: DocumentSymbolParams) => {
      const analysis = analysisOf(textDocument.uri);
      return analysis === undefined ? [] : documentSymbols(analysis);
    }),
  );
  connection.onFoldingRanges(
    checked("textDocument/foldingRange", {}, ({ textDocument }: FoldingRangeParams) => {
      const analysis = analysisOf(textDocument.uri);
      return analysis === undefined ? [] : foldingRanges(analysis);
    }),
  );
  connection.onCodeAction(
    checked("textDocument/codeAction", { range: true }, ({ textDocument, range }: CodeActionParams) => {
      const analysis = analysisOf(textDocument.uri);
      if (analysis === undefined) return [];
      return codeActionsFor(analysis, textDocument.uri, { start: toOffset(analysis.file, range.start), end: toOffset(analysis.file, range.end) });
    }),
  );
  connection.languages.semanticTokens.on(
    checked("textDocument/semanticTokens/full", {}, ({ textDocument }: SemanticTokensParams) => {
      const analysis = analysisOf(textDocument.uri);
      return analysis === undefined ? { data: [] } : semanticTokens(analysis);
    }),
  );

  // One edit replacing the whole text when the layout changes; none when it is already canonical
  // or has syntax errors (formatting on save must not fail loudly mid-edit).
  connection.onDocumentFormatting(
    checked("textDocument/formatting", {}, ({ textDocument }: DocumentFormattingParams) => {
      const analysis = analysisOf(textDocument.uri);
      if (analysis === undefined) return [];
      const formatted = formatDocument(analysis);
      if (formatted === undefined || formatted === analysis.file.text) return [];
      const end = toPosition(analysis.file, analysis.file.text.length);
      return [{ range: { start: { line: 0, character: 0 }, end }, newText: formatted }];
    }),
  );

  documents.listen(
    checkedDocumentEvents(connection, (method, problem) => connection.console.error(`seam: ignored a ${method} notification: ${problem}`)),
  );
  connection.listen();
}
