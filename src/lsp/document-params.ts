/**
 * The text-document notifications (`didOpen`, `didChange`, `didClose`, `willSave`, `didSave`)
 * checked against their LSP 3.17 shapes before the document store sees them. The store trusts
 * its input: a `didOpen` whose `text` is `null` became a document whose text is `null`, and
 * the check of it threw outside any handler, ending the server and every open document's
 * diagnostics with it. A malformed notification is dropped instead, and reported through
 * `onMalformed` (the server logs it to the client).
 */
import type {
  Connection,
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  DidSaveTextDocumentParams,
  TextDocuments,
  WillSaveTextDocumentParams,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";

/** What `TextDocuments.listen` takes: the six document events of a connection. */
export type TextDocumentConnection = Parameters<TextDocuments<TextDocument>["listen"]>[0];

/** Called with the method's name and what is wrong with its params, e.g. `textDocument.text is not a string`. */
export type MalformedHandler = (method: string, problem: string) => void;

/**
 * The document events of `connection`, each passed on only when its params have the shape the
 * protocol gives them (for `TextDocuments.listen`).
 */
export function checkedDocumentEvents(connection: Connection, onMalformed: MalformedHandler): TextDocumentConnection {
  /** `handler` behind a check of its params: `problemOf` names the first fault, or gives `undefined`. */
  const guard =
    <P, R>(method: string, problemOf: (params: unknown) => string | undefined, handler: (params: P) => R, refused: R) =>
    (params: P): R => {
      const problem = problemOf(params);
      if (problem === undefined) return handler(params);
      onMalformed(method, problem);
      return refused;
    };
  return {
    onDidOpenTextDocument: (handler) =>
      connection.onDidOpenTextDocument(guard<DidOpenTextDocumentParams, void>("textDocument/didOpen", openProblem, handler, undefined)),
    onDidChangeTextDocument: (handler) =>
      connection.onDidChangeTextDocument(guard<DidChangeTextDocumentParams, void>("textDocument/didChange", changeProblem, handler, undefined)),
    onDidCloseTextDocument: (handler) =>
      connection.onDidCloseTextDocument(guard<DidCloseTextDocumentParams, void>("textDocument/didClose", documentProblem, handler, undefined)),
    onWillSaveTextDocument: (handler) =>
      connection.onWillSaveTextDocument(guard<WillSaveTextDocumentParams, void>("textDocument/willSave", documentProblem, handler, undefined)),
    onWillSaveTextDocumentWaitUntil: (handler) =>
      connection.onWillSaveTextDocumentWaitUntil((params, token) =>
        guard("textDocument/willSaveWaitUntil", documentProblem, (p: WillSaveTextDocumentParams) => handler(p, token), null)(params),
      ),
    onDidSaveTextDocument: (handler) =>
      connection.onDidSaveTextDocument(guard<DidSaveTextDocumentParams, void>("textDocument/didSave", documentProblem, handler, undefined)),
  };
}

/** What a text-document request's params must hold beside `textDocument`. */
export interface RequestNeeds {
  readonly position?: true;
  readonly range?: true;
  /** `context.includeDeclaration`, a boolean (`textDocument/references`). */
  readonly context?: true;
  readonly newName?: true;
}

/**
 * The first fault of a text-document request's params against its LSP 3.17 shape
 * (`textDocument.uri`, and what `needs` names), e.g. `position is not a position`; undefined when
 * it has that shape. The server answers such a request with InvalidParams (-32602), as the
 * protocol asks, not with the TypeError its handler would throw.
 */
export function requestProblem(params: unknown, needs: RequestNeeds = {}): string | undefined {
  const problem = documentProblem(params);
  if (problem !== undefined) return problem;
  const fields = params as Fields;
  if (needs.position === true && !isPosition(fields["position"])) return "position is not a position (a whole-number line and character)";
  if (needs.range === true && !isRange(fields["range"])) return "range is not a range (start and end positions)";
  if (needs.context === true) {
    const context = fields["context"];
    if (!isObject(context) || typeof context["includeDeclaration"] !== "boolean") return "context.includeDeclaration is not a boolean";
  }
  if (needs.newName === true && typeof fields["newName"] !== "string") return "newName is not a string";
  return undefined;
}

type Fields = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** LSP's `uinteger`/`integer` as a version or position: a whole number from 0 to 2^31 - 1. */
function isWholeNumber(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0x7fffffff;
}

/** `textDocument` with a non-empty string `uri` (a `TextDocumentIdentifier`), else the fault. */
function documentProblem(params: unknown): string | undefined {
  if (!isObject(params)) return "params is not an object";
  const document = params["textDocument"];
  if (!isObject(document)) return "textDocument is not an object";
  const uri = document["uri"];
  if (typeof uri !== "string" || uri === "") return "textDocument.uri is not a non-empty string";
  return undefined;
}

function openProblem(params: unknown): string | undefined {
  const problem = documentProblem(params);
  if (problem !== undefined) return problem;
  const document = (params as Fields)["textDocument"] as Fields;
  if (typeof document["languageId"] !== "string") return "textDocument.languageId is not a string";
  if (!isWholeNumber(document["version"])) return "textDocument.version is not a whole number";
  if (typeof document["text"] !== "string") return "textDocument.text is not a string";
  return undefined;
}

function changeProblem(params: unknown): string | undefined {
  const problem = documentProblem(params);
  if (problem !== undefined) return problem;
  const fields = params as Fields;
  if (!isWholeNumber((fields["textDocument"] as Fields)["version"])) return "textDocument.version is not a whole number";
  const changes = fields["contentChanges"];
  if (!Array.isArray(changes)) return "contentChanges is not an array";
  for (const [i, change] of changes.entries()) {
    if (!isObject(change)) return `contentChanges[${i}] is not an object`;
    if (typeof change["text"] !== "string") return `contentChanges[${i}].text is not a string`;
    if (change["range"] !== undefined && !isRange(change["range"])) return `contentChanges[${i}].range is not a range`;
  }
  return undefined;
}

function isRange(value: unknown): boolean {
  return isObject(value) && isPosition(value["start"]) && isPosition(value["end"]);
}

function isPosition(value: unknown): boolean {
  return isObject(value) && isWholeNumber(value["line"]) && isWholeNumber(value["character"]);
}
